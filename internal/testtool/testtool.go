// Package testtool is what the integration tests of several packages
// share: finding the external programs they drive.
package testtool

import (
	"os"
	"os/exec"
	"testing"
)

// Need returns the path of an external program a test drives: $envVar
// if set, else name on PATH. Outside CI a missing program skips the test
// with how to get it; in CI (whose ./scripts/test installs them) it
// fails.
func Need(t testing.TB, name, envVar, how string) string {
	t.Helper()
	if envVar != "" {
		if p := os.Getenv(envVar); p != "" {
			return p
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (%s); ./scripts/test installs it", name, how)
		}
		t.Skipf("%s is not installed (%s); ./scripts/test installs it", name, how)
	}
	return p
}
