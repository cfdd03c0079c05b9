package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixSample has one safe fix (TL401) and one unsafe one (TL403), with a
// BOM, CRLF line endings and a non-ASCII identifier to keep. TL403 is a
// preview rule, so the runs on it select it with --extend-select.
const fixSample = "\ufeffimport torch\r\n\r\nscaler = torch.cuda.amp.GradScaler()\r\nétat = torch.load(\"ckpt.pt\").cuda()\r\n"

func writeSample(t *testing.T, dir, name string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(fixSample), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFixMarkersAndSummary(t *testing.T) {
	dir := t.TempDir()
	writeSample(t, dir, "a.py", 0o644)
	code, out, _ := runIn(t, dir, "check", "--extend-select", "TL403", "--output-format", "concise", ".")
	if code != 1 || !strings.Contains(out, "TL401 [*] ") || strings.Contains(out, "TL403 [*]") {
		t.Errorf("exit %d; want the safe fix marked and the unsafe one not:\n%s", code, out)
	}
	if !strings.Contains(out, "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).") {
		t.Errorf("summary lacks the fixable counts:\n%s", out)
	}
	_, out, _ = runIn(t, dir, "check", "--extend-select", "TL403", "--output-format", "concise", "--unsafe-fixes", ".")
	if !strings.Contains(out, "TL403 [*] ") || !strings.Contains(out, "[*] 2 fixable with the `--fix` option.") {
		t.Errorf("with --unsafe-fixes both fixes should be marked:\n%s", out)
	}
	if readFile(t, filepath.Join(dir, "a.py")) != fixSample {
		t.Error("checking without --fix changed the file")
	}
}

func TestFixWritesSafeFixesKeepingEncodingAndMode(t *testing.T) {
	dir := t.TempDir()
	p := writeSample(t, dir, "a.py", 0o640)
	code, out, stderr := runIn(t, dir, "check", "--extend-select", "TL403", "--fix", "--show-fixes", "--output-format", "concise", ".")
	want := strings.Replace(fixSample, "torch.cuda.amp.GradScaler()", "torch.amp.GradScaler(\"cuda\")", 1)
	if got := readFile(t, p); got != want {
		t.Errorf("fixed file:\n%q\nwant:\n%q", got, want)
	}
	if code != 1 || !strings.Contains(out, "Found 2 errors (1 fixed, 1 remaining).") || !strings.Contains(out, "1 × TL401 (deprecated-cuda-amp)") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("file mode not kept: %v %v", info.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	// Unsafe fixes too; then nothing is left.
	code, out, _ = runIn(t, dir, "check", "--extend-select", "TL403", "--fix", "--unsafe-fixes", "--output-format", "concise", ".")
	want = strings.Replace(want, "torch.load(\"ckpt.pt\").cuda()", "torch.load(\"ckpt.pt\", map_location=\"cpu\").cuda()", 1)
	if got := readFile(t, p); got != want || code != 0 || !strings.Contains(out, "Found 1 error (1 fixed, 0 remaining).") {
		t.Errorf("exit %d, stdout %q, file %q", code, out, got)
	}
}

func TestDiffWritesNothing(t *testing.T) {
	dir := t.TempDir()
	p := writeSample(t, dir, "a.py", 0o644)
	code, out, stderr := runIn(t, dir, "check", "--extend-select", "TL403", "--diff", "a.py")
	if code != 1 || !strings.Contains(out, "--- a.py\n+++ a.py\n") || !strings.Contains(out, "+scaler = torch.amp.GradScaler(\"cuda\")\r\n") ||
		!strings.Contains(stderr, "Would fix 1 error.") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if readFile(t, p) != fixSample {
		t.Error("--diff changed the file")
	}
	if code, out, _ := runIn(t, dir, "check", "--diff", "--select", "TL403", "a.py"); code != 0 || out != "" {
		t.Errorf("--diff with nothing to fix: exit %d, stdout %q", code, out)
	}
}

func TestFixOnlyAndNoFix(t *testing.T) {
	dir := t.TempDir()
	p := writeSample(t, dir, "a.py", 0o644)
	if code, out, _ := runIn(t, dir, "check", "--extend-select", "TL403", "--fix", "--no-fix", "--output-format", "concise", "."); code != 1 || readFile(t, p) != fixSample ||
		!strings.Contains(out, "Found 2 errors.") {
		t.Errorf("--no-fix did not override --fix: exit %d, stdout %q", code, out)
	}
	code, out, _ := runIn(t, dir, "check", "--extend-select", "TL403", "--fix-only", ".")
	if code != 0 || out != "Fixed 1 error.\n" || readFile(t, p) == fixSample {
		t.Errorf("--fix-only: exit %d, stdout %q", code, out)
	}
	if code, out, _ := runIn(t, dir, "check", "--extend-select", "TL403", "--fix-only", "."); code != 0 || out != "No errors fixed.\n" {
		t.Errorf("--fix-only again: exit %d, stdout %q", code, out)
	}
}

func TestFixThroughSymlinks(t *testing.T) {
	outside := t.TempDir()
	target := writeSample(t, outside, "real.py", 0o644)
	tree := t.TempDir()
	if err := os.Symlink(target, filepath.Join(tree, "link.py")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	code, _, stderr := runIn(t, tree, "check", "--extend-select", "TL403", "--fix", ".")
	if code != 2 || !strings.Contains(stderr, "outside") || readFile(t, target) != fixSample {
		t.Errorf("symlink out of the tree: exit %d, stderr %q; the target must stay untouched", code, stderr)
	}
	inner := writeSample(t, tree, "inner.py", 0o644)
	if err := os.Remove(filepath.Join(tree, "link.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("inner.py", filepath.Join(tree, "alias.py")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runIn(t, tree, "check", "--extend-select", "TL403", "--fix", "alias.py"); code != 1 {
		t.Errorf("symlink inside the tree: exit %d, stderr %q", code, stderr)
	}
	if li, err := os.Lstat(filepath.Join(tree, "alias.py")); err != nil || li.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if readFile(t, inner) == fixSample {
		t.Error("the symlink's target inside the tree was not fixed")
	}
}

func TestFixJSONCarriesEdits(t *testing.T) {
	dir := t.TempDir()
	writeSample(t, dir, "a.py", 0o644)
	_, out, _ := runIn(t, dir, "check", "--extend-select", "TL403", "--output-format", "json", ".")
	for _, want := range []string{`"applicability": "safe"`, `"applicability": "unsafe"`, `"content": "torch.amp.GradScaler"`, `"message": "Add ` + "`map_location=\\\"cpu\\\"`" + `"`} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON lacks %s:\n%s", want, out)
		}
	}
}
