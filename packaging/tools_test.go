// Package packaging holds what ships torchlint to people without a Go
// toolchain: the Python wheels (python/), the pre-commit mirror
// (pre-commit/), and the tests of GoReleaser's archives, run as users
// will run them.
package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/internal/testtool"
)

// needTool finds an external program a test drives (see testtool.Need).
var needTool = testtool.Need

// repoRoot is the repository's root folder.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestReleaseWorkflow runs actionlint over the release workflow and checks
// that it builds on a Linux and a macOS runner.
func TestReleaseWorkflow(t *testing.T) {
	actionlint := needTool(t, "actionlint", "TORCHLINT_ACTIONLINT", "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	root := repoRoot(t)
	workflow := filepath.Join(root, ".github", "workflows", "release.yml")
	data, err := os.ReadFile(workflow)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"runner: ubuntu-", "runner: macos-", "goreleaser/goreleaser-action@", "build_wheels.py", "checksums.txt"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("release.yml does not contain %q", want)
		}
	}
	cmd := exec.Command(actionlint, "-no-color", workflow)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if wheelsDir != "" {
		_ = os.RemoveAll(wheelsDir)
	}
	os.Exit(code)
}
