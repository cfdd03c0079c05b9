package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// formats are the output formats, by name (--output-format).
var formats = map[string]func(io.Writer, *Report) error{
	"full":       writeFull,
	"concise":    writeConcise,
	"grouped":    writeGrouped,
	"json":       writeJSON,
	"json-lines": writeJSONLines,
	"sarif":      writeSARIF,
	"github":     writeGitHub,
	"gitlab":     writeGitLab,
	"junit":      writeJUnit,
	"pylint":     writePylint,
}

// Formats returns the names of the output formats, sorted.
func Formats() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Write writes the report in the named output format.
func Write(w io.Writer, format string, r *Report) error {
	write, ok := formats[format]
	if !ok {
		return fmt.Errorf("unknown output format %q (expected one of: %s)", format, strings.Join(Formats(), ", "))
	}
	return write(w, r)
}

// IsText reports whether a format is read by people: only these end
// with a summary and may be coloured.
func IsText(format string) bool {
	return format == "full" || format == "concise" || format == "grouped"
}

// Report is what a run found, handed to an output format.
type Report struct {
	Diagnostics []analyzer.Diagnostic
	Files       int
	Cwd         string
	// Unsafe is set when unsafe fixes are enabled: they count as
	// applicable in the markers and summary.
	Unsafe bool
	// FixMode is set when fixes were applied; Fixed counts them.
	FixMode bool
	Fixed   int
	// Suppressed counts the findings silenced by noqa comments; they are
	// not in Diagnostics.
	Suppressed int
	// Hidden counts the findings below the confidence level shown, and
	// Lowest is the level of the least sure of them; they are not in
	// Diagnostics.
	Hidden int
	Lowest analyzer.Confidence
	// Errors counts the internal errors and failures reported beside the
	// findings: with any, a clean run is not "All checks passed!".
	Errors int
	// Quiet leaves out the summary of the text formats.
	Quiet bool
	// Color turns on ANSI colours in the text formats.
	Color bool
	// Version is torchlint's version, for the formats that name the tool
	// (SARIF).
	Version string
}

// SGR parameters of the colours used, as Ruff uses them: paths bold,
// codes red and bold, separators and the fix mark cyan, the source gutter
// blue and bold.
const (
	sgrBold      = "1"
	sgrRedBold   = "1;31"
	sgrCyan      = "36"
	sgrBlueBold  = "1;34"
	sgrUnderline = "4"
)

// paint wraps s in an ANSI colour when colour is on.
func (r *Report) paint(s, sgr string) string {
	if !r.Color || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

// marker is " [*]" for a finding whose fix --fix would apply.
func (r *Report) marker(d *analyzer.Diagnostic) string {
	if d.Fix.Applicable(r.Unsafe) {
		return " [" + r.paint("*", sgrCyan) + "]"
	}
	return ""
}

// level is " (medium)" or " (low)" after the code of a finding below
// high confidence, and "" for a sure one.
func (r *Report) level(d *analyzer.Diagnostic) string {
	if c := d.Confidence(); c != analyzer.ConfidenceHigh {
		return " " + r.paint("("+c.String()+")", sgrCyan)
	}
	return ""
}

// headline is a finding's first line in the text formats:
// path:line:col: CODE (level) [*] message.
func (r *Report) headline(d *analyzer.Diagnostic) string {
	sep := r.paint(":", sgrCyan)
	return fmt.Sprintf("%s%s%s%d%s%d%s %s%s%s %s", r.paint(r.displayPath(d.Path), sgrBold), sep, cellPrefix(d, sep), d.Pos.Line, sep, d.Pos.Column, sep,
		r.paint(d.Rule.Code, sgrRedBold), r.level(d), r.marker(d), d.Message)
}

// cellPrefix is "cell N:" for a finding in a notebook, as Ruff writes
// notebook locations (path:cell 3:4:5), and "" otherwise.
func cellPrefix(d *analyzer.Diagnostic, sep string) string {
	if d.Cell == 0 {
		return ""
	}
	return fmt.Sprintf("cell %d%s", d.Cell, sep)
}

// fileLine is the line of the file a finding is on: in a notebook, the
// line of the .ipynb JSON that holds the finding's first line.
func fileLine(d *analyzer.Diagnostic) int {
	if d.Cell > 0 {
		return d.RawLine
	}
	return d.Pos.Line
}

// displayPath shows a path relative to the working directory when it lies
// below it, with forward slashes.
func (r *Report) displayPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	if rel, err := filepath.Rel(r.Cwd, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// Plural is n followed by one or many, as "1 error" or "2 errors".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// writeSummary ends the text formats as Ruff does: the count of findings
// (fixed and remaining after --fix), then what --fix could still do.
func writeSummary(w io.Writer, r *Report) {
	if r.Quiet {
		return
	}
	n := len(r.Diagnostics)
	fixed := 0
	if r.FixMode {
		fixed = r.Fixed
	}
	switch {
	case n == 0 && fixed == 0 && r.Errors > 0:
		fmt.Fprintf(w, "No findings, but %s kept part of the check from running (see below).\n", Plural(r.Errors, "error", "errors"))
		writeHiddenNote(w, r)
		return
	case n == 0 && fixed == 0 && r.Suppressed > 0:
		fmt.Fprintf(w, "All checks passed! (%d suppressed)\n", r.Suppressed)
		writeHiddenNote(w, r)
		return
	case fixed > 0 || r.Suppressed > 0:
		// The parts add up to the total, as in Ruff's "(F fixed, R remaining)".
		var parts []string
		if fixed > 0 {
			parts = append(parts, fmt.Sprintf("%d fixed", fixed))
		}
		if r.Suppressed > 0 {
			parts = append(parts, fmt.Sprintf("%d suppressed", r.Suppressed))
		}
		parts = append(parts, fmt.Sprintf("%d remaining", n))
		fmt.Fprintf(w, "Found %s (%s).\n", Plural(n+fixed+r.Suppressed, "error", "errors"), strings.Join(parts, ", "))
	case n == 0:
		fmt.Fprintln(w, "All checks passed!")
		writeHiddenNote(w, r)
		return
	default:
		fmt.Fprintf(w, "Found %s.\n", Plural(n, "error", "errors"))
	}
	fixable, hidden := 0, 0
	for i := range r.Diagnostics {
		switch d := &r.Diagnostics[i]; {
		case d.Fix.Applicable(r.Unsafe):
			fixable++
		case d.Fix != nil:
			hidden++
		}
	}
	defer writeHiddenNote(w, r)
	hiddenNote := ""
	if hidden > 0 {
		hiddenNote = fmt.Sprintf(" (%s can be enabled with the `--unsafe-fixes` option)", Plural(hidden, "hidden fix", "hidden fixes"))
	}
	switch {
	case fixable > 0:
		fmt.Fprintf(w, "[%s] %d fixable with the `--fix` option%s.\n", r.paint("*", sgrCyan), fixable, hiddenNote)
	case hidden > 0:
		fmt.Fprintf(w, "No fixes available%s.\n", hiddenNote)
	}
}

// writeHiddenNote says how many findings the confidence level shown
// left out, and which option shows them.
func writeHiddenNote(w io.Writer, r *Report) {
	if r.Quiet || r.Hidden == 0 {
		return
	}
	fmt.Fprintf(w, "%s of lower confidence not shown (`--confidence %s` shows %s).\n",
		Plural(r.Hidden, "finding", "findings"), r.Lowest, map[bool]string{true: "it", false: "them"}[r.Hidden == 1])
}

// writeConcise writes one line per finding: path:line:col: CODE message.
func writeConcise(out io.Writer, r *Report) error {
	w := &errWriter{w: out}
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		fmt.Fprintln(w, r.headline(d))
	}
	writeSummary(w, r)
	return w.err
}

// writeFull writes each finding with its source lines and a caret line
// under the span, as Ruff's full format does.
func writeFull(out io.Writer, r *Report) error {
	w := &errWriter{w: out}
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		fmt.Fprintln(w, r.headline(d))
		if len(d.Source) > 0 {
			width := len(fmt.Sprint(d.Pos.Line + len(d.Source) - 1))
			pad := strings.Repeat(" ", width)
			gutter := r.paint(pad+" |", sgrBlueBold)
			fmt.Fprintln(w, gutter)
			for j, line := range d.Source {
				n := d.Pos.Line + j
				line = printable(strings.ReplaceAll(line, "\t", "    "))
				fmt.Fprintf(w, "%s %s\n", r.paint(fmt.Sprintf("%*d |", width, n), sgrBlueBold), line)
				if j == 0 {
					indent, marks := caretLine(d, d.Source[0], len(d.Source) == 1)
					fmt.Fprintf(w, "%s %s%s\n", gutter, indent, r.paint(marks, sgrRedBold))
				}
			}
			fmt.Fprintln(w, gutter)
			eq := r.paint(pad+" =", sgrBlueBold)
			if d.Fix != nil {
				unsafe := ""
				if d.Fix.Applicability == analyzer.Unsafe {
					unsafe = " (unsafe)"
				}
				fmt.Fprintf(w, "%s %s: %s%s\n", eq, r.paint("help", sgrBold), printable(d.Fix.Message), unsafe)
			}
			for _, note := range r.notes(d) {
				fmt.Fprintf(w, "%s %s: %s\n", eq, r.paint("note", sgrBold), printable(note))
			}
		}
		fmt.Fprintln(w)
	}
	writeSummary(w, r)
	return w.err
}

// notes are what the full format says under a finding's source: what
// its reasoning assumed, why it costs one graph only, and the other
// places it rests on.
func (r *Report) notes(d *analyzer.Diagnostic) []string {
	var out []string
	for _, a := range d.Assumed {
		out = append(out, "assumed: "+a)
	}
	if d.Once != "" {
		out = append(out, "once: "+d.Once)
	}
	if d.Seldom != "" {
		out = append(out, "seldom: "+d.Seldom)
	}
	for _, rel := range d.Related {
		cell := ""
		if rel.Cell > 0 {
			cell = fmt.Sprintf("cell %d:", rel.Cell)
		}
		out = append(out, fmt.Sprintf("%s:%s%d: %s", r.displayPath(rel.Path), cell, rel.Line, rel.Message))
	}
	return out
}

// printable replaces control characters of a source line (NUL, ESC, ...)
// so that a linted file cannot drive the terminal.
func printable(line string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '\uFFFD'
		}
		return r
	}, line)
}

// caretLine underlines the finding on its first source line: the indent
// up to the span, and the carets followed by the code.
func caretLine(d *analyzer.Diagnostic, line string, single bool) (indent, marks string) {
	runes := []rune(line)
	start := d.Pos.Column - 1
	if start > len(runes) {
		start = len(runes)
	}
	end := len(runes)
	if single && d.EndPos.Line == d.Pos.Line {
		end = d.EndPos.Column - 1
	}
	if end > len(runes) {
		end = len(runes)
	}
	width := func(rs []rune) int {
		n := 0
		for _, c := range rs {
			if c == '\t' {
				n += 4
			} else {
				n++
			}
		}
		return n
	}
	n := width(runes[start:end])
	if n < 1 {
		n = 1
	}
	return strings.Repeat(" ", width(runes[:start])), strings.Repeat("^", n) + " " + d.Rule.Code
}

type jsonLocation struct {
	Column int `json:"column"`
	Row    int `json:"row"`
}

type jsonEdit struct {
	Content     string       `json:"content"`
	EndLocation jsonLocation `json:"end_location"`
	Location    jsonLocation `json:"location"`
}

type jsonFix struct {
	Applicability string     `json:"applicability"`
	Edits         []jsonEdit `json:"edits"`
	Message       string     `json:"message"`
}

// jsonFixOf is a diagnostic's fix in Ruff's JSON shape, or nil.
func jsonFixOf(d *analyzer.Diagnostic) *jsonFix {
	if d.Fix == nil {
		return nil
	}
	jf := &jsonFix{Applicability: d.Fix.Applicability.String(), Message: d.Fix.Message, Edits: []jsonEdit{}}
	for _, e := range d.Fix.Edits {
		jf.Edits = append(jf.Edits, jsonEdit{
			Content:     e.New,
			Location:    jsonLocation{Row: e.Pos.Line, Column: e.Pos.Column},
			EndLocation: jsonLocation{Row: e.EndPos.Line, Column: e.EndPos.Column},
		})
	}
	return jf
}

type jsonDiagnostic struct {
	Cell        *int          `json:"cell"`
	Code        string        `json:"code"`
	EndLocation jsonLocation  `json:"end_location"`
	Filename    string        `json:"filename"`
	Fix         *jsonFix      `json:"fix"`
	Location    jsonLocation  `json:"location"`
	Message     string        `json:"message"`
	Name        string        `json:"name"`
	NoqaRow     int           `json:"noqa_row"`
	URL         string        `json:"url"`
	Related     []jsonRelated `json:"related,omitempty"`
	Confidence  string        `json:"confidence"`
	Assumed     []string      `json:"assumed,omitempty"`
	Once        string        `json:"once,omitempty"`
	Seldom      string        `json:"seldom,omitempty"`
}

// jsonRelated is another place a finding involves.
type jsonRelated struct {
	Cell     *int         `json:"cell,omitempty"`
	Filename string       `json:"filename"`
	Location jsonLocation `json:"location"`
	Message  string       `json:"message"`
}

// writeJSON writes an array of findings with Ruff's field names; the
// filename is absolute, as in Ruff.
func writeJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonDiagnostics(r))
}

// jsonDiagnostics is the report's findings in Ruff's JSON shape.
func jsonDiagnostics(r *Report) []jsonDiagnostic {
	out := make([]jsonDiagnostic, 0, len(r.Diagnostics))
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		name := d.Path
		if abs, err := filepath.Abs(d.Path); err == nil {
			name = abs
		}
		out = append(out, jsonDiagnostic{
			Code:        d.Rule.Code,
			Name:        d.Rule.Name,
			Message:     d.Message,
			Filename:    filepath.ToSlash(name),
			Fix:         jsonFixOf(d),
			Location:    jsonLocation{Row: d.Pos.Line, Column: d.Pos.Column},
			EndLocation: jsonLocation{Row: d.EndPos.Line, Column: d.EndPos.Column},
			NoqaRow:     d.Pos.Line + d.NoqaOffset,
			URL:         d.Rule.URL(),
			Confidence:  d.Confidence().String(),
			Assumed:     d.Assumed,
			Once:        d.Once,
			Seldom:      d.Seldom,
		})
		if d.Cell > 0 {
			cell := d.Cell
			out[len(out)-1].Cell = &cell
		}
		for _, rel := range d.Related {
			relName := rel.Path
			if abs, err := filepath.Abs(rel.Path); err == nil {
				relName = abs
			}
			jr := jsonRelated{Filename: filepath.ToSlash(relName), Location: jsonLocation{Row: rel.Line, Column: rel.Column}, Message: rel.Message}
			if rel.Cell > 0 {
				cell := rel.Cell
				jr.Cell = &cell
			}
			out[len(out)-1].Related = append(out[len(out)-1].Related, jr)
		}
	}
	return out
}

// errWriter remembers the first write error so that a format can write
// freely and report the failure once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
