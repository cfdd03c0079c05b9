package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestNotebookLocations checks where findings in notebooks are reported;
// fixable.ipynb's second finding is TL403's, a preview rule, so it is
// selected.
func TestNotebookLocations(t *testing.T) {
	root := repoRoot(t)
	code, out, _ := runIn(t, root, "check", "--no-cache", "--confidence", "low", "--extend-select", "TL403", "--output-format", "concise", "testdata/notebooks")
	want := []string{
		"testdata/notebooks/bynamecalls.ipynb:cell 2:18:16: TL201 ",          // its method called by name in a loop: the one class with that method
		"testdata/notebooks/bynamecalls.ipynb:cell 2:22:16: TL201 (medium) ", // two classes have `value`: either may be called
		"testdata/notebooks/bynamecalls.ipynb:cell 2:36:16: TL201 (medium) ",
		"testdata/notebooks/cells.ipynb:cell 3:9:5: TL102 ",              // after a cell that raises: cells run one at a time
		"testdata/notebooks/display.ipynb:cell 3:2:1: TL201 (low) ",      // the cell's last expression
		"testdata/notebooks/display_name.ipynb:cell 2:2:9: TL201 (low) ", // a name a later cell shows
		"testdata/notebooks/evalhelper.ipynb:cell 2:3:14: TL201 ",        // in the helper every call hands a model in evaluation mode
		"testdata/notebooks/evaluation.ipynb:cell 4:2:7: TL201 (low) ",
		"testdata/notebooks/fixable.ipynb:cell 1:3:10: TL401 [*] ",
		"testdata/notebooks/fixable.ipynb:cell 1:4:9: TL403 ",
		"testdata/notebooks/fixable.ipynb:cell 3:1:6: TL401 [*] ",
		"testdata/notebooks/hostcells.ipynb:cell 2:3:11: TL201 ", // each cell's own no_grad: a finding per cell
		"testdata/notebooks/hostcells.ipynb:cell 3:2:14: TL201 ",
		"testdata/notebooks/indented.ipynb:cell 4:6:9: TL101 ", // cells that IPython dedents parse
		"testdata/notebooks/magics.ipynb:cell 4:4:5: TL101 ",   // the accumulator is defined in cell 3
		"testdata/notebooks/malformed.ipynb:1:1: TL002 not a Jupyter notebook",
		"testdata/notebooks/nbformat3.ipynb:1:1: TL002 nbformat 3 is not supported",
	}
	lines := strings.Split(out, "\n")
	if code != 1 || len(lines) < len(want) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to start with %q", i+1, lines[i], w)
		}
	}

	raw, err := os.ReadFile(filepath.Join(root, "testdata/notebooks/magics.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	rawLine := strings.Count(string(raw[:strings.Index(string(raw), "    total += loss")]), "\n") + 1
	_, js, _ := runIn(t, root, "check", "--no-cache", "--output-format", "json", "testdata/notebooks/magics.ipynb")
	var findings []struct {
		Code     string `json:"code"`
		Cell     *int   `json:"cell"`
		Location struct{ Row, Column int }
	}
	if err := json.Unmarshal([]byte(js), &findings); err != nil || len(findings) != 1 || findings[0].Cell == nil || *findings[0].Cell != 4 || findings[0].Location.Row != 4 {
		t.Errorf("JSON: %s (err %v)", js, err)
	}
	_, sarif, _ := runIn(t, root, "check", "--no-cache", "--output-format", "sarif", "testdata/notebooks/magics.ipynb")
	if !strings.Contains(sarif, `"startLine": `+itoa(rawLine)) || strings.Contains(sarif, `"startColumn"`) {
		t.Errorf("SARIF region should be line %d of the .ipynb file, without columns:\n%s", rawLine, sarif)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestNotebookRelated: the places a finding in a notebook rests on are
// given in their cells too, in every format.
func TestNotebookRelated(t *testing.T) {
	root := repoRoot(t)
	path := "testdata/notebooks/evaluation.ipynb"
	_, full, _ := runIn(t, root, "check", "--no-cache", "--confidence", "low", "--output-format", "full", path)
	for _, w := range []string{path + ":cell 4:2:7: TL201 (low) ", "= note: " + path + ":cell 3:1: the switch to evaluation mode", "= note: once: "} {
		if !strings.Contains(full, w) {
			t.Errorf("full output lacks %q:\n%s", w, full)
		}
	}
	_, js, _ := runIn(t, root, "check", "--no-cache", "--confidence", "low", "--output-format", "json", path)
	var findings []struct {
		Confidence string `json:"confidence"`
		Related    []struct {
			Cell     *int   `json:"cell"`
			Filename string `json:"filename"`
			Location struct{ Row, Column int }
		}
	}
	if err := json.Unmarshal([]byte(js), &findings); err != nil || len(findings) != 1 || findings[0].Confidence != "low" || len(findings[0].Related) != 1 {
		t.Fatalf("JSON: %s (err %v)", js, err)
	}
	rel := findings[0].Related[0]
	if rel.Cell == nil || *rel.Cell != 3 || rel.Location.Row != 1 || !filepath.IsAbs(rel.Filename) {
		t.Errorf("related location %+v, want cell 3, row 1, an absolute file name", rel)
	}
	raw, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	rawLine := strings.Count(string(raw[:strings.Index(string(raw), `"model.eval()"`)]), "\n") + 1
	_, sarif, _ := runIn(t, root, "check", "--no-cache", "--confidence", "low", "--output-format", "sarif", path)
	if !strings.Contains(sarif, `"startLine": `+itoa(rawLine)) || !strings.Contains(sarif, `"rank": 30`) {
		t.Errorf("SARIF: want the related location at line %d of the .ipynb file and rank 30:\n%s", rawLine, sarif)
	}
}

// TestNotebookDisplayedOutputs: outputs a cell displays are kept in
// IPython's output cache, and the finding says so; a cell that displays
// nothing of them (a `;`, a statement after them, `%%capture`, a block)
// is not reported.
func TestNotebookDisplayedOutputs(t *testing.T) {
	root := repoRoot(t)
	const kept = "and IPython keeps the value of a cell's last expression in `Out`: the outputs and their graph stay alive after the cell"
	for path, want := range map[string]string{
		"testdata/notebooks/display.ipynb":      "the cell displays them, " + kept,
		"testdata/notebooks/display_name.ipynb": "a cell displays `preds` (cell 3, line 1), " + kept,
	} {
		code, out, _ := runIn(t, root, "check", "--no-cache", "--confidence", "low", "--output-format", "concise", path)
		if code != 1 || strings.Count(out, " TL201 ") != 1 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, want one TL201 finding that says %q:\n%s", path, code, want, out)
		}
	}
	if code, out, _ := runIn(t, root, "check", "--no-cache", "--confidence", "low", "testdata/notebooks/display_quiet.ipynb"); code != 0 {
		t.Errorf("display_quiet.ipynb: exit %d, want no finding:\n%s", code, out)
	}
}

// TestNotebookRegionPasses: the later passes of an evaluation region that
// a finding lists are those of its own cell, where one no_grad block can
// hold them; a pass of a later cell is not.
func TestNotebookRegionPasses(t *testing.T) {
	_, full, _ := runIn(t, repoRoot(t), "check", "--no-cache", "--select", "TL201", "--output-format", "full", "testdata/notebooks/regions.ipynb")
	const more = ": another forward pass of the region with grad enabled"
	if !strings.Contains(full, "testdata/notebooks/regions.ipynb:cell 2:3:11: TL201 ") ||
		!strings.Contains(full, "= note: testdata/notebooks/regions.ipynb:cell 2:5"+more) ||
		strings.Contains(full, "cell 3:2"+more) {
		t.Errorf("want the finding at cell 2, line 3, listing the pass at cell 2, line 5, and not that of cell 3:\n%s", full)
	}
}

// TestNotebookFixIndented: a notebook with a cell that IPython dedents is
// reported as it runs, and offered no fix: where a new line would go
// among such cells is not known. --fix leaves the file as it was.
func TestNotebookFixIndented(t *testing.T) {
	root := repoRoot(t)
	orig, err := os.ReadFile(filepath.Join(root, "testdata/notebooks/indented.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "indented.ipynb")
	if err := os.WriteFile(p, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runIn(t, dir, "check", "--fix", "--unsafe-fixes", "--output-format", "concise", "indented.ipynb")
	if code != 1 || !strings.Contains(out, "indented.ipynb:cell 4:6:9: TL101 ") || strings.Contains(out, "[*]") || strings.Contains(out, "fixed") {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, out)
	}
	if fixed, _ := os.ReadFile(p); string(fixed) != string(orig) {
		t.Errorf("--fix changed the notebook:\n%s", fixed)
	}
}

// TestNotebookFix fixes a notebook: only the source of the fixed cells
// changes; outputs, metadata, key order, indentation, non-ASCII text and
// the missing final newline stay as they were. The unsafe fix is TL403's,
// a preview rule, so it is selected.
func TestNotebookFix(t *testing.T) {
	root := repoRoot(t)
	orig, err := os.ReadFile(filepath.Join(root, "testdata/notebooks/fixable.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "fixable.ipynb")
	if err := os.WriteFile(p, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runIn(t, dir, "check", "--extend-select", "TL403", "--fix", "--unsafe-fixes", "--output-format", "concise", "fixable.ipynb"); code != 0 || !strings.Contains(out, "3 fixed, 0 remaining") {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, out)
	}
	fixed, _ := os.ReadFile(p)
	golden := filepath.Join(root, "testdata/notebooks/fixable.ipynb.fixed")
	if *update {
		if err := os.WriteFile(golden, fixed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil || string(fixed) != string(want) {
		t.Errorf("fixed notebook differs from %s (run with -update and review):\n%s", golden, fixed)
	}
	// Everything but the cells' source is untouched.
	var a, b map[string]any
	if json.Unmarshal(orig, &a) != nil || json.Unmarshal(fixed, &b) != nil {
		t.Fatal("not JSON")
	}
	for _, m := range []map[string]any{a, b} {
		for _, c := range m["cells"].([]any) {
			delete(c.(map[string]any), "source")
		}
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("fixing changed more than the cells' source")
	}
	if strings.HasSuffix(string(fixed), "\n") || !strings.Contains(string(fixed), "Résumé") {
		t.Error("the missing final newline or the non-ASCII text was not kept")
	}
	if code, _, _ := runIn(t, dir, "check", "--extend-select", "TL403", "--fix", "--unsafe-fixes", "fixable.ipynb"); code != 0 {
		t.Errorf("second --fix: exit %d", code)
	}
	if again, _ := os.ReadFile(p); string(again) != string(fixed) {
		t.Error("fixing twice changed the notebook again")
	}
}

// TestNotebookProjectFacts: a notebook is linted with the facts of its
// project, as a Python file there is: the attention module its second
// cell runs is made in layers.py without a parameter, so it records no
// graph worth a finding; the encoder its third cell runs has one. Linted
// alone or read from standard input, it gets the same findings, and its
// cached findings follow layers.py.
func TestNotebookProjectFacts(t *testing.T) {
	dir := copyProject(t, "notebookfacts")
	want := "explore.ipynb:cell 3:6:18: TL201 "
	whole := concise(t, dir, "--no-cache", "--confidence", "low", ".")
	if len(whole) != 1 || !strings.HasPrefix(whole[0], want) {
		t.Fatalf("whole project: %q, want one finding starting with %q", whole, want)
	}
	for _, args := range [][]string{
		{"--no-cache", "--confidence", "low", "explore.ipynb"},
		{"--confidence", "low", "explore.ipynb"}, // fills the cache
		{"--confidence", "low", "explore.ipynb"}, // read from it
	} {
		if got := concise(t, dir, args...); !reflect.DeepEqual(got, whole) {
			t.Errorf("check %v: %q, want %q", args, got, whole)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "explore.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	old := stdin
	defer func() { stdin = old }()
	stdin = bytes.NewReader(raw)
	if got := concise(t, dir, "--no-cache", "--confidence", "low", "--stdin-filename", "explore.ipynb", "-"); !reflect.DeepEqual(got, whole) {
		t.Errorf("standard input: %q, want %q", got, whole)
	}
	layers := filepath.Join(dir, "layers.py")
	src, err := os.ReadFile(layers)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "        self.dropout = nn.Dropout(dropout)\n",
		"        self.dropout = nn.Dropout(dropout)\n        self.gain = nn.Parameter(torch.ones(1))\n", 1)
	if edited == string(src) {
		t.Fatal("fixture changed: no dropout in ScaledDotProductAttention")
	}
	if err := os.WriteFile(layers, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	after := concise(t, dir, "--confidence", "low", "explore.ipynb")
	if len(after) != 2 || !strings.HasPrefix(after[0], "explore.ipynb:cell 2:5:20: TL201 ") {
		t.Errorf("after the attention module got a parameter, the cached run reports %q, want its pass in cell 2 too", after)
	}
}

// TestNotebookNamedCalls: a notebook's agent, handed to a training loop
// of a module of its project that calls `agent.select_action(s)` on
// every step, runs its method there with grad enabled; the module's
// report calls `agent.critic_value(s)` under no_grad only. No file
// imports a notebook, so those calls by name are the notebook's own.
func TestNotebookNamedCalls(t *testing.T) {
	dir := copyProject(t, "notebookagents")
	want := []string{"agent.ipynb:cell 2:11:16: TL201 `self.actor(state)` runs a forward pass with grad enabled whose outputs only reach the host"}
	for _, args := range [][]string{
		{"--no-cache", "--confidence", "low", "."},
		{"--no-cache", "--confidence", "low", "agent.ipynb"},
	} {
		got := concise(t, dir, args...)
		if len(got) != len(want) || !strings.HasPrefix(got[0], want[0]) {
			t.Errorf("check %v: %q, want one finding starting with %q", args, got, want[0])
		}
	}
	_, full, _ := runIn(t, dir, "check", "--no-cache", "--output-format", "full", "agent.ipynb")
	if !strings.Contains(full, "= note: rl_utils.py:9: a call of `select_action` on every iteration of its loop") {
		t.Errorf("the finding does not name the call in rl_utils.py:\n%s", full)
	}
}

// TestNotebookNoteLines: the lines a finding's notes name (where the
// notebook does not parse, the loop a pass runs in) are given in their
// cells, as its location is, not as lines of the joined source.
func TestNotebookNoteLines(t *testing.T) {
	_, full, _ := runIn(t, repoRoot(t), "check", "--no-cache", "--confidence", "low", "--output-format", "full", "testdata/notebooks/unparsed.ipynb")
	for _, want := range []string{
		"testdata/notebooks/unparsed.ipynb:cell 4:3:11: TL201 (low)",
		"= note: assumed: the code means what the parser recovered of it: the file does not parse (cell 3, line 1)",
		"= note: once: a forward pass of module-level code in the loop at line 2, over a few fixed values,",
	} {
		if !strings.Contains(full, want) {
			t.Errorf("output lacks %q:\n%s", want, full)
		}
	}
}
