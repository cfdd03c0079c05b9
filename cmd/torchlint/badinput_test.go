package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/torchlint/torchlint/analyzer"
)

// goodFile has one finding, which every bad-input run must still report.
// It is TL403's, a preview rule, so the runs that expect it select it.
const goodFile = "import torch\nstate = torch.load(\"a.pt\").cuda()\n"

func nested(open, close string, n int) string {
	return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
}

func nestedBlocks(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "pass\n")
	return b.String()
}

func generatedModule(size int) string {
	var b strings.Builder
	b.WriteString("import torch\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "@torch.no_grad()\ndef f%d(model, loader):\n    total = 0\n    for x in loader:\n        total += model(x).sum().item()\n    return total\n\n", i)
	}
	return b.String()
}

// TestBadInput lints each kind of bad input beside a good file: the run
// names the bad file in a diagnostic or a warning, exits with the right
// code, and still reports the good file's finding.
func TestBadInput(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	cases := []struct {
		name string
		file string // the bad file, relative to the project
		make func(t *testing.T, path string)
		args []string
		code int
		want string // in stdout or stderr; "" for a clean lint of the bad file
	}{
		{"empty file", "empty.py", content(""), nil, 1, ""},
		{"only comments", "comments.py", content("# a comment\n# another\n"), nil, 1, ""},
		{"10,000-level nested expression", "deep_expr.py", content("x = " + nested("(", ")", 10000) + "\n"), nil, 1, ""},
		{"10,000-level nested lists", "deep_list.py", content("x = " + nested("[", "]", 10000) + "\n"), nil, 1, ""},
		{"2,000-level nested blocks", "deep_blocks.py", content(nestedBlocks(2000)), nil, 1, ""},
		{"50 MB module over the limit", "big.py", content(generatedModule(50 << 20)), nil, 1, "big.py:1:1: TL002 file is 50.0 MB, over the 10.0 MB limit"},
		{"single 5 MB line", "long_line.py", content("x = [" + strings.Repeat("1, ", 5<<20/3) + "]\n"), nil, 1, ""},
		{"NUL bytes", "nul.py", content("import torch\x00\nx = 1\x00\n"), nil, 1, "nul.py:1:1: TL001"},
		{"invalid UTF-8", "latin1.py", content("s = 'caf\xe9'\n"), nil, 1, "latin1.py:1:9: TL002 file is not valid UTF-8"},
		{"UTF-8 BOM", "bom.py", content("\ufeffimport torch\nw = torch.load('w.pt').cuda()\n"), nil, 1, "bom.py:2:5: TL403"},
		{"CRLF endings", "crlf.py", content("import torch\r\n\r\nw = torch.load('w.pt').cuda()\r\n"), nil, 1, "crlf.py:3:5: TL403"},
		{"lone CR endings", "cr.py", content("import torch\r\rw = torch.load('w.pt').cuda()\r"), nil, 1, "cr.py:3:5: TL403"},
		{"tabs mixed with spaces", "tabs.py", content("import torch\nif True:\n\tx = 1\n        w = torch.load('w.pt').cuda()\n"), nil, 1, "tabs.py"},
		{"Python 2 syntax", "py2.py", content("print \"x\"\n"), nil, 1, "py2.py:1:1: TL001 SyntaxError: Missing parentheses in call to 'print'"},
		{"a PNG named .py", "image.py", content(string(png)), nil, 1, "image.py:1:1: TL002 file is not valid UTF-8"},
		{"an unreadable file", "secret.py", unreadable, nil, 1, "secret.py:1:1: TL002 cannot read file: permission denied"},
		{"a directory named x.py", "x.py", func(t *testing.T, p string) { mkdir(t, filepath.Join(p, "inner")) }, nil, 1, ""},
		{"a FIFO named explicitly", "pipe.py", mkfifo, []string{"pipe.py", "."}, 1, "pipe.py:1:1: TL002 cannot read file: not a regular file"},
		{"a symlink loop", "loop.py", func(t *testing.T, p string) { symlink(t, "loop.py", p) }, nil, 1, "loop.py: too many levels of symbolic links; skipped"},
		{"a non-existent path", "missing.py", func(*testing.T, string) {}, []string{"missing.py", "ok.py"}, 2, "missing.py: no such file or directory"},
		{"a bad configuration", "pyproject.toml", content("[tool.torchlint]\nselect = 3\n"), nil, 2, "pyproject.toml:2: `select`: expected an array of strings, got an integer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"ok.py": goodFile})
			c.make(t, filepath.Join(dir, c.file))
			args := append([]string{"check", "--no-cache", "--extend-select", "TL403", "--output-format", "concise"}, c.args...)
			if c.args == nil {
				args = append(args, ".")
			}
			start := time.Now()
			code, out, stderr := runIn(t, dir, args...)
			if d := time.Since(start); d > 2*time.Minute {
				t.Errorf("took %v", d)
			}
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, head(out), stderr)
			}
			if c.want != "" && !strings.Contains(out+stderr, c.want) {
				t.Errorf("output does not contain %q\nstdout:\n%s\nstderr:\n%s", c.want, head(out), stderr)
			}
			if c.code == 1 && !strings.Contains(out, "ok.py:2:9: TL403") {
				t.Errorf("the good file's finding is missing:\n%s", head(out))
			}
			if strings.Contains(stderr, "internal error") || strings.Contains(stderr, "panic") {
				t.Errorf("internal error: %s", stderr)
			}
		})
	}
}

// TestLargeModuleWithoutLimit lints a module twice the default size limit
// when the limit is lifted: it parses and lints, without a syntax error.
// (Twice, not more: the parser's own time limit for one file must stay
// far off on a loaded machine.)
func TestLargeModuleWithoutLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("lints 20 MB")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"big.py": generatedModule(2 * analyzer.DefaultMaxFileSize)})
	code, out, stderr := runIn(t, dir, "check", "--no-cache", "--max-file-size", "-1", "--output-format", "concise", "big.py")
	if code != 0 || stderr != "" || !strings.Contains(out, "All checks passed!") {
		t.Errorf("exit %d, stderr %q\n%s", code, stderr, head(out))
	}
}

// TestParallelOutputIsWhole lints many files with findings on several
// workers: every finding appears once, on a line of its own, in order.
func TestParallelOutputIsWhole(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 300; i++ {
		files[fmt.Sprintf("m%03d.py", i)] = goodFile + strings.Repeat("# padding\n", i%7)
	}
	writeTree(t, dir, files)
	_, out, _ := runIn(t, dir, "check", "--no-cache", "--extend-select", "TL403", "--output-format", "concise", ".")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 302 {
		t.Fatalf("%d lines, want 300 findings and 2 summary lines", len(lines))
	}
	for i := 0; i < 300; i++ {
		if want := fmt.Sprintf("m%03d.py:2:9: TL403 `torch.load` without", i); !strings.HasPrefix(lines[i], want) || strings.Count(lines[i], "TL403") != 1 {
			t.Fatalf("line %d: %q, want it to start with %q", i, lines[i], want)
		}
	}
}

func content(s string) func(*testing.T, string) {
	return func(t *testing.T, p string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func unreadable(t *testing.T, p string) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("root reads any file; the unreadable case needs another user")
	}
	content(goodFile)(t, p)
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Skip("no symlinks here:", err)
	}
}

func head(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}
