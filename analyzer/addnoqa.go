package analyzer

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
)

// AddNoqaResult is the outcome of adding noqa directives to one source.
type AddNoqaResult struct {
	// Source is the new text; it is the input when nothing was added.
	Source []byte
	// Added counts the lines given a directive or new codes.
	Added int
	// Skipped says why a source with findings was left as it is (a
	// syntax error), or is "".
	Skipped string
}

// AddNoqa adds to src a `# noqa: CODES` directive for every finding that
// none suppresses yet, as Ruff's --add-noqa does: on the finding's noqa
// row (see noqa.go), merged into the directive already there, codes of
// other tools included. Syntax and read errors and TL900 get none, and a
// source with a syntax error is left as it is. The result is linted
// again: it must report the same findings at the same places, each now
// suppressed, or nothing is added and the error says why.
func (r *Runner) AddNoqa(path string, src []byte) (AddNoqaResult, error) {
	res := AddNoqaResult{Source: src}
	diags := r.LintSource(path, src)
	if hasCode(diags, r.syntax) || hasCode(diags, r.ioErr) {
		res.Skipped = r.skipReason(diags)
		return res, nil
	}
	f, err := Parse(path, src)
	if err != nil {
		return res, err
	}
	want := func(d *Diagnostic) bool { return r.wantsNoqa(d) }
	edits, added := noqaEdits(f, diags, want)
	if added == 0 {
		return res, nil
	}
	out := applyEdits(src, edits)
	if err := r.sameFindingsSuppressed(diags, r.LintSource(path, out), want); err != nil {
		return res, fmt.Errorf("%s: no noqa directive added: %w", path, err)
	}
	res.Source, res.Added = out, added
	return res, nil
}

// skipReason says why a source whose diagnostics include a syntax or
// read error gets no directive, when it has findings that wanted one.
func (r *Runner) skipReason(diags []Diagnostic) string {
	n := 0
	for i := range diags {
		if r.wantsNoqa(&diags[i]) {
			n++
		}
	}
	if n == 0 || !hasCode(diags, r.syntax) {
		return ""
	}
	s := "s"
	if n == 1 {
		s = ""
	}
	return fmt.Sprintf("it has a syntax error (%s), which no directive suppresses; its %d other finding%s got no directive", r.syntax.Code, n, s)
}

// AddNoqaNotebook is AddNoqa for the code cells of a notebook, written
// back into its JSON; a finding on a masked IPython magic line gets none.
func (r *Runner) AddNoqaNotebook(path string, raw []byte) (AddNoqaResult, error) {
	res := AddNoqaResult{Source: raw}
	nb, perr := ParseNotebook(raw)
	if perr != nil {
		// Not a notebook torchlint reads: the lint reports it (TL002),
		// and there is nothing to add a directive to.
		return res, nil //nolint:nilerr
	}
	diags := r.LintSource(path, nb.Source)
	if hasCode(diags, r.syntax) || hasCode(diags, r.ioErr) {
		res.Skipped = r.skipReason(diags)
		return res, nil
	}
	f, err := Parse(path, nb.Source)
	if err != nil {
		return res, err
	}
	want := func(d *Diagnostic) bool {
		line := strings.TrimLeft(f.Line(d.Pos.Line), " \t")
		return r.wantsNoqa(d) && !strings.HasPrefix(line, "pass#") && !strings.HasPrefix(line, "#")
	}
	edits, added := noqaEdits(f, diags, want)
	if added == 0 {
		return res, nil
	}
	edited := applyEdits(nb.Source, edits)
	out, err := nb.Rewrite(edited)
	if err != nil {
		return res, fmt.Errorf("%s: no noqa directive added: %w", path, err)
	}
	// The notebook written must read back as the edited source, which
	// must keep the findings.
	if back, err := ParseNotebook(out); err != nil || !bytes.Equal(back.Source, edited) {
		return res, fmt.Errorf("%s: no noqa directive added: the cells would not read back as edited", path)
	}
	if err := r.sameFindingsSuppressed(diags, r.LintSource(path, edited), want); err != nil {
		return res, fmt.Errorf("%s: no noqa directive added: %w", path, err)
	}
	res.Source, res.Added = out, added
	return res, nil
}

// AddNoqaFile reads path (a Python file or a notebook) and returns its
// text and the text with the directives added; it writes nothing.
func (r *Runner) AddNoqaFile(path string) (orig []byte, res AddNoqaResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error while adding noqa directives to %s: %v", path, p)
		}
	}()
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, AddNoqaResult{}, fmt.Errorf("read %s: %w", path, unwrapPathError(err))
	}
	if IsNotebook(path) {
		res, err = r.AddNoqaNotebook(path, src)
	} else {
		res, err = r.AddNoqa(path, src)
	}
	return src, res, err
}

// wantsNoqa reports whether add-noqa gives d a directive: any finding
// not yet suppressed, except syntax and read errors and TL900's.
func (r *Runner) wantsNoqa(d *Diagnostic) bool {
	return !d.Suppressed && r.shown(d) && d.Rule != r.syntax && d.Rule != r.ioErr && d.Rule.Code != UnusedNoqaCode
}

// noqaEdits returns the edits that give each finding that want accepts a
// directive on its noqa row, and how many rows they change.
func noqaEdits(f *File, diags []Diagnostic, want func(*Diagnostic) bool) ([]Edit, int) {
	codesOf := map[int][]string{}
	for i := range diags {
		d := &diags[i]
		if d.Cell != 0 || !want(d) {
			continue
		}
		codesOf[d.Pos.Line] = append(codesOf[d.Pos.Line], d.Rule.Code)
	}
	if len(codesOf) == 0 {
		return nil, 0
	}
	s := findSuppressions(f)
	rows := findNoqaRows(f)
	if s != nil {
		rows = s.rows
	}
	byRow := map[int][]string{}
	for line, codes := range codesOf {
		row := rows.row(line)
		byRow[row] = append(byRow[row], codes...)
	}
	var edits []Edit
	for row, codes := range byRow {
		var existing *noqaDirective
		if s != nil {
			existing = s.byLine[row]
		}
		if existing != nil && len(existing.Codes) == 0 {
			continue // a blanket `# noqa` already covers every code
		}
		codes = newCodes(existing, codes)
		if len(codes) == 0 {
			continue
		}
		if existing != nil {
			last := existing.Codes[len(existing.Codes)-1]
			edits = append(edits, Insert(last.End, ", "+strings.Join(codes, ", ")))
			continue
		}
		start, end := lineContentEnd(f, row)
		edits = append(edits, Replace(start, end, "  # noqa: "+strings.Join(codes, ", ")))
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	return edits, len(edits)
}

// newCodes returns the codes, sorted and once each, that d does not
// already name.
func newCodes(d *noqaDirective, codes []string) []string {
	sort.Strings(codes)
	var out []string
	for i, c := range codes {
		if i > 0 && codes[i-1] == c || d != nil && d.covers(c) >= 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// lineContentEnd returns where the trailing blanks of 1-based line n
// start and end: just past its last character that is not a blank, and
// where its line ending starts.
func lineContentEnd(f *File, n int) (uint32, uint32) {
	if f.lines == nil {
		f.buildLines()
	}
	start := f.lines[n-1]
	end := uint32(len(f.Src))
	if n < len(f.lines) {
		end = f.lines[n]
	}
	for end > start && (f.Src[end-1] == '\n' || f.Src[end-1] == '\r') {
		end--
	}
	content := end
	for content > start && (f.Src[content-1] == ' ' || f.Src[content-1] == '\t' || f.Src[content-1] == '\f') {
		content--
	}
	return content, end
}

// applyEdits applies sorted, non-overlapping edits to src.
func applyEdits(src []byte, edits []Edit) []byte {
	out := make([]byte, 0, len(src)+32*len(edits))
	last := uint32(0)
	for _, e := range edits {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.New...)
		last = e.End
	}
	return append(out, src[last:]...)
}

// sameFindingsSuppressed checks that after, the findings of the edited
// source, are before's at the same places (TL900's aside), and that each
// of those that wanted a directive is now suppressed.
func (r *Runner) sameFindingsSuppressed(before, after []Diagnostic, want func(*Diagnostic) bool) error {
	key := func(d *Diagnostic) string {
		return fmt.Sprintf("%s %d:%d %d:%d %s", d.Rule.Code, d.Pos.Line, d.Pos.Column, d.EndPos.Line, d.EndPos.Column, d.Message)
	}
	count := map[string]int{}
	wanted := map[string]bool{}
	for i := range before {
		if d := &before[i]; d.Rule.Code != UnusedNoqaCode {
			count[key(d)]++
			if want(d) {
				wanted[key(d)] = true
			}
		}
	}
	for i := range after {
		d := &after[i]
		if d.Rule == r.syntax {
			return errors.New("the result would not parse")
		}
		if d.Rule.Code == UnusedNoqaCode {
			continue
		}
		k := key(d)
		if count[k] == 0 {
			return fmt.Errorf("the result would report %s at %d:%d, which the source does not", d.Rule.Code, d.Pos.Line, d.Pos.Column)
		}
		count[k]--
		if !d.Suppressed && wanted[k] {
			return fmt.Errorf("the directive added for %s at %d:%d would not suppress it", d.Rule.Code, d.Pos.Line, d.Pos.Column)
		}
	}
	for k, n := range count {
		if n > 0 {
			return fmt.Errorf("the result would no longer report %s", strings.SplitN(k, " ", 2)[0])
		}
	}
	return nil
}
