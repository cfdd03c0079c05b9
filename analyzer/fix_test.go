package analyzer

import (
	"strings"
	"testing"
)

// testRule reports every call of the function named name, with the fix
// that fix builds.
func testRule(code, name string, fix func(f *File, call NodeID) *Fix) *Rule {
	return &Rule{Code: code, Name: "test-" + strings.ToLower(code), Kinds: []Kind{KindCall}, Check: func(p *Pass, call NodeID) {
		if p.File.TextIs(p.File.Field(call, FieldFunction), name) {
			p.ReportFix(call, "call of "+name, fix(p.File, call))
		}
	}}
}

func TestFixSource(t *testing.T) {
	syntax := &Rule{Code: "TL001", Name: "syntax-error"}
	ioErr := &Rule{Code: "TL002", Name: "io-error"}
	rename := testRule("TL901", "old", func(f *File, call NodeID) *Fix {
		fn := f.N(f.Field(call, FieldFunction))
		return &Fix{Message: "rename", Applicability: Safe, Edits: []Edit{Replace(fn.Start, fn.End, "new")}}
	})
	breaks := testRule("TL902", "bad", func(f *File, call NodeID) *Fix {
		return &Fix{Message: "break", Applicability: Safe, Edits: []Edit{Insert(f.N(call).End, ")")}}
	})
	grows := testRule("TL903", "loop", func(f *File, call NodeID) *Fix {
		args := f.N(f.Field(call, FieldArguments))
		return &Fix{Message: "grow", Applicability: Safe, Edits: []Edit{Insert(args.Start+1, "0, ")}}
	})
	unsafe := testRule("TL904", "risky", func(f *File, call NodeID) *Fix {
		fn := f.N(f.Field(call, FieldFunction))
		return &Fix{Message: "rename", Applicability: Unsafe, Edits: []Edit{Replace(fn.Start, fn.End, "safe")}}
	})
	r := NewRunner([]*Rule{rename, breaks, grows, unsafe}, syntax, ioErr)

	res := r.FixSource("a.py", []byte("old(1)\nbad(2)\nold(3)\nrisky()\n"), false)
	if got, want := string(res.Source), "new(1)\nbad(2)\nnew(3)\nrisky()\n"; got != want {
		t.Errorf("source = %q, want %q", got, want)
	}
	if len(res.Applied) != 2 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "TL902") {
		t.Errorf("applied %d, problems %q; want 2 applied and the TL902 fix dropped", len(res.Applied), res.Problems)
	}
	if len(res.Remaining) != 2 {
		t.Errorf("remaining %d findings, want 2 (bad, risky)", len(res.Remaining))
	}
	if res := r.FixSource("a.py", []byte("risky()\n"), true); string(res.Source) != "safe()\n" {
		t.Errorf("unsafe fix not applied with unsafe fixes on: %q", res.Source)
	}

	src := "old(1)\nloop()\n"
	res = r.FixSource("b.py", []byte(src), false)
	if string(res.Source) != src || len(res.Applied) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "did not converge") {
		t.Errorf("non-converging fixes: source %q, applied %d, problems %q", res.Source, len(res.Applied), res.Problems)
	}
}

func TestFixEditsOutsideFileAreDropped(t *testing.T) {
	syntax := &Rule{Code: "TL001", Name: "syntax-error"}
	ioErr := &Rule{Code: "TL002", Name: "io-error"}
	bad := testRule("TL905", "f", func(f *File, call NodeID) *Fix {
		return &Fix{Message: "overlap", Edits: []Edit{Replace(0, 3, "x"), Replace(2, 4, "y")}}
	})
	diags := NewRunner([]*Rule{bad}, syntax, ioErr).LintSource("c.py", []byte("f()\n"))
	if len(diags) != 1 || diags[0].Fix != nil {
		t.Errorf("overlapping edits: got %d findings, fix %v; want the finding without its fix", len(diags), diags[0].Fix)
	}
}
