package analyzer

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/torchlint/torchlint/internal/workers"
)

// The diagnostics the runner itself produces; their rule values (with
// their documentation) live in package rules.
const (
	SyntaxErrorCode = "TL001"
	IOErrorCode     = "TL002"
	// UnusedNoqaCode is reported by the runner when it is enabled, after
	// the other rules, for noqa codes that suppressed nothing.
	UnusedNoqaCode = "TL900"
)

// nodeBuffers is a free list of node arrays, reused from file to file (a
// sync.Pool would drop them at every garbage collection).
var nodeBuffers = make(chan []Node, 16)

func getNodeBuffer() []Node {
	select {
	case b := <-nodeBuffers:
		return b
	default:
		return nil
	}
}

func putNodeBuffer(b []Node) {
	if cap(b) == 0 || cap(b) > maxPooledNodes {
		return
	}
	select {
	case nodeBuffers <- b[:0]:
	default:
	}
}

// maxPooledNodes bounds the arrays kept for reuse (about 28 MB).
const maxPooledNodes = 1 << 20

// Runner lints files with a fixed set of rules.
type Runner struct {
	rules  []*Rule
	byKind [kindCount][]*Rule
	syntax *Rule
	ioErr  *Rule
	// unusedNoqa is the enabled rule with code UnusedNoqaCode, if any.
	unusedNoqa *Rule
	// Workers is the number of files linted at once; 0 means GOMAXPROCS.
	Workers int
	// MaxFileSize is the size in bytes over which a file is reported and
	// not linted; 0 means DefaultMaxFileSize, a negative value no limit.
	MaxFileSize int64
	// MaxFileSizeFor, when set, gives the limit of one file (the
	// max-file-size of its configuration) where MaxFileSize is 0; 0 for
	// the default.
	MaxFileSizeFor func(path string) int64
	// Cache, when set, keeps the findings of files that did not change.
	Cache Cache
	// Facts, when set, gives LintSource (and so the fixes) what the rest
	// of each file's project knows.
	Facts func(path string) Facts
	// RulesFor, when set, narrows the rules run on one file (per-file
	// configuration and ignores): a rule it returns false for is not run
	// there. The runner's own diagnostics are always on.
	RulesFor func(path string) func(*Rule) bool
	// MinConfidence, when set, gives the lowest confidence of the
	// findings shown for a file, or 0 for each rule's own
	// (Rule.ShownFrom): the fixes and the noqa comments of findings below
	// it are not applied or added. The findings themselves are all
	// returned (see Confident).
	MinConfidence func(path string) Confidence
}

// Cache stores the findings of a file by its path and content (and
// whatever else the implementation keys them by, such as the rules
// enabled for the file). Implementations must be safe for concurrent use.
type Cache interface {
	Get(path string, src []byte) ([]Diagnostic, bool)
	Put(path string, src []byte, diags []Diagnostic)
}

// NewRunner prepares a runner for the enabled rules. syntaxRule and
// ioRule describe the runner's own diagnostics and are always on. An
// enabled rule with code UnusedNoqaCode and no check makes the runner
// report unused noqa codes.
func NewRunner(enabled []*Rule, syntaxRule, ioRule *Rule) *Runner {
	r := &Runner{rules: enabled, syntax: syntaxRule, ioErr: ioRule}
	for _, rule := range enabled {
		if rule.Check == nil {
			if rule.Code == UnusedNoqaCode {
				r.unusedNoqa = rule
			}
			continue
		}
		for _, k := range rule.Kinds {
			r.byKind[k] = append(r.byKind[k], rule)
		}
	}
	return r
}

// LintSource runs the whole per-file pipeline on src: parse, semantic
// model, one dispatching walk over the nodes. It sees other files only
// through r.Facts.
func (r *Runner) LintSource(path string, src []byte) []Diagnostic {
	// A notebook's facts (see lintNotebook) need the names it binds.
	diags, _ := r.analyze(path, src, r.factsOf(path), false, IsNotebook(path))
	return diags
}

// factsOf is what Facts gives for path, or nil.
func (r *Runner) factsOf(path string) Facts {
	if r.Facts == nil {
		return nil
	}
	return r.Facts(path)
}

// Analyze runs the per-file pipeline on src with what the rest of the
// project knows (facts; nil for a file alone). With summarize, it also
// returns what the file tells the rest of its project, from the same
// parse and computed before the facts are used; the summary is nil for
// a file that cannot be read or decoded.
func (r *Runner) Analyze(path string, src []byte, facts Facts, summarize bool) ([]Diagnostic, *Summary) {
	return r.analyze(path, src, facts, summarize, false)
}

// analyze is Analyze; with ownNames, the facts are handed the names the
// file binds even without summarize: for a notebook, whose own summary
// the facts may not have (a notebook linted alone, or standard input).
func (r *Runner) analyze(path string, src []byte, facts Facts, summarize, ownNames bool) ([]Diagnostic, *Summary) {
	if !utf8.Valid(src) {
		return []Diagnostic{r.invalidUTF8(path, src)}, nil
	}
	f, err := parseInto(path, src, getNodeBuffer())
	if err != nil {
		return []Diagnostic{r.ioDiagnostic(path, err)}, nil
	}
	// Nothing of f outlives this call (diagnostics hold copies), so its
	// nodes can serve the next file.
	defer putNodeBuffer(f.Nodes)
	var out []Diagnostic
	syntaxErrors := f.SyntaxErrors()
	for _, se := range syntaxErrors {
		out = append(out, newDiagnostic(f, r.syntax, se.Start, se.End, se.Message))
	}
	m := NewModel(f)
	var sum *Summary
	if summarize {
		sum = m.summarizeNames()
	}
	if facts != nil {
		if u, ok := facts.(interface{ UseSummary(*Summary) }); ok && (sum != nil || ownNames) {
			names := sum
			if names == nil {
				names = m.summarizeNames()
			}
			u.UseSummary(names) // the file's own imports, before the project has them
		}
		m.SetFacts(facts)
	}
	var enabled func(*Rule) bool
	if r.RulesFor != nil {
		enabled = r.RulesFor(path)
	}
	if m.OtherFramework() {
		enabled = func(*Rule) bool { return false } // MXNet, TensorFlow, JAX code
	} else {
		// The evidence of the file's own code first, as Summarize gathers
		// it: gathered from within a question still being worked out (a
		// function's back-propagated parameters), it would take that
		// question's answer for none.
		m.ev()
	}
	passes := make(map[*Rule]*Pass, len(r.rules))
	for _, rule := range r.rules {
		if enabled == nil || enabled(rule) {
			passes[rule] = &Pass{File: f, Model: m, rule: rule, out: &out}
		}
	}
	var crashes []Diagnostic
	// The walk goes on after a rule panics, from the next rule at the same
	// node, with that rule stopped on this file; the others go on.
	for at := (walkAt{}); ; at.rule++ {
		rule, msg, ok := r.walk(f, passes, &at)
		if ok {
			break
		}
		passes[rule] = nil
		start := f.N(NodeID(at.node)).Start
		crashes = append(crashes, newDiagnostic(f, Crash, start, start,
			fmt.Sprintf("%s (%s) failed on this file, and its findings for it are left out: %s", rule.Code, rule.Name, msg)))
	}
	if crashes != nil {
		out = slices.DeleteFunc(out, func(d Diagnostic) bool {
			for _, rule := range r.rules {
				if d.Rule == rule && passes[rule] == nil && (enabled == nil || enabled(rule)) {
					return true
				}
			}
			return false
		})
	}
	if len(syntaxErrors) > 0 && !f.exactTree(syntaxErrors[0]) {
		unparsed(f, out, syntaxErrors[0])
	}
	out = r.applyNoqa(f, m, out, enabled)
	if len(out) > 0 {
		if rows := findNoqaRows(f); rows != nil {
			for i := range out {
				out[i].NoqaOffset = rows.row(out[i].Pos.Line) - out[i].Pos.Line
			}
		}
	}
	out = append(out, crashes...)
	if summarize {
		// The summary is the file's alone: what the rules worked out
		// holds for it where no answer of the project's went into it.
		m.SetFacts(nil)
		m.summarizeDefs(sum)
	}
	return out, sum
}

// unparsed adds, to the findings of rules that follow values and grad
// modes through the code (TL1xx, TL2xx, TL5xx), that the file does not
// parse: they rest on the parts of it the parser recovered, and the
// parts may not be what the code means (Python 2 code, a template).
func unparsed(f *File, out []Diagnostic, first SyntaxError) {
	line := f.Position(first.Start).Line
	for i := range out {
		code := out[i].Rule.Code
		if len(code) < 3 || code[:2] != "TL" || (code[2] != '1' && code[2] != '2' && code[2] != '5') {
			continue
		}
		out[i].Assumed = append(out[i].Assumed, fmt.Sprintf("the code means what the parser recovered of it: the file does not parse (line %d)", line))
	}
}

// exactTree reports whether a file that does not parse, its first error
// first, still has a tree that says what the code means: the error is a
// name that has since become a keyword (`x.cuda(async=True)`, valid
// Python 3 before 3.7), which the grammar reads as written, and the
// parser recovered from nothing (no ERROR or missing node). Python 2
// code is not: what its statements mean is not always what they read
// as in Python 3.
func (f *File) exactTree(first SyntaxError) bool {
	if first.Node == NoNode || f.Kind(first.Node) != KindIdentifier || !f.TextIs(first.Node, "async") && !f.TextIs(first.Node, "await") {
		return false
	}
	for i := range f.Nodes {
		if f.Nodes[i].Kind == KindError || f.Nodes[i].Missing() {
			return false
		}
	}
	return true
}

// Crash marks a diagnostic that says a rule panicked on a file: not a
// finding but an internal error, which callers report as one (see
// SplitCrashes). The crashed rule's other findings for the file are left
// out, as partial; the other rules' stand. A crash is never suppressed.
var Crash = &Rule{Code: "crash", Name: "internal-error", Summary: "a rule failed on a file", Severity: SeverityError}

// walkAt is where the dispatching walk is: a node, and the index of a
// rule among those that want the node's kind.
type walkAt struct{ node, rule int }

// walk runs the rules on the nodes from at on, keeping at where it is;
// a panic in a rule stops it and returns the rule and the panic's
// message, with ok false. One recover serves the whole walk.
func (r *Runner) walk(f *File, passes map[*Rule]*Pass, at *walkAt) (crashed *Rule, msg string, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			crashed, msg, ok = r.byKind[f.Nodes[at.node].Kind][at.rule], fmt.Sprint(v), false
		}
	}()
	for ; at.node < len(f.Nodes); at.node, at.rule = at.node+1, 0 {
		rules := r.byKind[f.Nodes[at.node].Kind]
		for ; at.rule < len(rules); at.rule++ {
			if p := passes[rules[at.rule]]; p != nil {
				rules[at.rule].Check(p, NodeID(at.node))
			}
		}
	}
	return nil, "", true
}

// SplitCrashes separates the crashes of rules (see Crash) from the
// findings, as errors naming their files.
func SplitCrashes(diags []Diagnostic) ([]Diagnostic, []error) {
	var errs []error
	kept := diags[:0:0]
	for _, d := range diags {
		if d.Rule == Crash {
			errs = append(errs, fmt.Errorf("internal error while linting %s: %s", d.Path, d.Message))
			continue
		}
		kept = append(kept, d)
	}
	if errs == nil {
		return diags, nil
	}
	return kept, errs
}

// applyNoqa marks the diagnostics that noqa comments suppress and, when
// TL900 is on for the file, reports the codes that suppressed nothing
// among those of the rules run on it. Syntax and read errors cannot be
// suppressed.
func (r *Runner) applyNoqa(f *File, m *Model, out []Diagnostic, enabled func(*Rule) bool) []Diagnostic {
	s := findSuppressions(f)
	if s == nil {
		return out
	}
	unsuppressible := func(rule *Rule) bool { return rule == r.syntax || rule == r.ioErr }
	s.suppress(out, unsuppressible)
	if s.fileAll || r.unusedNoqa == nil || (enabled != nil && !enabled(r.unusedNoqa)) {
		return out
	}
	judged := map[string]bool{r.syntax.Code: true, r.ioErr.Code: true}
	for _, rule := range r.rules {
		if rule != r.unusedNoqa && (enabled == nil || enabled(rule)) {
			judged[rule.Code] = true
		}
	}
	n := len(out)
	p := &Pass{File: f, Model: m, rule: r.unusedNoqa, out: &out}
	s.reportUnused(p, func(code string) bool { return judged[code] })
	s.suppress(out[n:], unsuppressible)
	return out
}

func (r *Runner) invalidUTF8(path string, src []byte) Diagnostic {
	off := 0
	for off < len(src) {
		c, size := utf8.DecodeRune(src[off:])
		if c == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	f := &File{Path: path, Src: src[:off]}
	d := newDiagnostic(f, r.ioErr, uint32(off), uint32(off), fmt.Sprintf("file is not valid UTF-8 (byte 0x%02x at offset %d); not linted", src[off], off))
	d.Source = nil
	return d
}

func (r *Runner) ioDiagnostic(path string, err error) Diagnostic {
	return Diagnostic{Rule: r.ioErr, Path: path, Message: err.Error(), Pos: Position{1, 1}, EndPos: Position{1, 1}}
}

// LintFile reads path and lints it; a read error becomes a diagnostic. A
// panic in a rule is returned as an error naming the file, never lost
// and never fatal to the other files.
func (r *Runner) LintFile(path string) (diags []Diagnostic, err error) {
	return r.LintFileWith(path, nil, nil)
}

// LintFileWith is LintFile for a notebook with facts, what the rest of its
// project knows (nil for a notebook alone; a Python file gets Facts'),
// and salt, which names the state of those facts: the cache keeps the
// notebook's findings by its content and salt together.
func (r *Runner) LintFileWith(path string, facts Facts, salt []byte) (diags []Diagnostic, err error) {
	defer func() {
		if p := recover(); p != nil {
			diags, err = nil, fmt.Errorf("internal error while linting %s: %v", path, p)
		}
	}()
	src, rerr := r.readFile(path, nil)
	if rerr != nil {
		return []Diagnostic{r.ioDiagnostic(path, rerr)}, nil
	}
	key := src
	if len(salt) > 0 {
		key = append(slices.Clip(src), salt...)
	}
	if r.Cache != nil {
		if diags, ok := r.Cache.Get(path, key); ok {
			return diags, nil
		}
	}
	if IsNotebook(path) {
		diags = r.lintNotebookRaw(path, src, facts)
	} else {
		diags = r.LintSource(path, src)
	}
	if r.Cache != nil {
		r.Cache.Put(path, key, diags)
	}
	return diags, nil
}

// ReadSource reads a file to lint, as LintFile does: a file that cannot
// be read, or is over the size limit, gives the read diagnostic (TL002)
// to report in its place.
func (r *Runner) ReadSource(path string) ([]byte, *Diagnostic) {
	return r.ReadSourceInto(path, nil)
}

// ReadSourceInto is ReadSource reading into buf where it has the room: for
// a caller that is done with one source before it reads the next.
func (r *Runner) ReadSourceInto(path string, buf []byte) ([]byte, *Diagnostic) {
	src, err := r.readFile(path, buf)
	if err != nil {
		d := r.ioDiagnostic(path, err)
		return nil, &d
	}
	return src, nil
}

// Summarize returns what a Python file tells the rest of its project,
// without running any rule; nil for a file that is not UTF-8.
func (r *Runner) Summarize(path string, src []byte) *Summary {
	if !utf8.Valid(src) {
		return nil
	}
	f, err := parseInto(path, src, getNodeBuffer())
	if err != nil {
		return nil
	}
	defer putNodeBuffer(f.Nodes)
	return NewModel(f).Summarize()
}

// IsNotebook reports whether path names a Jupyter notebook.
func IsNotebook(path string) bool { return strings.HasSuffix(path, ".ipynb") }

// LintNotebook lints the code cells of a notebook as one source and
// reports each finding in its cell; a file that is not an nbformat 4
// notebook gets one read diagnostic saying why.
func (r *Runner) LintNotebook(path string, raw []byte) []Diagnostic {
	return r.lintNotebookRaw(path, raw, r.factsOf(path))
}

// lintNotebookRaw is LintNotebook with the facts of the notebook's
// project (nil for a notebook alone).
func (r *Runner) lintNotebookRaw(path string, raw []byte, facts Facts) []Diagnostic {
	nb, err := ParseNotebook(raw)
	if err != nil {
		return []Diagnostic{r.ioDiagnostic(path, err)}
	}
	return r.lintNotebook(path, nb, facts)
}

// lintNotebook is LintNotebook for a notebook already parsed. Its facts
// are handed the names its cells bind, as they are now: the project's
// summary of it may be older (an edited buffer) or missing.
func (r *Runner) lintNotebook(path string, nb *Notebook, facts Facts) []Diagnostic {
	diags, _ := r.analyze(path, nb.Source, facts, false, true)
	for i := range diags {
		nb.place(&diags[i])
		if nb.Indented {
			diags[i].Fix = nil
		}
	}
	return diags
}

// place moves a finding of the joined source into its cell.
func (nb *Notebook) place(d *Diagnostic) {
	cell, line, col, raw := nb.Locate(d.Start)
	d.Cell, d.RawLine = cell, raw
	base := filepath.Base(d.Path)
	d.Message = nb.cellLines(d.Message, base, cell)
	// So with the notes: "the file does not parse (line 256)", "in the
	// loop at line 37".
	for j := range d.Assumed {
		d.Assumed[j] = nb.cellLines(d.Assumed[j], base, cell)
	}
	d.Once = nb.cellLines(d.Once, base, cell)
	d.Pos = Position{Line: line, Column: col}
	if endCell, eline, ecol, _ := nb.Locate(d.End); endCell == cell {
		d.EndPos = Position{Line: eline, Column: ecol}
	} else {
		d.EndPos = d.Pos
	}
	if d.Fix != nil {
		for j := range d.Fix.Edits {
			e := &d.Fix.Edits[j]
			_, l, c, _ := nb.Locate(e.Start)
			_, el, ec, _ := nb.Locate(e.End)
			e.Pos, e.EndPos = Position{Line: l, Column: c}, Position{Line: el, Column: ec}
		}
	}
	for j := range d.Related {
		if rel := &d.Related[j]; rel.Path == d.Path && rel.Cell == 0 {
			rel.Cell, rel.Line, rel.Column, rel.RawLine = nb.Locate(nb.offset(rel.Line, rel.Column))
		}
	}
}

// offset is the byte offset of a 1-based line and code-point column of
// the joined source.
func (nb *Notebook) offset(line, col int) uint32 {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(nb.Source[off:], '\n')
		if i < 0 {
			return uint32(len(nb.Source))
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(nb.Source) && nb.Source[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(nb.Source[off:])
		off += size
	}
	return uint32(off)
}

// DefaultMaxFileSize is the size over which a file is not linted.
const DefaultMaxFileSize = 10 << 20

// readFile reads a file unless it is over the size limit; the error says
// why it was not read.
func (r *Runner) readFile(path string, room []byte) ([]byte, error) {
	// O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot read file: %w", unwrapPathError(err))
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read file: %w", unwrapPathError(err))
	}
	limit := r.MaxFileSize
	if limit == 0 && r.MaxFileSizeFor != nil {
		limit = r.MaxFileSizeFor(path)
	}
	if limit == 0 {
		limit = DefaultMaxFileSize
	}
	if info.Mode().IsRegular() && limit > 0 && info.Size() > limit {
		return nil, fmt.Errorf("file is %.1f MB, over the %.1f MB limit (max-file-size); not linted", float64(info.Size())/(1<<20), float64(limit)/(1<<20))
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("cannot read file: not a regular file")
	}
	// Sized by the stat, with room to see the end without growing: a
	// file read whole in one buffer (io.ReadAll doubles its way up).
	buf := bytes.NewBuffer(room[:0])
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("cannot read file: %w", unwrapPathError(err))
	}
	return buf.Bytes(), nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// LintFiles lints paths in parallel and returns the diagnostics sorted by
// path, line, column and code, whatever the scheduling, and the internal
// failures, in path order.
func (r *Runner) LintFiles(paths []string) ([]Diagnostic, []error) {
	results := make([][]Diagnostic, len(paths))
	failures := make([]error, len(paths))
	workers.Run(r.Workers, len(paths), func(i int) {
		results[i], failures[i] = r.LintFile(paths[i])
	})
	var all []Diagnostic
	for _, ds := range results {
		all = append(all, ds...)
	}
	SortDiagnostics(all)
	var errs []error
	for _, e := range failures {
		if e != nil {
			errs = append(errs, e)
		}
	}
	return all, errs
}

// SortDiagnostics orders diagnostics by path, line, column, then code.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := &ds[i], &ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Cell != b.Cell {
			return a.Cell < b.Cell
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		return a.Rule.Code < b.Rule.Code
	})
}
