package rules

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
)

// lintFixture lints the fixture at path with rule alone (and the
// syntax and I/O rules).
func lintFixture(t *testing.T, path string, rule *analyzer.Rule) []analyzer.Diagnostic {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return analyzer.NewRunner([]*analyzer.Rule{rule}, SyntaxError, IOError).LintSource(path, src)
}

// TestGradAssumedThroughCallers checks what a finding says it assumed
// where grad is enabled in a function only through the calls of another
// that nothing calls: that function, by name, not "no call of it".
func TestGradAssumedThroughCallers(t *testing.T) {
	diags := lintFixture(t, "../testdata/python/TL201_assumed_callers.py", EvalWithoutNoGrad)
	want := map[int]string{
		18: "grad is enabled where `sample` runs only through its calls in `sample_chain`, whose grad mode no call in the project shows",
		45: "",
	}
	seen := map[int]bool{}
	for _, d := range diags {
		w, ok := want[d.Pos.Line]
		if !ok || d.Rule.Code != "TL201" {
			continue
		}
		seen[d.Pos.Line] = true
		switch {
		case w == "" && len(d.Assumed) > 0:
			t.Errorf("line %d: assumed %q, want nothing", d.Pos.Line, d.Assumed)
		case w != "" && !slices.Contains(d.Assumed, w):
			t.Errorf("line %d: assumed %q, want %q", d.Pos.Line, d.Assumed, w)
		}
		for _, a := range d.Assumed {
			if strings.Contains(a, "no call of it found in the project") {
				t.Errorf("line %d: %q: the function is called", d.Pos.Line, a)
			}
		}
	}
	for line := range want {
		if !seen[line] {
			t.Errorf("line %d: no TL201 finding", line)
		}
	}
}
