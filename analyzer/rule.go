package analyzer

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Severity is a rule's default level in SARIF and editors.
type Severity uint8

// The severities.
const (
	SeverityWarning Severity = iota
	SeverityError
)

func (s Severity) String() string {
	if s == SeverityError {
		return "error"
	}
	return "warning"
}

// Rule is one check: its identity, its documentation and its logic. A
// rule is a value in its own file of package rules; nothing registers
// itself.
type Rule struct {
	Code    string // "TL101": TL, category digit, two digits
	Name    string // kebab-case, naming the pattern flagged
	Summary string // one line, for listings and SARIF shortDescription
	// Doc is Markdown with the headings "What it does", "Why is this bad?",
	// "Example", "Use instead", "Known problems" and "References".
	Doc       string
	Severity  Severity
	Precision string   // SARIF precision: "very-high", "high", "medium", "low"
	Tags      []string // SARIF tags
	// Preview rules must be selected by their exact code or name.
	Preview bool
	// Confidence is the lowest confidence of the rule's findings shown
	// when the user chooses none; 0 means DefaultConfidence.
	Confidence Confidence
	// Fixable rules offer a fix for some of their findings; their doc has
	// a "Fix safety" section.
	Fixable bool
	// Kinds lists the node kinds Check wants; the runner calls Check once
	// for every node of those kinds. A rule with no Check is produced by
	// the runner itself (syntax and read errors).
	Kinds []Kind
	Check func(p *Pass, node NodeID)
}

// URL is where the rule's documentation is published.
func (r *Rule) URL() string {
	return "https://github.com/torchlint/torchlint/blob/main/docs/rules/" + r.Code + ".md"
}

// Diagnostic is one finding.
type Diagnostic struct {
	Rule    *Rule
	Path    string
	Message string
	// Start and End are byte offsets; Pos and EndPos are 1-based line and
	// code-point column, End exclusive.
	Start, End  uint32
	Pos, EndPos Position
	// Source holds the text of the lines the finding spans (at most
	// maxSourceLines), for the full output format.
	Source []string
	// Fix resolves the finding, when the rule knows how.
	Fix *Fix
	// Cell is, in a notebook, the 1-based index of the cell the finding
	// is in (Pos and EndPos then count lines within the cell), and
	// RawLine the line of the notebook file that holds its first line;
	// both are 0 for a Python file.
	Cell, RawLine int
	// NoqaOffset is how many lines below its first line a noqa comment
	// must go to cover the finding: the last line of a multi-line string
	// or of a backslash continuation that holds it, where Python reads a
	// comment; 0 for most.
	NoqaOffset int
	// Suppressed is set when a noqa comment covers the finding. Such a
	// finding is returned so that it can be counted, but no output shows
	// it and its fix is never applied.
	Suppressed bool
	// Related are other places the finding involves, in this file or
	// another of the project (the helper a call runs), as SARIF's
	// relatedLocations: the helper a call runs, and the evidence the
	// finding rests on.
	Related []Related
	// Assumed lists the links of the finding's reasoning that the
	// analysis did not see but took on trust; Once says why its pattern
	// costs one graph rather than one per step; Seldom why it runs on
	// some steps only (a periodic sample). All lower its Confidence.
	Assumed []string
	Once    string
	Seldom  string
}

// Related is a place a finding involves besides its own.
type Related struct {
	Path    string // the file, absolute when known
	Line    int
	Column  int
	Message string
	// Cell is, in a notebook, the 1-based index of the cell the place is
	// in (Line and Column then count within the cell), and RawLine the
	// line of the notebook file that holds it; both are 0 elsewhere.
	Cell, RawLine int
}

const maxSourceLines = 4

// Pass is what a rule's Check sees: the file, its semantic model, and a
// way to report.
type Pass struct {
	File  *File
	Model *Model
	rule  *Rule
	out   *[]Diagnostic
}

// Report reports a finding spanning node.
func (p *Pass) Report(node NodeID, message string) {
	n := p.File.N(node)
	p.ReportRange(n.Start, n.End, message)
}

// ReportRelated reports a finding spanning node that involves another
// place of the project, such as the helper function a call runs.
func (p *Pass) ReportRelated(node NodeID, message string, related ...Related) {
	p.Report(node, message)
	d := &(*p.out)[len(*p.out)-1]
	d.Related = append(d.Related, related...)
}

// RelatedSite turns a site of the project's facts into a related
// location.
func RelatedSite(s *Site, message string) Related {
	p := s.Abs
	if p == "" {
		p = s.Path
	}
	return Related{Path: p, Line: s.Line, Column: s.Column, Message: message}
}

// Where names a site for a message: `engine.py:42`.
func (s *Site) Where() string {
	return fmt.Sprintf("%s:%d", s.Path, s.Line)
}

// ReportRange reports a finding over the bytes [start, end).
func (p *Pass) ReportRange(start, end uint32, message string) {
	*p.out = append(*p.out, newDiagnostic(p.File, p.rule, start, end, message))
}

func newDiagnostic(f *File, r *Rule, start, end uint32, message string) Diagnostic {
	d := Diagnostic{Rule: r, Path: f.Path, Message: message, Start: start, End: end}
	d.Pos = f.Position(start)
	d.EndPos = f.Position(end)
	last := d.EndPos.Line
	if d.EndPos.Column == 1 && last > d.Pos.Line {
		last--
	}
	for l := d.Pos.Line; l <= last && l < d.Pos.Line+maxSourceLines; l++ {
		d.Source = append(d.Source, f.Line(l))
	}
	return d
}

// Snippet names source text in a message, on one line: the text itself
// when it fits in n runes; a call too long for that by its function
// (`evaluate(...)`, `.item()`); otherwise the whole text. It never cuts
// code in the middle: cut code reads as a typo, and pasted, does not run.
func Snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	name, args, ok := callShape(s)
	if !ok {
		return s
	}
	if args == "" {
		args = "()"
	} else {
		args = "(...)"
	}
	if utf8.RuneCountInString(name)+len(args) <= n {
		return name + args
	}
	if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
		return name[dot:] + args
	}
	return name + args
}

// callShape splits text of the form `name.chain(args)` into the name and
// the arguments, when the parenthesis after the name closes at the end.
func callShape(s string) (name, args string, ok bool) {
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return "", "", false
	}
	for _, r := range s[:open] {
		if r != '.' && r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return "", "", false
		}
	}
	depth := 0
	for i, r := range s[open:] {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && open+i != len(s)-1 {
				return "", "", false // `f(x)(y)` or `f(x).g()`
			}
		}
	}
	return s[:open], strings.TrimSpace(s[open+1 : len(s)-1]), depth == 0
}
