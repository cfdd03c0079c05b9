package analyzer

import (
	"fmt"
	"strings"
	"testing"
)

// describe renders a parsed directive for comparison: its text, then
// "all" or its codes.
func describe(comment string, base uint32, d noqaDirective, ok bool) string {
	if !ok {
		return "none"
	}
	text := comment[d.Start-base : d.End-base]
	if len(d.Codes) == 0 {
		return fmt.Sprintf("%q all", text)
	}
	var codes []string
	for _, c := range d.Codes {
		if got := comment[c.Start-base : c.End-base]; !strings.EqualFold(got, c.Code) {
			return fmt.Sprintf("code %s spans %q", c.Code, got)
		}
		codes = append(codes, c.Code)
	}
	return fmt.Sprintf("%q %s", text, strings.Join(codes, ","))
}

func TestParseLineNoqa(t *testing.T) {
	const base = 100 // offsets are file offsets, not comment offsets
	cases := []struct{ comment, want string }{
		{"# noqa", `"# noqa" all`},
		{"#noqa", `"#noqa" all`},
		{"# NoQA", `"# NoQA" all`},
		{"# noqa  # why", `"# noqa" all`},
		{"# noqa, reason", `"# noqa" all`},
		{"# noqa: TL101", `"# noqa: TL101" TL101`},
		{"#noqa:TL101,TL201", `"#noqa:TL101,TL201" TL101,TL201`},
		{"# noqa: TL101 TL201", `"# noqa: TL101 TL201" TL101,TL201`},
		{"# noqa: TL101,  TL201 ,E501", `"# noqa: TL101,  TL201 ,E501" TL101,TL201,E501`},
		{"# NOQA : tl101", `"# NOQA : tl101" TL101`},
		{"# noqa: TL101 reason here", `"# noqa: TL101" TL101`},
		{"# noqa: TL101, F401 see #123", `"# noqa: TL101, F401" TL101,F401`},
		{"# noqa: TL101  # ok: TL201 is why", `"# noqa: TL101" TL101`},
		{"# type: ignore  # noqa: TL101", `"# noqa: TL101" TL101`},
		{"## noqa: TL101", `"# noqa: TL101" TL101`},
		{"# noqa: TL101x", "none"},
		{"# noqa:", "none"},
		{"# noqa: because", "none"},
		{"# noqanything", "none"},
		{"# noqa_TL101", "none"},
		{"# see noqa: TL101", "none"},
		{"# torchlint: noqa", "none"},
		{"# type: ignore", "none"},
	}
	for _, c := range cases {
		d, ok := parseLineNoqa(c.comment, base)
		if got := describe(c.comment, base, d, ok); got != c.want {
			t.Errorf("parseLineNoqa(%q) = %s, want %s", c.comment, got, c.want)
		}
	}
}

func TestParseFileNoqa(t *testing.T) {
	const base = 7
	cases := []struct{ comment, want string }{
		{"# torchlint: noqa", `"# torchlint: noqa" all`},
		{"#TorchLint:NOQA", `"#TorchLint:NOQA" all`},
		{"# torchlint : noqa  # why", `"# torchlint : noqa" all`},
		{"# torchlint: noqa: TL301", `"# torchlint: noqa: TL301" TL301`},
		{"# torchlint: noqa:tl301,TL101 generated code", `"# torchlint: noqa:tl301,TL101" TL301,TL101`},
		{"# torchlint: noqa:", "none"},
		{"# torchlint noqa", "none"},
		{"# ruff: noqa", "none"},
		{"# noqa", "none"},
		{"# see # torchlint: noqa", "none"},
	}
	for _, c := range cases {
		d, ok := parseFileNoqa(c.comment, base)
		if ok && !d.File {
			t.Errorf("parseFileNoqa(%q) is not marked file-level", c.comment)
		}
		if got := describe(c.comment, base, d, ok); got != c.want {
			t.Errorf("parseFileNoqa(%q) = %s, want %s", c.comment, got, c.want)
		}
	}
}

// noqaRules are test rules: TL901 reports calls of old (with a safe fix
// to new), TL904 calls of risky, TL900 is the unused-noqa rule.
func noqaRules() (syntax, ioErr, old, risky, unused *Rule) {
	syntax = &Rule{Code: SyntaxErrorCode, Name: "syntax-error"}
	ioErr = &Rule{Code: IOErrorCode, Name: "io-error"}
	old = testRule("TL901", "old", func(f *File, call NodeID) *Fix {
		fn := f.N(f.Field(call, FieldFunction))
		return &Fix{Message: "rename", Applicability: Safe, Edits: []Edit{Replace(fn.Start, fn.End, "new")}}
	})
	risky = testRule("TL904", "risky", func(*File, NodeID) *Fix { return nil })
	unused = &Rule{Code: UnusedNoqaCode, Name: "unused-noqa"}
	return
}

// findings renders diagnostics as "line:CODE" or "line:CODE(s)" for a
// suppressed one, in the order returned.
func findings(diags []Diagnostic) string {
	var out []string
	for _, d := range diags {
		s := fmt.Sprintf("%d:%s", d.Pos.Line, d.Rule.Code)
		if d.Suppressed {
			s += "(s)"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestNoqaSuppresses(t *testing.T) {
	syntax, ioErr, old, risky, _ := noqaRules()
	r := NewRunner([]*Rule{old, risky}, syntax, ioErr)
	cases := []struct{ name, src, want string }{
		{"line codes", "old(1)  # noqa: TL901\nold(2)\nold(3)  # noqa: tl904, TL901 why\nrisky()  # noqa: TL901\n",
			"1:TL901(s) 2:TL901 3:TL901(s) 4:TL904"},
		{"blanket", "old(1)  # noqa\nrisky()  #NOQA  # why\n", "1:TL901(s) 2:TL904(s)"},
		{"other comment first", "old(1)  # type: ignore  # noqa: TL901\n", "1:TL901(s)"},
		{"other tools and unknown codes", "old(1)  # noqa: E501, TL999\n", "1:TL901"},
		{"codes are exact", "old(1)  # noqa: TL9\n", "1:TL901"},
		{"invalid directive", "old(1)  # noqa:\nold(2)  # noqa: because\n", "1:TL901 2:TL901"},
		{"noqa in a string", "old(\"  # noqa: TL901\")\nold('''\n# noqa\n''')\n", "1:TL901 2:TL901"},
		{"multi-line finding, first line", "old(  # noqa: TL901\n    1,\n)\n", "1:TL901(s)"},
		{"multi-line finding, later line", "old(\n    1,  # noqa: TL901\n)\n", "1:TL901"},
		{"multi-line string, directive where it ends", "old('''\n'''), risky()  # noqa: TL901\nold(2)\n", "1:TL901(s) 2:TL904 3:TL901"},
		{"strings sharing a line", "x = old('''\n''', '''\n''')  # noqa\n", "1:TL901(s)"},
		{"backslash continuation", "x = old(1) + \\\n    2  # noqa: TL901\n", "1:TL901(s)"},
		{"CRLF backslash continuation", "x = old(1) + \\\r\n    2  # noqa: TL901\r\n", "1:TL901(s)"},
		{"backslash ending a comment", "old(1)  # C:\\\nx = 2  # noqa: TL901\n", "1:TL901"},
		{"file codes", "# torchlint: noqa: TL901\nold(1)\nrisky()\n", "2:TL901(s) 3:TL904"},
		{"file blanket", "import x\n\n# torchlint: noqa\nold(1)\nrisky()\n", "4:TL901(s) 5:TL904(s)"},
		{"file directive not on its own line", "x = 1  # torchlint: noqa\nold(1)\n", "2:TL901"},
	}
	for _, c := range cases {
		if got := findings(r.LintSource("a.py", []byte(c.src))); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// TestNoqaKeepsSyntaxErrors checks that no directive suppresses a syntax
// error, while the other findings of the file are still suppressed.
func TestNoqaKeepsSyntaxErrors(t *testing.T) {
	syntax, ioErr, old, risky, _ := noqaRules()
	r := NewRunner([]*Rule{old, risky}, syntax, ioErr)
	for _, src := range []string{
		"old(1)  # noqa\ndef (:  # noqa\n",
		"old(1)  # noqa: TL901, TL001\ndef (:  # noqa: TL001\n",
		"# torchlint: noqa\nold(1)  # noqa: TL901\ndef (:\n",
		"# torchlint: noqa: TL001, TL901\nold(1)\ndef (:\n",
	} {
		diags := r.LintSource("s.py", []byte(src))
		sawSyntax := false
		for _, d := range diags {
			switch d.Rule {
			case syntax:
				sawSyntax = true
				if d.Suppressed {
					t.Errorf("%q: syntax error at line %d is suppressed", src, d.Pos.Line)
				}
			case old:
				if !d.Suppressed {
					t.Errorf("%q: TL901 at line %d is not suppressed", src, d.Pos.Line)
				}
			}
		}
		if !sawSyntax {
			t.Errorf("%q: no syntax error reported: %s", src, findings(diags))
		}
	}
}

func TestSuppressedFixIsNotApplied(t *testing.T) {
	syntax, ioErr, old, _, _ := noqaRules()
	r := NewRunner([]*Rule{old}, syntax, ioErr)
	src := "old(1)  # noqa: TL901\nold(2)\nold(3)  # noqa\n"
	res := r.FixSource("f.py", []byte(src), true)
	if want := "old(1)  # noqa: TL901\nnew(2)\nold(3)  # noqa\n"; string(res.Source) != want {
		t.Errorf("fixed source %q, want %q", res.Source, want)
	}
	if len(res.Applied) != 1 || findings(res.Remaining) != "1:TL901(s) 3:TL901(s)" {
		t.Errorf("applied %d fixes, remaining %s; want 1 applied and the two suppressed findings", len(res.Applied), findings(res.Remaining))
	}
}

func TestUnusedNoqa(t *testing.T) {
	syntax, ioErr, old, risky, unused := noqaRules()
	// TL903 is a rule that exists but is not enabled.
	r := NewRunner([]*Rule{old, risky, unused}, syntax, ioErr)
	cases := []struct{ name, src, want string }{
		{"used codes", "old(1)  # noqa: TL901\nrisky()  # noqa: TL904\n", "1:TL901(s) 2:TL904(s)"},
		{"unused code", "x = 1  # noqa: TL901\n", "1:TL900"},
		{"partly unused", "old(1)  # noqa: TL901, TL904\n", "1:TL901(s) 1:TL900"},
		{"repeated code", "old(1)  # noqa: TL901, TL901\n", "1:TL901(s) 1:TL900"},
		{"repeated code, two findings", "old(old(1))  # noqa: TL901, TL901\n", "1:TL901(s) 1:TL901(s) 1:TL900"},
		{"blanket and other tools", "x = 1  # noqa\ny = 2  # noqa: E501, F401, TL999\n", ""},
		{"disabled rule", "x = 1  # noqa: TL903\n", ""},
		{"syntax and io codes", "x = 1  # noqa: TL001, TL002\n", "1:TL900"},
		{"TL900 suppresses itself", "x = 1  # noqa: TL901, TL900\n", "1:TL900(s)"},
		{"TL900 alone", "x = 1  # noqa: TL900\n", ""},
		{"later line of a multi-line finding", "old(\n    1,  # noqa: TL901\n)\n", "1:TL901 2:TL900"},
		{"file codes", "# torchlint: noqa: TL901, TL904\nold(1)\n", "2:TL901(s) 1:TL900"},
		{"file code makes a line code unused", "# torchlint: noqa: TL901\nold(1)  # noqa: TL901\n", "2:TL901(s) 2:TL900"},
		{"file code TL900", "# torchlint: noqa: TL900\nx = 1  # noqa: TL901\n", "2:TL900(s)"},
		{"file blanket", "# torchlint: noqa\nx = 1  # noqa: TL901\n", ""},
	}
	for _, c := range cases {
		if got := findings(r.LintSource("a.py", []byte(c.src))); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	msg := r.LintSource("a.py", []byte("old(1)  # noqa: TL901, tl904, TL001\n"))
	if len(msg) != 2 || msg[1].Message != "`# noqa` names tl904, TL001, which suppress nothing on this line; remove them" {
		t.Errorf("message: %s", findings(msg))
	} else if d := msg[1]; d.Pos != (Position{1, 9}) || d.EndPos != (Position{1, 36}) {
		t.Errorf("TL900 spans %v-%v, want the directive 1:9-1:36", d.Pos, d.EndPos)
	}

	src := []byte("x = 1  # noqa: TL901, TL904\n")
	if got := findings(NewRunner([]*Rule{old, risky}, syntax, ioErr).LintSource("a.py", src)); got != "" {
		t.Errorf("TL900 not enabled: got %s", got)
	}
	narrowed := NewRunner([]*Rule{old, risky, unused}, syntax, ioErr)
	narrowed.RulesFor = func(path string) func(*Rule) bool {
		return func(rule *Rule) bool {
			skip := path == "no904.py" && rule == risky || path == "no900.py" && rule == unused
			return !skip
		}
	}
	for path, want := range map[string]string{"a.py": "TL901, TL904,", "no904.py": "TL901,", "no900.py": ""} {
		diags := narrowed.LintSource(path, src)
		switch {
		case want == "" && len(diags) != 0:
			t.Errorf("%s: got %s, want nothing", path, findings(diags))
		case want != "" && (len(diags) != 1 || !strings.Contains(diags[0].Message, "names "+want+" which")):
			t.Errorf("%s: got %s %v, want TL900 naming %s", path, findings(diags), diags, want)
		}
	}
}

func TestUnusedNoqaFix(t *testing.T) {
	syntax, ioErr, old, risky, unused := noqaRules()
	r := NewRunner([]*Rule{old, risky, unused}, syntax, ioErr)
	cases := []struct{ name, src, want string }{
		{"some codes left", "old(1)  # noqa: TL901, TL904, E501\n", "old(1)  # noqa: TL901, E501\n"},
		{"codes left keep their spelling", "old(1)  #NOQA:tl904 tl901,TL001 why\n", "old(1)  #NOQA:tl901 why\n"},
		{"disabled codes are kept", "x = 1  # noqa: TL903, TL904\n", "x = 1  # noqa: TL903\n"},
		{"directive ends the line", "x = 1  # noqa: TL904\ny = 2\n", "x = 1\ny = 2\n"},
		{"comment before", "x = 1  # type: ignore  # noqa: TL904\n", "x = 1  # type: ignore\n"},
		{"comment after", "x = 1  # noqa: TL904  # why\n", "x = 1  # why\n"},
		{"text after", "x = 1  # noqa: TL904 no longer needed\n", "x = 1  # no longer needed\n"},
		{"own line", "x = 1\n    # noqa: TL904\ny = 2\n", "x = 1\ny = 2\n"},
		{"own line, CRLF", "x = 1\r\n# noqa: TL904\r\ny = 2\r\n", "x = 1\r\ny = 2\r\n"},
		{"own line, last", "x = 1\n# noqa: TL904", "x = 1\n"},
		{"file codes", "# torchlint: noqa: TL901, TL904\nold(1)\n", "# torchlint: noqa: TL901\nold(1)\n"},
		{"file directive", "# torchlint: noqa: TL904\nold(1)\n", "new(1)\n"},
		{"suppressed TL900 keeps its codes", "x = 1  # noqa: TL904, TL900\n", "x = 1  # noqa: TL904, TL900\n"},
	}
	for _, c := range cases {
		res := r.FixSource("a.py", []byte(c.src), false)
		if string(res.Source) != c.want || len(res.Problems) != 0 {
			t.Errorf("%s: fixed %q, want %q (problems %q)", c.name, res.Source, c.want, res.Problems)
		}
		for _, d := range res.Remaining {
			if d.Rule == unused && !d.Suppressed {
				t.Errorf("%s: TL900 remains after fixing: %s", c.name, d.Message)
			}
		}
	}
}

func TestUnsuppressed(t *testing.T) {
	ds := []Diagnostic{{Message: "a"}, {Message: "b", Suppressed: true}, {Message: "c"}}
	got := Unsuppressed(ds)
	if len(got) != 2 || got[0].Message != "a" || got[1].Message != "c" || len(ds) != 3 || !ds[1].Suppressed {
		t.Errorf("Unsuppressed = %v (input now %v)", got, ds)
	}
}

// TestRuleCrashIsolated checks that a rule that panics on a file loses
// its findings for that file, says so as a crash that no noqa hides and
// that SplitCrashes turns into an error, and that the other rules'
// findings stand.
func TestRuleCrashIsolated(t *testing.T) {
	syntax, ioErr, old, risky, _ := noqaRules()
	calls := 0
	fragile := &Rule{Code: "TL905", Name: "fragile", Kinds: []Kind{KindCall}, Check: func(p *Pass, id NodeID) {
		calls++
		p.Report(id, "seen")
		if p.File.TextIs(p.File.Field(id, FieldFunction), "boom") {
			var s []int
			_ = s[len(s)-1]
		}
	}}
	r := NewRunner([]*Rule{old, risky, fragile}, syntax, ioErr)
	src := "old(1)\nboom()  # noqa\nrisky()\nold(2)\n"
	diags := r.LintSource("a.py", []byte(src))
	if got := findings(diags); got != "1:TL901 3:TL904 4:TL901 2:crash" {
		t.Errorf("findings %q", got)
	}
	if calls != 2 {
		t.Errorf("the crashed rule ran %d times; want it stopped after the crash", calls)
	}
	kept, errs := SplitCrashes(diags)
	if len(kept) != 3 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "TL905 (fragile) failed") || !strings.Contains(errs[0].Error(), "index out of range") {
		t.Errorf("kept %d findings, errors %v", len(kept), errs)
	}
	if d, e := SplitCrashes(diags[:1]); len(d) != 1 || e != nil {
		t.Errorf("no crash: %v %v", d, e)
	}
}
