// Package testtool is what the tests of several packages share: finding
// the external programs they drive, and writing small projects.
package testtool

import (
	"os"
	"os/exec"
	"path/filepath"
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

// WriteTree creates files (slash-separated path → content) under dir.
func WriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// LeakyTraining is a training loop that sums its loss without .item()
// (TL101 on the line `total += loss`), for the tests that run hooks and
// installed binaries on a project.
const LeakyTraining = `import torch


def train(model, loader, optimizer, criterion):
    total = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss
    return total
`
