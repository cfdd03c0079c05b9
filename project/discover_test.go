package project

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// projectTree is a project as users have them: a virtual environment,
// build output, nested .gitignore files, a git exclude file, a nested
// configuration, generated code and a script without an extension.
func projectTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"train.py":                     "",
		"notes.txt":                    "",
		"bin/run-training":             "",
		".venv/lib/site.py":            "",
		"venv/x.py":                    "",
		"node_modules/y.py":            "",
		"build/gen.py":                 "",
		"pkg/model.py":                 "",
		"pkg/model_pb2.py":             "",
		"pkg/keep_pb2.py":              "",
		"pkg/.gitignore":               "*_pb2.py\n!keep_pb2.py\n",
		"pkg/legacy/old.py":            "",
		"pkg/pyproject.toml":           "[tool.torchlint]\nextend-exclude = [\"legacy\", \"experiments/*.py\"]\n",
		"pkg/experiments/try.py":       "",
		"pkg/experiments/deep/keep.py": "",
		"secret.py":                    "",
		".gitignore":                   "# build output\nbuild/\n/top_only.py\n",
		"top_only.py":                  "",
		"sub/top_only.py":              "",
		".git/info/exclude":            "secret.py\n",
		".git/HEAD":                    "ref: refs/heads/main\n",
		"data/.gitignore":              "*\n",
		"data/cached.py":               "",
		"tests/test_a.py":              "",
		"tests/__pycache__/test_a.cpython-311.py": "",
	})
	return dir
}

func discoverIn(t *testing.T, dir string, d *Discoverer, args ...string) (files []string, warnings []string) {
	t.Helper()
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Chdir(old) }()
	if d.Configs == nil {
		d.Configs = NewConfigs(dir)
	}
	d.Warn = func(s string) { warnings = append(warnings, s) }
	files, err := d.Discover(args)
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		files[i] = filepath.ToSlash(files[i])
	}
	return files, warnings
}

func TestDiscoverRespectsExcludesAndGitignore(t *testing.T) {
	dir := projectTree(t)
	files, warnings := discoverIn(t, dir, &Discoverer{}, ".")
	want := "pkg/experiments/deep/keep.py pkg/keep_pb2.py pkg/model.py sub/top_only.py tests/test_a.py train.py"
	if got := strings.Join(files, " "); got != want {
		t.Errorf("files:\n got %s\nwant %s", got, want)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}

	yes, no := true, false
	files, _ = discoverIn(t, dir, &Discoverer{RespectGitignore: &no}, ".")
	for _, f := range []string{"build/gen.py", "pkg/model_pb2.py", "secret.py", "top_only.py", "data/cached.py"} {
		if !contains(files, f) {
			t.Errorf("--no-respect-gitignore: %s missing from %v", f, files)
		}
	}
	if contains(files, ".venv/lib/site.py") || contains(files, "pkg/legacy/old.py") {
		t.Errorf("--no-respect-gitignore must keep the excludes: %v", files)
	}

	// Explicit files are linted whatever their name, unless --force-exclude.
	files, _ = discoverIn(t, dir, &Discoverer{}, "bin/run-training", ".venv/lib/site.py", "build/gen.py")
	if strings.Join(files, " ") != "bin/run-training .venv/lib/site.py build/gen.py" {
		t.Errorf("explicit files: %v", files)
	}
	files, _ = discoverIn(t, dir, &Discoverer{ForceExclude: &yes}, "bin/run-training", ".venv/lib/site.py", "pkg/legacy/old.py", "pkg/experiments/try.py")
	if strings.Join(files, " ") != "bin/run-training" {
		t.Errorf("--force-exclude: %v, want only bin/run-training", files)
	}

	// --exclude replaces the defaults; --extend-exclude adds to them.
	files, _ = discoverIn(t, dir, &Discoverer{Exclude: []string{"tests"}, ExcludeSet: true}, ".")
	if contains(files, "tests/test_a.py") || !contains(files, ".venv/lib/site.py") || !contains(files, "venv/x.py") {
		t.Errorf("--exclude tests: %v", files)
	}
	files, _ = discoverIn(t, dir, &Discoverer{ExtendExclude: Anchor([]string{"tests/*.py", "train*"}, dir)}, ".")
	if contains(files, "tests/test_a.py") || contains(files, "train.py") || contains(files, ".venv/lib/site.py") || !contains(files, "pkg/model.py") {
		t.Errorf("--extend-exclude: %v", files)
	}

	// Walking a subfolder still applies the .gitignore files above it.
	files, _ = discoverIn(t, filepath.Join(dir, "pkg"), &Discoverer{}, ".")
	if strings.Join(files, " ") != "experiments/deep/keep.py keep_pb2.py model.py" {
		t.Errorf("walk from pkg/: %v", files)
	}
}

func TestDiscoverOddEntries(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "", "real/b.py": ""})
	if err := os.Symlink("loop.py", filepath.Join(dir, "loop.py")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.py", filepath.Join(dir, "alias.py")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Chmod(locked, 0o755) }()
	files, warnings := discoverIn(t, dir, &Discoverer{}, ".")
	if got := strings.Join(files, " "); got != "a.py alias.py real/b.py" {
		t.Errorf("files: %s (symlinked folders are not followed, FIFOs are skipped)", got)
	}
	joined := strings.Join(warnings, "\n")
	if !strings.Contains(joined, "loop.py: too many levels of symbolic links") {
		t.Errorf("no warning about the symlink loop: %q", joined)
	}
	if os.Geteuid() != 0 && !strings.Contains(joined, "locked: permission denied") {
		t.Errorf("no warning about the unreadable folder: %q", joined)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestDiscoverLinkedWorktree: in a linked worktree (or a submodule) .git
// is a file naming the git folder; info/exclude is read from the
// repository's common folder, and nothing warns.
func TestDiscoverLinkedWorktree(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo.git")
	wt := filepath.Join(base, "wt")
	for _, d := range []string{filepath.Join(repo, "info"), filepath.Join(repo, "worktrees", "wt"), wt} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(repo, "info", "exclude"):              "scratch.py\n",
		filepath.Join(repo, "worktrees", "wt", "commondir"): "../..\n",
		filepath.Join(wt, ".git"):                           "gitdir: ../repo.git/worktrees/wt\n",
		filepath.Join(wt, "train.py"):                       "import torch\n",
		filepath.Join(wt, "scratch.py"):                     "import torch\n",
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, warnings := discoverIn(t, wt, &Discoverer{}, ".")
	if strings.Join(got, " ") != "train.py" {
		t.Errorf("files: %v, want train.py alone (scratch.py is excluded by the repository's info/exclude)", got)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
}
