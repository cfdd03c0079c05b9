package analyzer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestParseNotebook(t *testing.T) {
	raw, err := os.ReadFile("../testdata/notebooks/magics.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := ParseNotebook(raw)
	if err != nil {
		t.Fatal(err)
	}
	var code []int
	for _, c := range nb.Cells {
		if c.Code {
			code = append(code, c.Index)
		}
	}
	// 1 Markdown, 5 %%bash, 6 a SQL cell and 7 a raw cell are skipped.
	if got := fmt.Sprint(code); got != "[2 3 4 8 9]" {
		t.Errorf("code cells %v, want 2, 3, 4, 8 and 9", code)
	}
	src := string(nb.Source)
	for _, want := range []string{"pass#lotlib inline\n", "pass#install torch\n", "pass#.load?\n", "pass#e\nfor x, y in loader:", "pass# = !ls *.pt\n", "    pass# state = torch.load(f)\n",
		"pass#nstall timm\n", "pass#ata_dir}\n", "pass#\nfor d", "    pass# $d\n"} {
		if !strings.Contains(src, want) {
			t.Errorf("joined source lacks %q:\n%s", want, src)
		}
	}
	// Masking moves no offset: every cell keeps its length.
	for _, c := range nb.Cells {
		if c.Code && int(c.End-c.Start) != len(strings.Join(c.lines, "")) {
			t.Errorf("cell %d changed length when masked", c.Index)
		}
	}
	off := uint32(strings.Index(src, "total += loss"))
	cell, line, col, rawLine := nb.Locate(off)
	at := bytes.Index(raw, []byte("    total += loss"))
	if at < 0 {
		t.Fatal("the fixture lost its accumulator line")
	}
	wantRaw := bytes.Count(raw[:at], []byte("\n")) + 1
	if cell != 4 || line != 4 || col != 5 || rawLine != wantRaw {
		t.Errorf("Locate(total += loss) = cell %d, %d:%d, raw line %d; want cell 4, 4:5, raw line %d", cell, line, col, rawLine, wantRaw)
	}
	if out, err := nb.Rewrite(nb.Source); err != nil || !bytes.Equal(out, raw) {
		t.Errorf("rewriting unchanged cells changed the file (err %v)", err)
	}
	if _, err := nb.Rewrite(bytes.Replace(nb.Source, []byte(cellMarker), nil, 1)); err == nil {
		t.Error("a lost cell boundary was not detected")
	}
}

// TestIndentedCell: a cell is given a block to parse in where IPython
// dedents it (leading_indent) and Python alone would not accept it.
func TestIndentedCell(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{" x = 1", true},
		{"\n\n    for x in xs:\n        y = x\nprint(y)\n", true},
		{"  # a comment first\n  x = 1\n", true},
		{"\tx = 1\n\ty = 2\n", true},
		{"x = 1\n", false},
		{"    # only the comment is indented\nx = 1\n", false},
		{"  # IPython strips two spaces and rejects the rest\n    x = 1\n", false},
		{"\t# a tab, then spaces\n  x = 1\n", false},
		{"   \n\n", false},
		{"  #ls\n", false}, // a short magic, masked into a comment
		{"", false},
	} {
		if got := indentedCell(c.text); got != c.want {
			t.Errorf("indentedCell(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	nb, err := ParseNotebook([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["  y = 2\n", "  z = y"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := nb.Cells[0]
	if got := string(nb.Source[c.Start:c.End]); got != "  y = 2\n  z = y" {
		t.Errorf("cell text %q", got)
	}
	if cell, line, col, _ := nb.Locate(c.Start + uint32(len("  y = 2\n  "))); cell != 1 || line != 2 || col != 3 {
		t.Errorf("Locate(z) = cell %d, %d:%d; want cell 1, 2:3", cell, line, col)
	}
	if out, err := nb.Rewrite(nb.Source); err != nil || string(out) != string(nb.Raw) {
		t.Errorf("rewriting the unchanged cell changed the file (err %v):\n%s", err, out)
	}
	if !nb.Indented {
		t.Error("the notebook does not say it holds an indented cell")
	}
	// An edit before the block the cell is parsed in would write it back.
	moved := bytes.Replace(nb.Source, []byte(indentOpener), []byte("import torch\n"+indentOpener), 1)
	if _, err := nb.Rewrite(moved); err == nil {
		t.Error("an edit before an indented cell's block was written")
	}
	// A cell of a short magic alone (`  !ls`) is masked into a comment: no block.
	nb, err = ParseNotebook([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["  !ls"]}, {"cell_type": "code", "source": ["x = 1"]}]}`))
	if err != nil || nb.Indented || bytes.Contains(nb.Source, []byte(indentOpener)) {
		t.Errorf("a short magic's cell was given a block (err %v):\n%s", err, nb.Source)
	}
}

func TestParseNotebookErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`{"nbformat": 3, "worksheets": []}`, "nbformat 3 is not supported"},
		{`{"cells": []}`, "no nbformat"},
		{`{"cells": [`, "not a Jupyter notebook"},
		{`[1, 2]`, "not a Jupyter notebook"},
		{`{"nbformat": 4, "cells": [{"cell_type": "code", "source": 3}]}`, "cell 1: source"},
	} {
		if _, err := ParseNotebook([]byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}

func TestMaskMagicsKeepsOffsets(t *testing.T) {
	for _, line := range []string{"%time f()", "!ls", "x = !ls", "y = %env", "obj?", "?obj", "  %%timeit", "%pip install a", "x = 1"} {
		if got := maskMagics(line); len(got) != len(line) {
			t.Errorf("maskMagics(%q) = %q: length changed", line, got)
		}
	}
	got := maskMagics("!pip install -q \\\n    transformers \\\n    peft\nx = 1\n")
	if want := "pass#install -q \\\n    #ransformers \\\n    #eft\nx = 1\n"; got != want {
		t.Errorf("continued shell command: %q, want %q", got, want)
	}
	if got := maskMagics("x = 1"); got != "x = 1" {
		t.Errorf("plain code masked: %q", got)
	}
	// IPython's help lines: `??expr` asks for the source of what expr
	// names, whatever expr is (a call included).
	for _, line := range []string{"??T.ToTensor()", "?model.forward", "??np.linalg.norm"} {
		if got := maskMagics(line + "\n"); !strings.HasPrefix(got, "pass#") || len(got) != len(line)+1 {
			t.Errorf("maskMagics(%q) = %q: help line kept", line, got)
		}
	}
	for _, line := range []string{"x = a if b else c", "print('?')"} {
		if got := maskMagics(line + "\n"); got != line+"\n" {
			t.Errorf("maskMagics(%q) = %q: code masked", line, got)
		}
	}
}

// TestMaskAutomagic: a line magic called without its `%` (IPython's
// automagic) is masked; a line that is Python whatever its first word,
// or whose name the notebook binds, is not.
func TestMaskAutomagic(t *testing.T) {
	for _, c := range []struct {
		src    string
		masked bool
	}{
		{"pip install timm\n", true},
		{"pip list\n", true},
		{"ls {PATH}\n", true},
		{"rm -r $out_dir\n", true},
		{"cd ..\n", true},
		{"for d in dirs:\n    ls $d\n", true},
		{"pip\n", false},                  // a bare name: Python either way
		{"time.sleep(1)\n", false},        // an attribute
		{"cd(\"x\")\n", false},            // a call
		{"env = make()\nenv -1\n", false}, // bound by the notebook: shadows the magic
		{"history, log = fit()\nhistory -n 3\n", false},
		{"ls, rm = 1, 2\n", false},
		{"x = (\n    ls -1)\n", false}, // inside brackets: not at a line's start
		{"lsx -l\n", false},
	} {
		got := maskMagics(c.src)
		last := strings.TrimSpace(got[strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n")+1:])
		if masked := strings.HasPrefix(last, "pass#") || strings.HasPrefix(last, "#"); masked != c.masked {
			t.Errorf("maskMagics(%q) = %q, masked %v, want %v", c.src, got, masked, c.masked)
		}
		if len(got) != len(c.src) {
			t.Errorf("maskMagics(%q) = %q: length changed", c.src, got)
		}
	}
}

// TestNotebookMessageLines: the lines a message names count lines of
// the cells, as the notebook shows them, not of the joined source.
func TestNotebookMessageLines(t *testing.T) {
	raw := []byte(`{"cells": [
 {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,
  "source": ["import torch\n", "x = 1\n", "y = 2\n"]},
 {"cell_type": "markdown", "metadata": {}, "source": ["# notes"]},
 {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,
  "source": ["a = 1\n", "b = 2\n"]}
], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	nb, err := ParseNotebook(raw)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(nb.Source), "\n")
	joined := func(text string) int {
		for i, l := range lines {
			if l == text {
				return i + 1
			}
		}
		t.Fatalf("no line %q in %q", text, nb.Source)
		return 0
	}
	b, y := joined("b = 2"), joined("y = 2")
	msg := fmt.Sprintf("see line %d and nb.ipynb:%d, not other.ipynb:%d", b, y, y)
	want := "see line 2 and nb.ipynb:cell 1:3, not other.ipynb:" + fmt.Sprint(y)
	if got := nb.cellLines(msg, "nb.ipynb", 3); got != want {
		t.Errorf("in cell 3: %q, want %q", got, want)
	}
	if got, want := nb.cellLines(fmt.Sprintf("runs `G(z)` (nb.ipynb:%d): autograd", y), "nb.ipynb", 3), "runs `G(z)` (nb.ipynb:cell 1:3): autograd"; got != want {
		t.Errorf("in parentheses: %q, want %q", got, want)
	}
	if got, want := nb.cellLines(fmt.Sprintf("line %d", y), "nb.ipynb", 3), "cell 1, line 3"; got != want {
		t.Errorf("another cell: %q, want %q", got, want)
	}
	a := joined("a = 1")
	if got, want := nb.cellLines(fmt.Sprintf("at lines %d, %d.", a, b), "nb.ipynb", 3), "at lines 1, 2."; got != want {
		t.Errorf("a list in the cell: %q, want %q", got, want)
	}
	if got, want := nb.cellLines(fmt.Sprintf("at lines %d, %d.", y, b), "nb.ipynb", 3), "at cell 1, line 3; cell 3, line 2."; got != want {
		t.Errorf("a list across cells: %q, want %q", got, want)
	}
}

// TestForeignKernelNotebook: a notebook whose kernel runs another language
// (xeus-cling's C++) has no Python cell; one whose metadata says Python,
// or says nothing, has.
func TestForeignKernelNotebook(t *testing.T) {
	cell := `"cells": [{"cell_type": "code", "metadata": {}, "source": ["#include <iostream>\n", "xt::xarray<double> a = {1, 2};"], "outputs": [], "execution_count": null}]`
	cases := []struct {
		meta string
		code bool
	}{
		{`{"kernelspec": {"display_name": "C++14", "language": "C++14", "name": "xcpp14"}, "language_info": {"name": "c++"}}`, false},
		{`{"kernelspec": {"display_name": "R", "language": "R", "name": "ir"}}`, false},
		{`{"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}, "language_info": {"name": "python"}}`, true},
		{`{}`, true},
	}
	for _, c := range cases {
		nb, err := ParseNotebook([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": ` + c.meta + `, ` + cell + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if len(nb.Cells) != 1 || nb.Cells[0].Code != c.code {
			t.Errorf("metadata %s: code cell %v, want %v", c.meta, len(nb.Cells) == 1 && nb.Cells[0].Code, c.code)
		}
	}
}

// TestCellDisplays: the statement whose value IPython displays, and keeps
// in its output cache, is a cell's last one when it is an expression with
// no `;` after it, in a cell that a magic does not run.
func TestCellDisplays(t *testing.T) {
	cells := []struct {
		src   string
		shown string // the statement displayed, "" for none
	}{
		{"y = f(x)\nf(x)", "f(x)"},
		{"f(x)  # a comment\n\n# and another", "f(x)"},
		{"f(x);", ""},
		{"f(x) ;  # quiet", ""},
		{"f(x); g(x)", "g(x)"},
		{"f(x)\ny = 1", ""},
		{"if y:\n    f(x)", ""},
		{"%%time\nf(x)", ""},
		{"%%capture\nf(x)", ""},
		{"# look at one output\nf(x)[:4]", "f(x)[:4]"},
	}
	var cellJSON []string
	for _, c := range cells {
		src, _ := json.Marshal(c.src)
		cellJSON = append(cellJSON, `{"cell_type": "code", "metadata": {}, "outputs": [], "source": `+string(src)+`}`)
	}
	raw := `{"cells": [` + strings.Join(cellJSON, ", ") + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	nb, err := ParseNotebook([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"shown.ipynb", "script.py"} {
		f, err := Parse(path, nb.Source)
		if err != nil {
			t.Fatal(err)
		}
		shown := map[int]string{}
		f.Children(Root, func(stmt NodeID) bool {
			if f.CellDisplays(stmt) {
				cell, _, _, _ := nb.Locate(f.N(stmt).Start)
				shown[cell] = f.Text(stmt)
			}
			return true
		})
		for i, c := range cells {
			want := c.shown
			if path == "script.py" {
				want = "" // a script displays nothing
			}
			if shown[i+1] != want {
				t.Errorf("%s, cell %d %q: displays %q, want %q", path, i+1, c.src, shown[i+1], want)
			}
		}
	}
}
