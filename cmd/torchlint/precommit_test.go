package main

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

// git runs git in dir (see testtool.Git).
var git = testtool.Git

const leakyTraining = testtool.LeakyTraining

// TestPreCommitHooks runs this checkout's hooks with pre-commit itself, in
// a fresh repository holding a file with a TL101 finding: the hook fails
// and names the finding; once the file is fixed it passes. The golang
// hook is built by pre-commit from this repository; the system hook runs
// a freshly built binary from PATH.
func TestPreCommitHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds torchlint through pre-commit")
	}
	preCommit := needTool(t, "pre-commit", "", "Debian package pre-commit")
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("pre-commit try-repo needs this checkout to be a git repository")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "torchlint"), "./cmd/torchlint")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	gomodcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()

	repo := filepath.Join(work, "project")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	writeTree(t, repo, map[string]string{"train.py": leakyTraining, "README.md": "not Python\n"})
	git(t, repo, "add", ".")

	run := func(hook string, extraPath string) (int, string) {
		cmd := exec.Command(preCommit, "try-repo", root, hook, "--all-files", "--color", "never")
		cmd.Dir = repo
		env := append(os.Environ(),
			"PRE_COMMIT_HOME="+filepath.Join(work, "cache"),
			"GOMODCACHE="+strings.TrimSpace(string(gomodcache)), // reuse the modules already downloaded
			"GOFLAGS=-buildvcs=false",
		)
		// try-repo commits uncommitted changes to a shadow repository.
		env = append(env, testtool.GitAuthor...)
		if extraPath != "" {
			env = append(env, "PATH="+extraPath+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return testtool.ExitCode(t, err, "pre-commit\n"+string(out)), string(out)
	}

	for _, c := range []struct{ hook, path string }{{"torchlint", ""}, {"torchlint-system", bin}} {
		writeTree(t, repo, map[string]string{"train.py": leakyTraining})
		code, out := run(c.hook, c.path)
		t.Logf("pre-commit try-repo %s, failing run (exit %d):\n%s", c.hook, code, out)
		if code == 0 || !strings.Contains(out, "train.py:11:9: TL101") || !strings.Contains(out, "Failed") {
			t.Errorf("%s on a TL101 finding: exit %d, want a failure naming train.py:11:9: TL101", c.hook, code)
		}
		writeTree(t, repo, map[string]string{"train.py": strings.Replace(leakyTraining, "total += loss", "total += loss.item()", 1)})
		code, out = run(c.hook, c.path)
		t.Logf("pre-commit try-repo %s, passing run (exit %d):\n%s", c.hook, code, out)
		if code != 0 || !strings.Contains(out, "Passed") {
			t.Errorf("%s on the fixed file: exit %d, want it to pass", c.hook, code)
		}
	}
}
