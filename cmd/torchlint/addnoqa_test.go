package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addNoqaSample has findings on a plain line, on a line that already has
// another tool's directive, and on the first line of a backslash
// continuation, and ends without a newline.
const addNoqaSample = `import torch


def evaluate(model, loader):
    model.eval()
    total = 0
    for x, y in loader:
        out = model(x)  # noqa: E501
        total += torch.nn.functional.cross_entropy(out, y)
    return total


state = torch.load("ckpt.pt").cuda() if True else \
    None
banner = """torch.load("x.pt").cuda()  # not code
"""
net = torch.load("net.pt").cuda()`

func TestAddNoqaEndToEnd(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "train.py")
	if err := os.WriteFile(p, []byte(addNoqaSample), 0o640); err != nil {
		t.Fatal(err)
	}
	// TL403 is a preview rule: its findings are where the backslash
	// continuation and the missing final newline are, so it is selected.
	// The TL101 finding of the sample is of medium confidence (its model
	// is known by its name): every level is shown.
	code, _, stderr := runIn(t, dir, "check", "--no-cache", "--confidence", "low", "--extend-select", "TL403", "--add-noqa", ".")
	if code != 0 || !strings.Contains(stderr, "Added 4 noqa directives.") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	got := readFile(t, p)
	for _, want := range []string{
		"        out = model(x)  # noqa: E501, TL201\n",
		"        total += torch.nn.functional.cross_entropy(out, y)  # noqa: TL101\n",
		"state = torch.load(\"ckpt.pt\").cuda() if True else \\\n    None  # noqa: TL403\n",
		"banner = \"\"\"torch.load(\"x.pt\").cuda()  # not code\n\"\"\"\n",
		"net = torch.load(\"net.pt\").cuda()  # noqa: TL403",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("file lacks %q:\n%s", want, got)
		}
	}
	if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("file mode not kept: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	code, _, stderr = runIn(t, dir, "check", "--no-cache", "--extend-select", "TL403", "--add-noqa", ".")
	if code != 0 || strings.Contains(stderr, "Added") || readFile(t, p) != got {
		t.Errorf("second run: exit %d, stderr %q; it must add nothing", code, stderr)
	}
	code, out, _ := runIn(t, dir, "check", "--no-cache", "--extend-select", "TL900,TL403", "--output-format", "concise", ".")
	if code != 0 || !strings.Contains(out, "(4 suppressed)") {
		t.Errorf("check after --add-noqa: exit %d\n%s", code, out)
	}
}

// TestAddNoqaSyntaxErrorWarns checks that a file CPython rejects is left
// as it is, with a warning that names it and says what got no directive.
func TestAddNoqaSyntaxErrorWarns(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "old.py")
	src := "import torch\n\nx = torch.load('a.pt').cuda(async=True)\ny = torch.load('b.pt').cuda()\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runIn(t, dir, "check", "--no-cache", "--extend-select", "TL403", "--add-noqa", ".")
	if code != 0 || !strings.Contains(stderr, "old.py: it has a syntax error (TL001)") || !strings.Contains(stderr, "finding") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if readFile(t, p) != src {
		t.Errorf("a file with a syntax error was changed")
	}
}

func TestAddNoqaNotebookEndToEnd(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "notebooks", "magics.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "magics.ipynb")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runIn(t, dir, "check", "--no-cache", "--add-noqa", ".")
	if code != 0 || !strings.Contains(stderr, "Added 1 noqa directive.") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if got := readFile(t, p); !strings.Contains(got, `total += loss  # accumulates a graph across cells  # noqa: TL101\n"`) {
		t.Errorf("notebook:\n%s", got)
	}
	code, out, _ := runIn(t, dir, "check", "--no-cache", "--output-format", "concise", ".")
	if code != 0 {
		t.Errorf("check after --add-noqa: exit %d\n%s", code, out)
	}
}

func TestAddNoqaRejectsFixAndStdin(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"--add-noqa", "--fix", "."}, {"--add-noqa", "-"}} {
		code, _, stderr := runIn(t, dir, append([]string{"check"}, args...)...)
		if code != 2 || !strings.Contains(stderr, "--add-noqa") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
