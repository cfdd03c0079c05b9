package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// writeGrouped writes the findings under a header line per file, each as
// "  line:col CODE message", with a blank line after each file, then the
// summary, as Ruff's grouped format does.
func writeGrouped(out io.Writer, r *Report) error {
	w := &errWriter{w: out}
	for _, group := range groupByFile(r.Diagnostics) {
		rowWidth, colWidth := 1, 1
		for _, d := range group {
			rowWidth = max(rowWidth, len(fmt.Sprint(d.Pos.Line)))
			colWidth = max(colWidth, len(fmt.Sprint(d.Pos.Column)))
		}
		fmt.Fprintf(w, "%s:\n", r.paint(r.displayPath(group[0].Path), sgrUnderline))
		for _, d := range group {
			col := fmt.Sprint(d.Pos.Column)
			fmt.Fprintf(w, "  %s%*d%s%s%s %s%s %s\n", cellPrefix(d, r.paint(":", sgrCyan)), rowWidth, d.Pos.Line, r.paint(":", sgrCyan), col,
				strings.Repeat(" ", colWidth-len(col)), r.paint(d.Rule.Code, sgrRedBold), r.marker(d), d.Message)
		}
		fmt.Fprintln(w)
	}
	writeSummary(w, r)
	return w.err
}

// groupByFile splits findings by path, keeping their order; the findings
// arrive sorted by path, but a file's findings are kept together anyway.
func groupByFile(diags []analyzer.Diagnostic) [][]*analyzer.Diagnostic {
	var groups [][]*analyzer.Diagnostic
	index := map[string]int{}
	for i := range diags {
		d := &diags[i]
		g, ok := index[d.Path]
		if !ok {
			g = len(groups)
			index[d.Path] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], d)
	}
	return groups
}

// writeJSONLines writes one JSON object per finding per line, with the
// fields of the json format.
func writeJSONLines(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, d := range jsonDiagnostics(r) {
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	return nil
}

// writePylint writes "path:line: [CODE] message" lines, Pylint's parseable
// format as Flake8 and Ruff write it.
func writePylint(out io.Writer, r *Report) error {
	w := &errWriter{w: out}
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		fmt.Fprintf(w, "%s:%d: [%s] %s\n", r.displayPath(d.Path), fileLine(d), d.Rule.Code, oneLine(d.Message))
	}
	return w.err
}

// oneLine keeps a line-oriented format to one line per finding.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// writeGitHub writes GitHub Actions workflow commands, one annotation per
// finding, laid out as Ruff's github format:
//
//	::warning title=torchlint (TL101),file=a.py,line=3,col=5,endLine=3,endColumn=9::a.py:3:5: TL101 message
//
// The level is the rule's severity. Columns are left out for a finding
// that spans lines, which GitHub does not accept.
func writeGitHub(out io.Writer, r *Report) error {
	w := &errWriter{w: out}
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		p := r.displayPath(d.Path)
		props := []string{
			"title=" + githubProperty("torchlint ("+d.Rule.Code+")"),
			"file=" + githubProperty(p),
			fmt.Sprintf("line=%d", fileLine(d)),
		}
		endLine, endCol := githubEnd(d)
		switch {
		case d.Cell > 0:
			// A notebook: the line of the .ipynb file; its columns are
			// inside a JSON string, so none are given.
		case endLine == d.Pos.Line:
			props = append(props, fmt.Sprintf("col=%d", d.Pos.Column), fmt.Sprintf("endLine=%d", endLine), fmt.Sprintf("endColumn=%d", endCol))
		default:
			props = append(props, fmt.Sprintf("endLine=%d", endLine))
		}
		msg := fmt.Sprintf("%s:%s%d:%d: %s %s", p, cellPrefix(d, ":"), d.Pos.Line, d.Pos.Column, d.Rule.Code, d.Message)
		fmt.Fprintf(w, "::%s %s::%s\n", d.Rule.Severity, strings.Join(props, ","), githubData(msg))
	}
	return w.err
}

// githubEnd is the last line of a finding and the column after it there.
// A span that ends at the start of a line ends on the line before; an
// empty span covers one column.
func githubEnd(d *analyzer.Diagnostic) (line, col int) {
	line, col = d.EndPos.Line, d.EndPos.Column
	switch {
	case line < d.Pos.Line:
		return d.Pos.Line, d.Pos.Column + 1
	case line > d.Pos.Line && col == 1:
		line--
		if line > d.Pos.Line || len(d.Source) == 0 {
			return line, 0
		}
		col = len([]rune(d.Source[0])) + 1
	}
	if line == d.Pos.Line && col <= d.Pos.Column {
		col = d.Pos.Column + 1
	}
	return line, col
}

// githubData escapes a workflow command's message as GitHub's toolkit
// does (escapeData).
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a workflow command's property value as GitHub's
// toolkit does (escapeProperty).
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

type gitlabLines struct {
	Begin int `json:"begin"`
	End   int `json:"end"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

// writeGitLab writes a GitLab Code Quality report. Paths are relative to
// $CI_PROJECT_DIR when it is set (as in a GitLab job), else to the working
// directory. Each fingerprint hashes the path, the rule, the message and
// the text of the flagged lines, not their numbers, so that a finding
// keeps its fingerprint when code above it moves; identical findings are
// told apart by their order.
func writeGitLab(w io.Writer, r *Report) error {
	base := r.Cwd
	if dir := os.Getenv("CI_PROJECT_DIR"); dir != "" {
		base = dir
	}
	issues := make([]gitlabIssue, 0, len(r.Diagnostics))
	seen := map[string]int{}
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		p := relativeTo(base, d.Path)
		key := gitlabKey(p, d)
		n := seen[key]
		seen[key]++
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, n)))
		severity := "major"
		if d.Rule.Severity == analyzer.SeverityError {
			severity = "critical"
		}
		begin, end := d.Pos.Line, d.EndPos.Line
		if end > d.Pos.Line && d.EndPos.Column == 1 {
			end--
		}
		if d.Cell > 0 {
			begin, end = d.RawLine, d.RawLine // the lines of the .ipynb file
		}
		issues = append(issues, gitlabIssue{
			// GitLab shows the description but not check_name.
			Description: d.Rule.Code + ": " + d.Message,
			CheckName:   d.Rule.Code,
			Fingerprint: hex.EncodeToString(sum[:16]),
			Severity:    severity,
			Location:    gitlabLocation{Path: p, Lines: gitlabLines{Begin: begin, End: max(end, begin)}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(issues)
}

// gitlabKey is what identifies a finding across runs: where it is by
// file and content, not by line number.
func gitlabKey(relPath string, d *analyzer.Diagnostic) string {
	lines := make([]string, len(d.Source))
	for i, l := range d.Source {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join([]string{relPath, d.Rule.Code, d.Message, fmt.Sprint(d.Pos.Column), strings.Join(lines, "\n")}, "\x00")
}

// relativeTo is p relative to base with forward slashes, or p itself (with
// forward slashes) when it lies outside base.
func relativeTo(base, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

type junitReport struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Disabled int         `xml:"disabled,attr"`
	Errors   int         `xml:"errors,attr"`
	Failures int         `xml:"failures,attr"`
	Package  string      `xml:"package,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Line      int           `xml:"line,attr,omitempty"`
	Column    int           `xml:"column,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes a JUnit XML report as Ruff does: a test suite per file
// with findings, a failed test case per finding; a run without findings
// is one suite with one passing case.
func writeJUnit(w io.Writer, r *Report) error {
	rep := junitReport{Name: "torchlint", Tests: len(r.Diagnostics), Failures: len(r.Diagnostics)}
	if len(r.Diagnostics) == 0 {
		rep.Tests = 1
		rep.Suites = []junitSuite{{Name: "torchlint", Tests: 1, Package: "torchlint",
			Cases: []junitCase{{Name: "No errors found", Classname: "torchlint"}}}}
	}
	for _, group := range groupByFile(r.Diagnostics) {
		p := r.displayPath(group[0].Path)
		suite := junitSuite{Name: p, Tests: len(group), Failures: len(group), Package: "torchlint"}
		classname := strings.TrimSuffix(p, path.Ext(p))
		for _, d := range group {
			text := fmt.Sprintf("line %d, col %d, %s", d.Pos.Line, d.Pos.Column, d.Message)
			if d.Cell > 0 {
				text = fmt.Sprintf("cell %d, line %d, col %d, %s", d.Cell, d.Pos.Line, d.Pos.Column, d.Message)
			}
			if d.Fix != nil {
				text += "\n\n" + d.Fix.Message
				if d.Fix.Applicability == analyzer.Unsafe {
					text += " (unsafe)"
				}
			}
			suite.Cases = append(suite.Cases, junitCase{
				Name:      "torchlint." + d.Rule.Code,
				Classname: classname,
				Line:      fileLine(d),
				Column:    d.Pos.Column,
				Failure:   &junitFailure{Message: d.Message, Text: text},
			})
		}
		rep.Suites = append(rep.Suites, suite)
	}
	b, err := xml.MarshalIndent(rep, "", "    ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, b)
	return err
}

// ruleStats is one line of --statistics: a rule and how many of its
// findings there are, and how many of those --fix would fix.
type ruleStats struct {
	Code         string `json:"code"`
	Name         string `json:"name"`
	Count        int    `json:"count"`
	Fixable      bool   `json:"fixable"` // all of them
	FixableCount int    `json:"fixable_count"`
	// Confidence counts them per level, by its name.
	Confidence map[string]int `json:"confidence"`
}

// statisticsFormats are the output formats --statistics can be written
// in, as in Ruff.
var statisticsFormats = []string{"full", "concise", "json"}

// HasStatistics reports whether the per-rule counts of --statistics can
// be written in a format.
func HasStatistics(format string) bool {
	return slices.Contains(statisticsFormats, format)
}

// statistics counts the findings per rule, most frequent first, ties by
// code.
func statistics(r *Report) []ruleStats {
	byCode := map[string]*ruleStats{}
	var out []*ruleStats
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		s := byCode[d.Rule.Code]
		if s == nil {
			s = &ruleStats{Code: d.Rule.Code, Name: d.Rule.Name, Confidence: map[string]int{}}
			byCode[d.Rule.Code] = s
			out = append(out, s)
		}
		s.Count++
		s.Confidence[d.Confidence().String()]++
		if d.Fix.Applicable(r.Unsafe) {
			s.FixableCount++
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Count != out[b].Count {
			return out[a].Count > out[b].Count
		}
		return out[a].Code < out[b].Code
	})
	stats := make([]ruleStats, len(out))
	for i, s := range out {
		s.Fixable = s.FixableCount == s.Count
		stats[i] = *s
	}
	return stats
}

// levelCounts is "\t(2 high, 1 medium)" for a rule with findings below
// high confidence, and "" when all are high.
func levelCounts(s ruleStats) string {
	if s.Confidence[analyzer.ConfidenceHigh.String()] == s.Count {
		return ""
	}
	var parts []string
	for _, c := range analyzer.Confidences {
		if n := s.Confidence[c.String()]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, c))
		}
	}
	return "\t(" + strings.Join(parts, ", ") + ")"
}

// WriteStatistics writes --statistics: in json, an array of per-rule
// counts; otherwise Ruff's table (count, code and name separated by tabs,
// "[*]" when --fix would fix all of a rule's findings, "[-]" when some)
// followed by the summary. The table is empty when nothing was found.
func WriteStatistics(out io.Writer, r *Report, format string) error {
	stats := statistics(r)
	if format == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if stats == nil {
			stats = []ruleStats{}
		}
		return enc.Encode(stats)
	}
	if len(stats) == 0 {
		return nil
	}
	w := &errWriter{w: out}
	countWidth, codeWidth, anyFixable := 1, 0, false
	for _, s := range stats {
		countWidth = max(countWidth, len(fmt.Sprint(s.Count)))
		codeWidth = max(codeWidth, len(s.Code))
		anyFixable = anyFixable || s.FixableCount > 0
	}
	for _, s := range stats {
		mark := ""
		switch {
		case !anyFixable:
		case s.Fixable:
			mark = "[" + r.paint("*", sgrCyan) + "] "
		case s.FixableCount > 0:
			mark = "[" + r.paint("-", sgrCyan) + "] "
		default:
			mark = "[ ] "
		}
		fmt.Fprintf(w, "%s\t%s\t%s%s%s\n", r.paint(fmt.Sprintf("%*d", countWidth, s.Count), sgrBold),
			r.paint(fmt.Sprintf("%-*s", codeWidth, s.Code), sgrRedBold), mark, s.Name, levelCounts(s))
	}
	writeSummary(w, r)
	return w.err
}
