package analyzer_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

// TestLintFilesReportsUnreadableFiles checks that a file that cannot be
// read becomes a TL002 finding while the other files are still linted,
// and that the order of findings does not depend on the order of paths.
func TestLintFilesReportsUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "a.py")
	src := "import torch\n\ndef f(loader):\n    for x in loader:\n        torch.cuda.empty_cache()\n        x.backward()\n"
	if err := os.WriteFile(good, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "vanished.py")
	asDir := filepath.Join(dir, "pkg.py")
	if err := os.Mkdir(asDir, 0o755); err != nil {
		t.Fatal(err)
	}
	enabled, err := rules.Selection{}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	r := analyzer.NewRunner(enabled, rules.SyntaxError, rules.IOError)
	for _, order := range [][]string{{gone, good, asDir}, {asDir, good, gone}} {
		diags, failures := r.LintFiles(order)
		if len(failures) != 0 {
			t.Fatalf("internal failures: %v", failures)
		}
		codes := map[string]string{}
		for _, d := range diags {
			codes[d.Path] += d.Rule.Code
		}
		if codes[good] != "TL301" || codes[gone] != "TL002" || codes[asDir] != "TL002" {
			t.Errorf("order %v: findings %v", order, codes)
		}
		if diags[0].Path != good || diags[1].Path != asDir || diags[2].Path != gone {
			t.Errorf("findings not sorted by path: %s, %s, %s", diags[0].Path, diags[1].Path, diags[2].Path)
		}
	}
}

// TestRulesForNarrowsPerFile checks that a per-file rule filter keeps a
// rule from running on the files it excludes, and only there.
func TestRulesForNarrowsPerFile(t *testing.T) {
	enabled, err := rules.Selection{ExtendSelect: []string{"TL403"}}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	r := analyzer.NewRunner(enabled, rules.SyntaxError, rules.IOError)
	r.RulesFor = func(path string) func(*analyzer.Rule) bool {
		return func(rule *analyzer.Rule) bool { return path != "skip.py" || rule.Code != "TL403" }
	}
	src := []byte("import torch\nstate = torch.load('x.pt').cuda()\nscaler = torch.cuda.amp.GradScaler()\n")
	count := func(path string) string {
		out := ""
		for _, d := range r.LintSource(path, src) {
			out += d.Rule.Code
		}
		return out
	}
	if got := count("keep.py"); got != "TL403TL401" && got != "TL401TL403" {
		t.Errorf("keep.py: %s, want TL401 and TL403", got)
	}
	if got := count("skip.py"); got != "TL401" {
		t.Errorf("skip.py: %s, want TL401 only", got)
	}
}
