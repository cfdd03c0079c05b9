package analyzer

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/torchlint/torchlint/internal/workers"
)

// Applicability says when a fix may be applied without review.
type Applicability uint8

// The applicabilities, as in Ruff.
const (
	// Safe fixes keep the program's meaning; --fix applies them.
	Safe Applicability = iota
	// Unsafe fixes may change behaviour; only --unsafe-fixes applies them.
	Unsafe
)

func (a Applicability) String() string {
	if a == Unsafe {
		return "unsafe"
	}
	return "safe"
}

// Edit replaces the bytes [Start, End) of a file with New. Pos and EndPos
// are filled in when the fix is reported.
type Edit struct {
	Start, End  uint32
	New         string
	Pos, EndPos Position
}

// Fix is a change that resolves a diagnostic: edits over the file's bytes,
// sorted and non-overlapping.
type Fix struct {
	Message       string // imperative, shown with --show-fixes and in editors
	Applicability Applicability
	Edits         []Edit
}

// Replace is an edit of the bytes [start, end).
func Replace(start, end uint32, s string) Edit { return Edit{Start: start, End: end, New: s} }

// Insert is an edit that inserts s at off.
func Insert(off uint32, s string) Edit { return Edit{Start: off, End: off, New: s} }

// ReportFix reports a finding spanning node, with a fix.
func (p *Pass) ReportFix(node NodeID, message string, fix *Fix) {
	n := p.File.N(node)
	p.ReportRange(n.Start, n.End, message)
	p.attachFix(fix)
}

// Fix gives the last reported diagnostic a fix.
func (p *Pass) Fix(fix *Fix) { p.attachFix(fix) }

// attachFix gives the last reported diagnostic its fix, with the edits
// sorted and their positions filled in. A fix whose edits overlap or fall
// outside the file is a bug in its rule and is left out.
func (p *Pass) attachFix(fix *Fix) {
	if fix == nil || len(fix.Edits) == 0 {
		return
	}
	d := &(*p.out)[len(*p.out)-1]
	edits := append([]Edit(nil), fix.Edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	for i := range edits {
		e := &edits[i]
		if e.End < e.Start || int(e.End) > len(p.File.Src) || (i > 0 && e.Start < edits[i-1].End) {
			return
		}
		e.Pos, e.EndPos = p.File.Position(e.Start), p.File.Position(e.End)
	}
	d.Fix = &Fix{Message: fix.Message, Applicability: fix.Applicability, Edits: edits}
}

// Applicable reports whether the fix applies in a run that allows unsafe
// fixes or not.
func (f *Fix) Applicable(unsafe bool) bool {
	return f != nil && (f.Applicability == Safe || unsafe)
}

// FixResult is the outcome of fixing one file.
type FixResult struct {
	// Source is the fixed text; it is the input when nothing was applied.
	Source []byte
	// Applied lists the rule of every fix applied, in order.
	Applied []*Rule
	// Remaining are the diagnostics of Source.
	Remaining []Diagnostic
	// Problems describes fixes that were dropped: they produced a syntax
	// error, or the fixes did not converge. None of them is in Source.
	Problems []string
}

// maxFixRounds bounds the apply, re-parse, re-lint cycle.
const maxFixRounds = 10

// FixSource applies the applicable fixes of src's diagnostics, re-parses
// and re-lints, and repeats until no fix applies. A round's fixes that
// together produce a syntax error are retried one at a time and the
// failing ones dropped. If fixes still apply after maxFixRounds, nothing
// is applied at all. A file with syntax errors is not fixed.
func (r *Runner) FixSource(path string, src []byte, unsafe bool) FixResult {
	res := FixResult{Source: src}
	cur := src
	dropped := map[string]bool{}
	for round := 0; ; round++ {
		diags := r.LintSource(path, cur)
		if round == 0 && hasCode(diags, r.syntax) {
			res.Remaining = diags
			return res
		}
		var fixes []*Diagnostic
		for i := range diags {
			d := &diags[i]
			if d.Fix.Applicable(unsafe) && !d.Suppressed && r.shown(d) && !dropped[fixKey(cur, d)] {
				fixes = append(fixes, d)
			}
		}
		if len(fixes) == 0 {
			res.Source, res.Remaining = cur, diags
			return res
		}
		if round == maxFixRounds {
			codes := map[string]bool{}
			for _, d := range fixes {
				codes[d.Rule.Code] = true
			}
			res.Problems = append(res.Problems, fmt.Sprintf("fixes did not converge after %d rounds (%s); no fix was applied", maxFixRounds, sortedKeys(codes)))
			res.Source, res.Applied = src, nil
			res.Remaining = r.LintSource(path, src)
			return res
		}
		chosen := nonOverlapping(fixes)
		next := applyFixes(cur, chosen)
		if parsesCleanly(path, next) {
			for _, d := range chosen {
				res.Applied = append(res.Applied, d.Rule)
			}
			cur = next
			continue
		}
		// Some fix breaks the syntax: apply them one at a time, from the
		// end of the file so that earlier offsets stay valid.
		next = cur
		var kept []*Rule
		for i := len(chosen) - 1; i >= 0; i-- {
			d := chosen[i]
			try := applyFixes(next, chosen[i:i+1])
			if parsesCleanly(path, try) {
				next = try
				kept = append(kept, d.Rule)
				continue
			}
			dropped[fixKey(cur, d)] = true
			res.Problems = append(res.Problems, fmt.Sprintf("%d:%d: %s fix %q dropped: it would introduce a syntax error",
				d.Pos.Line, d.Pos.Column, d.Rule.Code, d.Fix.Message))
		}
		for i := len(kept) - 1; i >= 0; i-- {
			res.Applied = append(res.Applied, kept[i])
		}
		cur = next
	}
}

// FileFix is the outcome of fixing one file on disk.
type FileFix struct {
	Path     string
	Original []byte // the bytes read; nil when the file could not be read
	FixResult
	Err error // an internal error, as from LintFile
}

// FixFiles reads and fixes each file in parallel, without writing
// anything. A file that cannot be read gets its read diagnostic as its
// only remaining finding.
func (r *Runner) FixFiles(paths []string, unsafe bool) []FileFix {
	out := make([]FileFix, len(paths))
	workers.Run(r.Workers, len(paths), func(i int) {
		out[i] = r.fixFile(paths[i], unsafe)
	})
	return out
}

func (r *Runner) fixFile(path string, unsafe bool) (ff FileFix) {
	ff.Path = path
	defer func() {
		if p := recover(); p != nil {
			ff = FileFix{Path: path, Err: fmt.Errorf("internal error while fixing %s: %v", path, p)}
		}
	}()
	src, err := os.ReadFile(path)
	if err != nil {
		ff.Remaining = []Diagnostic{r.ioDiagnostic(path, fmt.Errorf("cannot read file: %w", unwrapPathError(err)))}
		return ff
	}
	ff.Original = src
	if IsNotebook(path) {
		ff.FixResult = r.FixNotebook(path, src, unsafe)
		return ff
	}
	ff.FixResult = r.FixSource(path, src, unsafe)
	return ff
}

// FixNotebook fixes the code cells of a notebook, its JSON raw, and
// writes them back into its JSON, changing nothing else.
func (r *Runner) FixNotebook(path string, raw []byte, unsafe bool) FixResult {
	nb, err := ParseNotebook(raw)
	if err != nil {
		return FixResult{Source: raw, Remaining: []Diagnostic{r.ioDiagnostic(path, err)}}
	}
	if nb.Indented {
		// Where a new line goes among cells IPython dedents is not
		// known: no fix is offered (LintNotebook), none is applied.
		return FixResult{Source: raw, Remaining: r.lintNotebook(path, nb, r.factsOf(path))}
	}
	res := r.FixSource(path, nb.Source, unsafe)
	out := FixResult{Source: raw, Problems: res.Problems}
	if len(res.Applied) > 0 {
		fixed, err := nb.Rewrite(res.Source)
		if err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("fixes not written: %v", err))
		} else {
			out.Source, out.Applied = fixed, res.Applied
		}
	}
	out.Remaining = r.LintNotebook(path, out.Source)
	return out
}

func hasCode(diags []Diagnostic, rule *Rule) bool {
	for i := range diags {
		if diags[i].Rule == rule {
			return true
		}
	}
	return false
}

// fixKey identifies a fix across rounds, where offsets move: its rule, its
// message, and what each edit replaces with what.
func fixKey(src []byte, d *Diagnostic) string {
	var b strings.Builder
	b.WriteString(d.Rule.Code)
	b.WriteString("\x00")
	b.WriteString(d.Fix.Message)
	for _, e := range d.Fix.Edits {
		fmt.Fprintf(&b, "\x00%q\x00%q", src[e.Start:e.End], e.New)
	}
	return b.String()
}

// nonOverlapping picks fixes in file order, skipping any whose edits
// overlap or touch the edits of one already picked (two insertions at the
// same offset would have no defined order).
func nonOverlapping(fixes []*Diagnostic) []*Diagnostic {
	sort.SliceStable(fixes, func(i, j int) bool { return fixes[i].Fix.Edits[0].Start < fixes[j].Fix.Edits[0].Start })
	var chosen []*Diagnostic
	var taken []Edit
	for _, d := range fixes {
		ok := true
		for _, e := range d.Fix.Edits {
			for _, t := range taken {
				if e.Start <= t.End && t.Start <= e.End {
					ok = false
				}
			}
		}
		if ok {
			chosen = append(chosen, d)
			taken = append(taken, d.Fix.Edits...)
		}
	}
	return chosen
}

// applyFixes applies the edits of non-overlapping fixes to src.
func applyFixes(src []byte, fixes []*Diagnostic) []byte {
	var edits []Edit
	for _, d := range fixes {
		edits = append(edits, d.Fix.Edits...)
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	out := make([]byte, 0, len(src)+64)
	last := uint32(0)
	for _, e := range edits {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.New...)
		last = e.End
	}
	return append(out, src[last:]...)
}

// parsesCleanly reports whether src parses without a syntax error.
func parsesCleanly(path string, src []byte) bool {
	f, err := Parse(path, src)
	return err == nil && len(f.SyntaxErrors()) == 0
}

func sortedKeys(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}
