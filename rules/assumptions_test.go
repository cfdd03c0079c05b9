package rules

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
)

// TestGradAssumedThroughCallers checks what a finding says it assumed
// where grad is enabled in a function only through the calls of another
// that nothing calls: that function, by name, not "no call of it".
func TestGradAssumedThroughCallers(t *testing.T) {
	const path = "../testdata/python/TL201_assumed_callers.py"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	runner := analyzer.NewRunner([]*analyzer.Rule{EvalWithoutNoGrad}, SyntaxError, IOError)
	want := map[int]string{
		18: "grad is enabled where `sample` runs only through its calls in `sample_chain`, whose grad mode no call in the project shows",
		45: "",
	}
	seen := map[int]bool{}
	for _, d := range runner.LintSource(path, src) {
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
			if strings.Contains(a, "no call of it in the project") {
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
