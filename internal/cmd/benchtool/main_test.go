package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/testtool"
	"github.com/torchlint/torchlint/lsp"
)

// serverEnv makes the test binary serve the Language Server Protocol on
// its standard input and output, as `torchlint server` does, so that the
// tests of `benchtool lsp` need no torchlint build.
const serverEnv = "BENCHTOOL_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		cwd, err := os.Getwd()
		if err == nil {
			err = lsp.Serve(os.Stdin, os.Stdout, lsp.Options{Cwd: cwd, Version: "0.0.0-test"})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

func runTool(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestParse: the parse baseline reads and parses every Python file of
// the list, fixtures with syntax errors and non-UTF-8 text included,
// leaves notebooks out, and fails on a file it cannot read; so does the
// copy floor, which also counts the nodes a check's parse keeps.
func TestParse(t *testing.T) {
	dir := filepath.Join(repoRoot(), "testdata", "python")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var list strings.Builder
	files, size, nodes := 0, int64(0), 0
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".py") {
			src, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			f, err := analyzer.Parse(e.Name(), src)
			if err != nil {
				t.Fatal(err)
			}
			list.WriteString(e.Name() + "\n")
			files++
			size += int64(len(src))
			nodes += len(f.Nodes)
		}
	}
	list.WriteString("notebook.ipynb\n")
	listFile := filepath.Join(t.TempDir(), "list")
	if err := os.WriteFile(listFile, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runTool(t, dir, "parse", listFile)
	if want := fmt.Sprintf("%d files, %d bytes\n", files, size); code != 0 || stdout != want {
		t.Errorf("parse: exit %d, %q (stderr %q), want %q", code, stdout, stderr, want)
	}
	code, stdout, stderr = runTool(t, dir, "copy", listFile)
	if want := fmt.Sprintf("%d files, %d bytes, %d nodes\n", files, size, nodes); code != 0 || stdout != want {
		t.Errorf("copy: exit %d, %q (stderr %q), want %q", code, stdout, stderr, want)
	}

	if err := os.WriteFile(listFile, []byte("TL101_accumulate.py\nmissing.py\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"parse", "copy"} {
		code, _, stderr = runTool(t, dir, cmd, listFile)
		if code != 1 || !strings.Contains(stderr, "missing.py") {
			t.Errorf("%s of a missing file: exit %d, stderr %q", cmd, code, stderr)
		}
	}
}

// TestPick: the edited file is the one most imported, by absolute,
// relative and from-package imports; a bare `import model` is the
// model.py beside the importer; without imports, the two largest files.
func TestPick(t *testing.T) {
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"pkg/__init__.py":     "",
		"pkg/models.py":       "class Net: pass\n",
		"pkg/train.py":        "from .models import Net\nimport torch\n\n# a longer file than eval.py\n",
		"pkg/eval.py":         "from pkg import models\n",
		"scripts/run.py":      "import pkg.models as m\n",
		"a/model.py":          "x = 1\n",
		"b/model.py":          "x = 2\n",
		"b/main.py":           "import model\n",
		"b/main2.py":          "from model import x\n",
		"other/lonely.py":     "",
		"notes/explore.ipynb": "{}",
	})
	list := "pkg/__init__.py\npkg/models.py\npkg/train.py\npkg/eval.py\nscripts/run.py\na/model.py\nb/model.py\nb/main.py\nb/main2.py\nother/lonely.py\nnotes/explore.ipynb\n"
	write := func(s string) string {
		p := filepath.Join(t.TempDir(), "list")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if code, stdout, stderr := runTool(t, dir, "pick", write(list)); code != 0 || stdout != "pkg/models.py\npkg/train.py\n" {
		t.Errorf("pick: exit %d, %q (stderr %q)", code, stdout, stderr)
	}
	// Without pkg/, b/model.py has two importers and a/model.py none.
	list = "a/model.py\nb/model.py\nb/main.py\nb/main2.py\n"
	if code, stdout, stderr := runTool(t, dir, "pick", write(list)); code != 0 || stdout != "b/model.py\nb/main2.py\n" {
		t.Errorf("pick of the sub-projects: exit %d, %q (stderr %q)", code, stdout, stderr)
	}
	if code, stdout, stderr := runTool(t, dir, "pick", write("a/model.py\npkg/train.py\nother/lonely.py\n")); code != 0 || stdout != "pkg/train.py\na/model.py\n" {
		t.Errorf("pick without imports: exit %d, %q (stderr %q)", code, stdout, stderr)
	}
	if code, stdout, _ := runTool(t, dir, "pick", write("other/lonely.py\n")); code != 0 || stdout != "other/lonely.py\n\n" {
		t.Errorf("pick of one file: exit %d, %q", code, stdout)
	}
	if code, _, _ := runTool(t, dir, "pick", write("notes/explore.ipynb\n")); code != 1 {
		t.Errorf("pick of no Python file: exit %d, want 1", code)
	}
}

// TestLSP drives the language server (this test binary, serving as
// `torchlint server`): with the default edit, a comment, the other file's
// findings do not change and nothing is published for it; an edit that
// defines the class the other file imports gives it a finding, published
// after the edited file's diagnostics.
func TestLSP(t *testing.T) {
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		// The finding is of low confidence (a function named for
		// evaluation, called by no code of the project): shown as asked.
		"pyproject.toml": "[tool.torchlint]\nconfidence = \"low\"\n",
		"models.py":      "import torch.nn as nn\n",
		"evaluate.py":    "from models import Net\n\n\ndef evaluate(batches):\n    clf = Net()\n    return [clf(b) for b in batches]\n",
	})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(serverEnv, "1")
	seconds := `\d+\.\d{6}`
	for _, c := range []struct {
		name, append, other string
	}{
		{"comment", "", "none"},
		{"definition", "\n\nclass Net(nn.Module):\n    pass\n", seconds},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"lsp", "-root", dir, "-edit", "models.py", "-other", "evaluate.py", "-grace", "500ms"}
			if c.append != "" {
				args = append(args, "-append", c.append)
			}
			code, stdout, stderr := runTool(t, t.TempDir(), append(args, "--", self)...)
			want := regexp.MustCompile(`^open ` + seconds + `\nopen_other ` + seconds + `\nedited ` + seconds + `\nother ` + c.other + `\n$`)
			if code != 0 || !want.MatchString(stdout) {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
		})
	}
	code, _, stderr := runTool(t, dir, "lsp", "-edit", "missing.py", "--", self)
	if code != 1 || !strings.Contains(stderr, "missing.py") {
		t.Errorf("lsp with a missing file: exit %d, stderr %q", code, stderr)
	}
}

// TestBenchScript runs scripts/bench for one round, with --growth, on the
// small corpus in testdata/ecosystem and a repository with a symbolic
// link, and checks that its tables have every row, and runs ShellCheck
// over it.
func TestBenchScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds torchlint and runs it about twenty times")
	}
	root, err := filepath.Abs(repoRoot())
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "scripts", "bench")
	shellcheck := testtool.Need(t, "shellcheck", "", "Debian package shellcheck")
	if out, err := exec.Command(shellcheck, script).CombinedOutput(); err != nil {
		t.Fatalf("shellcheck scripts/bench: %v\n%s", err, out)
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("/usr/bin/time is not installed (Debian package time)")
	}
	corpus := filepath.Join(root, "testdata", "ecosystem")
	// A third repository whose first file is a relative symbolic link to
	// a file further down the list: the growth projects made of the
	// first files must hold the file it names, not a link to nothing.
	links := filepath.Join(t.TempDir(), "links")
	for name, src := range map[string]string{
		"z/real.py": "import torch\n\n\ndef f(x):\n    return x\n",
		"a/b.py":    "import torch\n",
		"z/w1.py":   "x = 1\n",
		"z/w2.py":   "x = 2\n",
	} {
		p := filepath.Join(links, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../z/real.py", filepath.Join(links, "a", "a_link.py")); err != nil {
		t.Skipf("cannot make a symbolic link: %v", err)
	}
	svg := filepath.Join(t.TempDir(), "growth.svg")
	cmd := exec.Command(script, "--runs", "1", "--growth", svg,
		filepath.Join(corpus, "train-loop"), filepath.Join(corpus, "notebook-repo"), links)
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/bench: %v\n%s", err, out)
	}
	report := string(out)
	for _, want := range []string{
		"machine: ", " CPUs (nproc), ",
		"train-loop: 2 files, ", "notebook-repo: 1 files, ", "(1 notebooks, not in the parse baseline)",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("output lacks %q:\n%s", want, report)
		}
	}
	num := `\d+\.\d+`
	for _, repo := range []string{"train-loop", "notebook-repo"} {
		for _, row := range []string{
			`parse baseline +\| +` + num + ` \| +` + num + ` \| +` + num + ` \| +1\.00 \|`,
			`parse and copy of the tree +\| +` + num + ` \| +` + num + ` \| +` + num + ` \| +` + num + ` \|`,
			`check, no cache +\| +` + num + ` \| +` + num + ` \| +` + num + ` \| +` + num + ` \|`,
			`check, filling a new cache +\|`,
			`check, warm cache, unchanged +\|`,
			`check, warm cache, one file edited +\|`,
			`that file alone, warm cache +\|`,
			`that file alone, edited again +\|`,
			`server: open it, to diagnostics +\| +` + num + ` \| +- \|`,
			`server: edit it, to its diagnostics +\| +` + num + ` \|`,
			// The evaluation the added helper's edit changes gets new
			// findings: a time, never "none".
			`server: edit a helper, to the buffer it changes +\| +` + num + ` \|`,
			`server: whole session +\| +- \| +` + num + ` \| +` + num + ` \|`,
		} {
			if !regexp.MustCompile(`(?m)^\| ` + repo + ` +\| ` + row).MatchString(report) {
				t.Errorf("no row /%s/ for %s:\n%s", row, repo, report)
			}
		}
	}
	if !regexp.MustCompile(`(?m)^\| train-loop +\| server: edit it, to the other file +\| +none \|`).MatchString(report) {
		t.Errorf("the other file of train-loop should have had no new diagnostics:\n%s", report)
	}
	// 2 + 1 + 5 Python files (the notebook is left out): the project of
	// the first half holds train-loop's two, src/step.py and the link.
	if strings.Contains(report, "no such file") || !regexp.MustCompile(`(?m)^\| 4 \| .*\n\| 8 \| `).MatchString(report) {
		t.Errorf("the growth projects of the first 4 and 8 files should hold them all:\n%s", report)
	}
	if _, err := os.Stat(svg); err != nil {
		t.Errorf("no growth plot: %v", err)
	}
	if !regexp.MustCompile(`(?m)^\| all repositories +\| check, no cache +\| +` + num + ` \|`).MatchString(report) {
		t.Errorf("no total row:\n%s", report)
	}
}
