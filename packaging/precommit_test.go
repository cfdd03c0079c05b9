package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/internal/testtool"
)

const leakyTraining = testtool.LeakyTraining

// gitIn runs git in dir (see testtool.Git).
var gitIn = testtool.Git

// TestPreCommitMirror runs the pre-commit mirror (packaging/pre-commit,
// written by make-mirror.sh) with pre-commit itself, as it will run once
// published: pre-commit pip-installs the mirror, which pulls the torchlint
// wheel; here pip finds the wheels in a local folder instead of PyPI (with
// Debian's setuptools and wheel wheels, which building the mirror needs),
// and no Go toolchain is involved. The hook fails on a TL101 finding and
// passes once it is fixed.
func TestPreCommitMirror(t *testing.T) {
	d := needDist(t)
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("installs the linux x86_64 wheel")
	}
	preCommit := needTool(t, "pre-commit", "", "Debian package pre-commit")
	wheel := wheelFor(t, builtWheels(t, d), "manylinux_2_17_x86_64")
	version := strings.Split(filepath.Base(wheel), "-")[1]
	work := t.TempDir()

	// The wheelhouse: torchlint's wheel and the mirror's build backend.
	wheelhouse := filepath.Join(work, "wheelhouse")
	if err := os.Mkdir(wheelhouse, 0o755); err != nil {
		t.Fatal(err)
	}
	backend, _ := filepath.Glob("/usr/share/python-wheels/setuptools-*.whl")
	wheelPkg, _ := filepath.Glob("/usr/share/python-wheels/wheel-*.whl")
	if len(backend) == 0 || len(wheelPkg) == 0 {
		t.Fatal("no setuptools or wheel wheel in /usr/share/python-wheels (Debian packages python3-setuptools-whl and python3-wheel-whl)")
	}
	for _, w := range []string{wheel, backend[0], wheelPkg[0]} {
		data, err := os.ReadFile(w)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wheelhouse, filepath.Base(w)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	mirror := filepath.Join(work, "torchlint-pre-commit")
	mk := exec.Command(filepath.Join(repoRoot(t), "packaging", "pre-commit", "make-mirror.sh"), version, mirror)
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make-mirror.sh: %v\n%s", err, out)
	}
	if out, err := exec.Command(preCommit, "validate-manifest", filepath.Join(mirror, ".pre-commit-hooks.yaml")).CombinedOutput(); err != nil {
		t.Fatalf("pre-commit validate-manifest: %v\n%s", err, out)
	}
	pyproject, err := os.ReadFile(filepath.Join(mirror, "pyproject.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pyproject), `dependencies = ["torchlint==`+version+`"]`) {
		t.Fatalf("the mirror does not pin torchlint==%s:\n%s", version, pyproject)
	}
	gitIn(t, mirror, "init", "-q")
	gitIn(t, mirror, "add", ".")
	gitIn(t, mirror, "commit", "-q", "-m", "torchlint "+version)

	project := filepath.Join(work, "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, project, "init", "-q")
	home := filepath.Join(work, "cache")
	// No torchlint on PATH: the hook can only run the one pip installs.
	var path []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "torchlint")); err == nil {
			continue
		}
		path = append(path, dir)
	}
	tryRepo := func(source string) (int, string) {
		if err := os.WriteFile(filepath.Join(project, "train.py"), []byte(source), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, project, "add", ".")
		cmd := exec.Command(preCommit, "try-repo", mirror, "torchlint", "--all-files", "--color", "never")
		cmd.Dir = project
		cmd.Env = append(os.Environ(),
			"PRE_COMMIT_HOME="+home, "PATH="+strings.Join(path, string(os.PathListSeparator)),
			"PIP_NO_INDEX=1", "PIP_FIND_LINKS="+wheelhouse, "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1",
		)
		cmd.Env = append(cmd.Env, testtool.GitAuthor...)
		out, err := cmd.CombinedOutput()
		return testtool.ExitCode(t, err, "pre-commit\n"+string(out)), string(out)
	}

	code, out := tryRepo(leakyTraining)
	t.Logf("pre-commit try-repo, failing run (exit %d):\n%s", code, out)
	if code == 0 || !strings.Contains(out, "train.py:11:9: TL101") || !strings.Contains(out, "Failed") {
		t.Errorf("on a TL101 finding: exit %d, want a failure naming train.py:11:9: TL101", code)
	}
	code, out = tryRepo(strings.Replace(leakyTraining, "total += loss", "total += loss.item()", 1))
	t.Logf("pre-commit try-repo, passing run (exit %d):\n%s", code, out)
	if code != 0 || !strings.Contains(out, "Passed") {
		t.Errorf("on the fixed file: exit %d, want it to pass", code)
	}
}
