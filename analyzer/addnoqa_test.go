package analyzer

import (
	"strings"
	"testing"
)

func TestAddNoqa(t *testing.T) {
	syntax, ioErr, old, risky, unused := noqaRules()
	r := NewRunner([]*Rule{old, risky, unused}, syntax, ioErr)
	cases := []struct{ name, src, want string }{
		{"plain", "old(1)\nx = 2\n", "old(1)  # noqa: TL901\nx = 2\n"},
		{"two codes on a line, sorted", "risky(old(1))\n", "risky(old(1))  # noqa: TL901, TL904\n"},
		{"merged with another tool's codes", "old(1)  # noqa: E501\n", "old(1)  # noqa: E501, TL901\n"},
		{"merged before the reason", "old(1)  # noqa:E501 too long\n", "old(1)  # noqa:E501, TL901 too long\n"},
		{"after another comment", "old(1)  # keep\n", "old(1)  # keep  # noqa: TL901\n"},
		{"trailing blanks dropped", "old(1)   \t\n", "old(1)  # noqa: TL901\n"},
		{"a blanket noqa already suppresses", "old(1)  # noqa\n", "old(1)  # noqa\n"},
		{"a code already named", "old(1)  # noqa: TL901\n", "old(1)  # noqa: TL901\n"},
		{"file-wide directive", "# torchlint: noqa: TL901\nold(1)\n", "# torchlint: noqa: TL901\nold(1)\n"},
		{"no trailing newline", "x = 1\nold(1)", "x = 1\nold(1)  # noqa: TL901"},
		{"CRLF", "old(1)\r\nrisky()\r\n", "old(1)  # noqa: TL901\r\nrisky()  # noqa: TL904\r\n"},
		{"not inside a string", "old('''\n# noqa\n''')\n", "old('''\n# noqa\n''')  # noqa: TL901\n"},
		{"string text that looks like a comment", "old(\"# noqa: E501\")\n", "old(\"# noqa: E501\")  # noqa: TL901\n"},
		{"after a backslash continuation", "x = old(1) + \\\n    2\n", "x = old(1) + \\\n    2  # noqa: TL901\n"},
		{"CRLF backslash continuation", "x = old(1) + \\\r\n    2\r\n", "x = old(1) + \\\r\n    2  # noqa: TL901\r\n"},
		{"continuation inside a string and after it", "x = old('''a\n''') + \\\n  risky()\n",
			"x = old('''a\n''') + \\\n  risky()  # noqa: TL901, TL904\n"},
		{"a bracketed line takes its own comment", "x = [\n    old(1),\n    risky(),\n]\n",
			"x = [\n    old(1),  # noqa: TL901\n    risky(),  # noqa: TL904\n]\n"},
		{"unused codes are left for TL900", "old(1)  # noqa: TL904\n", "old(1)  # noqa: TL904, TL901\n"},
		{"syntax error: nothing added", "old(1)\ndef f(:\n", "old(1)\ndef f(:\n"},
	}
	for _, c := range cases {
		res, err := r.AddNoqa("a.py", []byte(c.src))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := string(res.Source); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
			continue
		}
		// Idempotent, and nothing is left to report but TL900's codes.
		again, err := r.AddNoqa("a.py", res.Source)
		if err != nil || again.Added != 0 {
			t.Errorf("%s: a second run added %d directives (%v)", c.name, again.Added, err)
		}
		if strings.Contains(c.name, "syntax error") {
			continue
		}
		for _, d := range Unsuppressed(r.LintSource("a.py", res.Source)) {
			if d.Rule != unused {
				t.Errorf("%s: %d:%s still reported", c.name, d.Pos.Line, d.Rule.Code)
			}
		}
	}
}

func TestAddNoqaCounts(t *testing.T) {
	syntax, ioErr, old, risky, _ := noqaRules()
	r := NewRunner([]*Rule{old, risky}, syntax, ioErr)
	res, err := r.AddNoqa("a.py", []byte("old(1)\nrisky(old(2))\nx = 3  # noqa: E501\nold(4)  # noqa: E501\n"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 3 {
		t.Errorf("Added = %d, want 3 (one per line changed)", res.Added)
	}
}

func TestAddNoqaNotebook(t *testing.T) {
	syntax, ioErr, old, risky, _ := noqaRules()
	r := NewRunner([]*Rule{old, risky}, syntax, ioErr)
	nb := `{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["old(0)\n"]},
  {"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [],
   "source": [
    "%matplotlib inline\n",
    "x = old(1)\n",
    "y = 2"
   ]},
  {"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [],
   "source": "risky()  # noqa: E501\n!pip install old"}
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`
	res, err := r.AddNoqaNotebook("a.ipynb", []byte(nb))
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 2 {
		t.Errorf("Added = %d, want 2", res.Added)
	}
	got := string(res.Source)
	for _, want := range []string{
		`"x = old(1)  # noqa: TL901\n",`,
		`"source": "risky()  # noqa: E501, TL904\n!pip install old"}`,
		`"%matplotlib inline\n",`,
		`"source": ["old(0)\n"]}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("notebook lacks %s:\n%s", want, got)
		}
	}
	for _, d := range Unsuppressed(r.LintNotebook("a.ipynb", res.Source)) {
		t.Errorf("cell %d line %d: %s still reported", d.Cell, d.Pos.Line, d.Rule.Code)
	}
	again, err := r.AddNoqaNotebook("a.ipynb", res.Source)
	if err != nil || again.Added != 0 {
		t.Errorf("a second run added %d directives (%v)", again.Added, err)
	}
}

// TestNoqaOffset checks that a finding names the line its noqa comment
// goes on (the JSON format's noqa_row): the one --add-noqa writes to.
func TestNoqaOffset(t *testing.T) {
	syntax, ioErr, old, risky, _ := noqaRules()
	r := NewRunner([]*Rule{old, risky}, syntax, ioErr)
	src := "x = old('''a\nb''')\ny = old(1) + \\\n    2\nz = [\n    risky(),\n]\n"
	want := map[int]int{1: 2, 3: 4, 6: 6}
	diags := r.LintSource("a.py", []byte(src))
	if len(diags) != len(want) {
		t.Fatalf("%d findings, want %d", len(diags), len(want))
	}
	for _, d := range diags {
		if got := d.Pos.Line + d.NoqaOffset; got != want[d.Pos.Line] {
			t.Errorf("finding on line %d: noqa line %d, want %d", d.Pos.Line, got, want[d.Pos.Line])
		}
	}
	res, err := r.AddNoqa("a.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(res.Source), "\n")
	for _, l := range want {
		if !strings.Contains(lines[l-1], "# noqa") {
			t.Errorf("--add-noqa put no comment on line %d:\n%s", l, res.Source)
		}
	}
}
