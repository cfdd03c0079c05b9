package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/testtool"
)

var (
	warnRule  = &analyzer.Rule{Code: "TL901", Name: "warn-rule", Severity: analyzer.SeverityWarning}
	errorRule = &analyzer.Rule{Code: "TL902", Name: "error-rule", Severity: analyzer.SeverityError}
)

// finding builds a diagnostic in /proj (the working directory of the
// reports below) spanning line:col to endLine:endCol.
func finding(rule *analyzer.Rule, path string, line, col, endLine, endCol int, msg string, source ...string) analyzer.Diagnostic {
	return analyzer.Diagnostic{
		Rule: rule, Path: filepath.FromSlash("/proj/" + path), Message: msg,
		Pos: analyzer.Position{Line: line, Column: col}, EndPos: analyzer.Position{Line: endLine, Column: endCol},
		Source: source,
	}
}

func render(t *testing.T, write func(w *bytes.Buffer, r *Report) error, r *Report) string {
	t.Helper()
	if r.Cwd == "" {
		r.Cwd = filepath.FromSlash("/proj")
	}
	var buf bytes.Buffer
	if err := write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func format(name string) func(w *bytes.Buffer, r *Report) error {
	return func(w *bytes.Buffer, r *Report) error { return Write(w, name, r) }
}

func TestGitHubEscaping(t *testing.T) {
	r := &Report{Diagnostics: []analyzer.Diagnostic{
		finding(errorRule, "we:ird,dir/a%b.py", 3, 5, 3, 9, "100% of it\r\nis: a, b", "    x = y"),
		finding(warnRule, "ok.py", 1, 1, 1, 4, "plain", "abc"),
	}}
	got := render(t, format("github"), r)
	want := "::error title=torchlint (TL902),file=we%3Aird%2Cdir/a%25b.py,line=3,col=5,endLine=3,endColumn=9::" +
		"we:ird,dir/a%25b.py:3:5: TL902 100%25 of it%0D%0Ais: a, b\n" +
		"::warning title=torchlint (TL901),file=ok.py,line=1,col=1,endLine=1,endColumn=4::ok.py:1:1: TL901 plain\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// GitHub rejects col and endColumn on an annotation spanning lines.
func TestGitHubMultiLineHasNoColumns(t *testing.T) {
	cases := []struct {
		name string
		d    analyzer.Diagnostic
		want string
	}{
		{"spans lines", finding(warnRule, "a.py", 3, 5, 5, 2, "m", "    f(", "      x,", "  )"),
			"::warning title=torchlint (TL901),file=a.py,line=3,endLine=5::a.py:3:5: TL901 m\n"},
		{"ends at the start of the next line", finding(warnRule, "a.py", 3, 5, 4, 1, "m", "    f(x)"),
			"::warning title=torchlint (TL901),file=a.py,line=3,col=5,endLine=3,endColumn=9::a.py:3:5: TL901 m\n"},
		{"empty span", finding(warnRule, "a.py", 2, 7, 2, 7, "m", "x"),
			"::warning title=torchlint (TL901),file=a.py,line=2,col=7,endLine=2,endColumn=8::a.py:2:7: TL901 m\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(t, format("github"), &Report{Diagnostics: []analyzer.Diagnostic{c.d}})
			if got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

type gitlabOut struct {
	Description string `json:"description"`
	CheckName   string `json:"check_name"`
	Fingerprint string `json:"fingerprint"`
	Severity    string `json:"severity"`
	Location    struct {
		Path  string `json:"path"`
		Lines struct {
			Begin int `json:"begin"`
			End   int `json:"end"`
		} `json:"lines"`
	} `json:"location"`
}

func gitlabIssues(t *testing.T, r *Report) []gitlabOut {
	t.Helper()
	var out []gitlabOut
	if err := json.Unmarshal([]byte(render(t, format("gitlab"), r)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGitLabReport(t *testing.T) {
	t.Setenv("CI_PROJECT_DIR", "")
	line := "    total += loss; total += loss"
	diags := []analyzer.Diagnostic{
		finding(warnRule, "train/a.py", 7, 5, 7, 18, "accumulates", line),
		finding(warnRule, "train/a.py", 7, 20, 7, 33, "accumulates", line), // same line, rule and message
		finding(errorRule, "train/a.py", 9, 1, 11, 1, "SyntaxError: x", "def f(", ")"),
	}
	first := gitlabIssues(t, &Report{Diagnostics: diags})
	if len(first) != 3 {
		t.Fatalf("got %d issues", len(first))
	}
	seen := map[string]bool{}
	for _, is := range first {
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(is.Fingerprint) || seen[is.Fingerprint] {
			t.Errorf("fingerprint %q is malformed or not unique", is.Fingerprint)
		}
		seen[is.Fingerprint] = true
		if is.Location.Path != "train/a.py" || is.Location.Lines.Begin < 1 || is.Location.Lines.End < is.Location.Lines.Begin {
			t.Errorf("location %+v", is.Location)
		}
		if !strings.HasPrefix(is.Description, is.CheckName+": ") {
			t.Errorf("description %q does not name %s", is.Description, is.CheckName)
		}
	}
	if first[0].Severity != "major" || first[2].Severity != "critical" {
		t.Errorf("severities %q, %q", first[0].Severity, first[2].Severity)
	}
	if first[2].Location.Lines.End != 10 {
		t.Errorf("a span ending at the start of line 11 ends on line %d, want 10", first[2].Location.Lines.End)
	}

	// The same input gives the same fingerprints, and so does the same
	// code moved down by ten lines.
	again := gitlabIssues(t, &Report{Diagnostics: diags})
	moved := append([]analyzer.Diagnostic(nil), diags...)
	for i := range moved {
		moved[i].Pos.Line += 10
		moved[i].EndPos.Line += 10
	}
	shifted := gitlabIssues(t, &Report{Diagnostics: moved})
	for i := range first {
		if again[i].Fingerprint != first[i].Fingerprint || shifted[i].Fingerprint != first[i].Fingerprint {
			t.Errorf("issue %d: fingerprint %s, again %s, moved %s", i, first[i].Fingerprint, again[i].Fingerprint, shifted[i].Fingerprint)
		}
	}

	// Two identical findings (the same line twice in a file) still differ.
	dup := []analyzer.Diagnostic{diags[0], diags[0]}
	dup[1].Pos.Line, dup[1].EndPos.Line = 40, 40
	if d := gitlabIssues(t, &Report{Diagnostics: dup}); d[0].Fingerprint == d[1].Fingerprint {
		t.Error("identical findings share a fingerprint")
	}

	// Paths are relative to CI_PROJECT_DIR when it is set.
	t.Setenv("CI_PROJECT_DIR", filepath.FromSlash("/proj/train"))
	if got := gitlabIssues(t, &Report{Diagnostics: diags[:1]}); got[0].Location.Path != "a.py" {
		t.Errorf("path %q relative to CI_PROJECT_DIR, want a.py", got[0].Location.Path)
	}
	if got := render(t, format("gitlab"), &Report{}); got != "[]\n" {
		t.Errorf("no findings: %q", got)
	}
}

type junitIn struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Line      int    `xml:"line,attr"`
			Column    int    `xml:"column,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, s string) junitIn {
	t.Helper()
	var j junitIn
	testtool.JUnit(t, s, &j)
	return j
}

func TestJUnitParsesBack(t *testing.T) {
	msg := `a <b> & "c" 'd' ]]> e` + "\x01"
	r := &Report{Diagnostics: []analyzer.Diagnostic{
		finding(warnRule, "pkg/a.py", 3, 5, 3, 9, msg, "x"),
		finding(errorRule, "pkg/a.py", 7, 1, 7, 2, "second", "y"),
		finding(warnRule, "b.py", 1, 2, 1, 3, "third", "z"),
	}}
	r.Diagnostics[0].Fix = &analyzer.Fix{Message: "Do it", Applicability: analyzer.Unsafe}
	out := render(t, format("junit"), r)
	if !strings.HasPrefix(out, xml.Header) {
		t.Errorf("no XML declaration:\n%s", out)
	}
	j := parseJUnit(t, out)
	if j.Name != "torchlint" || j.Tests != 3 || j.Failures != 3 || len(j.Suites) != 2 {
		t.Fatalf("report %+v", j)
	}
	a := j.Suites[0]
	if a.Name != "pkg/a.py" || a.Tests != 2 || a.Failures != 2 || len(a.Cases) != 2 || j.Suites[1].Name != "b.py" {
		t.Fatalf("suites %+v", j.Suites)
	}
	c := a.Cases[0]
	wantMsg := strings.ReplaceAll(msg, "\x01", "\uFFFD") // not allowed in XML 1.0
	if c.Name != "torchlint.TL901" || c.Classname != "pkg/a" || c.Line != 3 || c.Column != 5 || c.Failure == nil ||
		c.Failure.Message != wantMsg || c.Failure.Text != "line 3, col 5, "+wantMsg+"\n\nDo it (unsafe)" {
		t.Errorf("test case %+v", c)
	}

	clean := parseJUnit(t, render(t, format("junit"), &Report{}))
	if clean.Tests != 1 || clean.Failures != 0 || len(clean.Suites) != 1 || len(clean.Suites[0].Cases) != 1 ||
		clean.Suites[0].Cases[0].Name != "No errors found" || clean.Suites[0].Cases[0].Failure != nil {
		t.Errorf("clean run: %+v", clean)
	}
}

func TestPylintAndGrouped(t *testing.T) {
	r := &Report{Diagnostics: []analyzer.Diagnostic{
		finding(warnRule, "a.py", 9, 5, 9, 6, "one\nline", "x"),
		finding(errorRule, "a.py", 10, 12, 10, 13, "two", "y"),
		finding(warnRule, "sub/b.py", 2, 1, 2, 2, "three", "z"),
	}}
	r.Diagnostics[1].Fix = &analyzer.Fix{Message: "fix", Applicability: analyzer.Safe}
	if got, want := render(t, format("pylint"), r), "a.py:9: [TL901] one line\na.py:10: [TL902] two\nsub/b.py:2: [TL901] three\n"; got != want {
		t.Errorf("pylint:\n%s\nwant:\n%s", got, want)
	}
	want := "a.py:\n" +
		"   9:5  TL901 one\nline\n" +
		"  10:12 TL902 [*] two\n" +
		"\n" +
		"sub/b.py:\n" +
		"  2:1 TL901 three\n" +
		"\n" +
		"Found 3 errors.\n" +
		"[*] 1 fixable with the `--fix` option.\n"
	if got := render(t, format("grouped"), r); got != want {
		t.Errorf("grouped:\n%s\nwant:\n%s", got, want)
	}
	if got := render(t, format("grouped"), &Report{}); got != "All checks passed!\n" {
		t.Errorf("grouped, clean: %q", got)
	}
}

func TestJSONLinesMatchesJSON(t *testing.T) {
	r := &Report{Diagnostics: []analyzer.Diagnostic{
		finding(warnRule, "a.py", 1, 1, 1, 2, "<one>", "x"),
		finding(errorRule, "b.py", 2, 1, 2, 2, "two", "y"),
	}}
	var all []json.RawMessage
	if err := json.Unmarshal([]byte(render(t, format("json"), r)), &all); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(render(t, format("json-lines"), r), "\n"), "\n")
	if len(lines) != len(all) {
		t.Fatalf("%d lines for %d findings", len(lines), len(all))
	}
	for i, l := range lines {
		var a, b any
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		_ = json.Unmarshal(all[i], &b)
		if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
			t.Errorf("line %d: %s, json has %s", i+1, ja, jb)
		}
	}
	if !strings.Contains(lines[0], `"<one>"`) {
		t.Errorf("HTML-escaped: %s", lines[0])
	}
	if got := render(t, format("json-lines"), &Report{}); got != "" {
		t.Errorf("no findings: %q", got)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSummarySuppressed(t *testing.T) {
	three := []analyzer.Diagnostic{
		finding(warnRule, "a.py", 1, 1, 1, 2, "m", "x"),
		finding(warnRule, "a.py", 2, 1, 2, 2, "m", "x"),
		finding(warnRule, "a.py", 3, 1, 3, 2, "m", "x"),
	}
	cases := []struct {
		name string
		r    Report
		want string
	}{
		{"findings and suppressed", Report{Diagnostics: three, Suppressed: 2}, "Found 5 errors (2 suppressed, 3 remaining).\n"},
		{"only suppressed", Report{Suppressed: 2}, "All checks passed! (2 suppressed)\n"},
		{"one suppressed", Report{Diagnostics: three[:1], Suppressed: 1}, "Found 2 errors (1 suppressed, 1 remaining).\n"},
		{"fixed and suppressed", Report{FixMode: true, Fixed: 1, Suppressed: 2}, "Found 3 errors (1 fixed, 2 suppressed, 0 remaining).\n"},
		{"fixed, suppressed, remaining", Report{Diagnostics: three, FixMode: true, Fixed: 4, Suppressed: 1}, "Found 8 errors (4 fixed, 1 suppressed, 3 remaining).\n"},
		{"none suppressed", Report{Diagnostics: three}, "Found 3 errors.\n"},
		{"quiet", Report{Diagnostics: three, Suppressed: 2, Quiet: true}, ""},
		{"errors only", Report{Errors: 2, Suppressed: 1}, "No findings, but 2 errors kept part of the check from running (see below).\n"},
		{"findings and errors", Report{Diagnostics: three, Errors: 1}, "Found 3 errors.\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range []string{"concise", "grouped", "full"} {
				out := render(t, format(f), &c.r)
				if !strings.HasSuffix(out, c.want) || (c.want == "" && (strings.Contains(out, "Found") || strings.Contains(out, "All checks"))) {
					t.Errorf("%s: output %q does not end with %q", f, out, c.want)
				}
			}
		})
	}
}

func TestStatistics(t *testing.T) {
	safe := &analyzer.Fix{Message: "f", Applicability: analyzer.Safe}
	unsafe := &analyzer.Fix{Message: "f", Applicability: analyzer.Unsafe}
	other := &analyzer.Rule{Code: "TL403", Name: "torch-load-without-map-location"}
	r := &Report{}
	for i := range 12 {
		d := finding(warnRule, "a.py", i+1, 1, i+1, 2, "m", "x")
		if i < 3 {
			d.Fix = safe
		}
		r.Diagnostics = append(r.Diagnostics, d)
	}
	for i := range 3 {
		d := finding(other, "b.py", i+1, 1, i+1, 2, "m", "x")
		d.Fix = safe
		r.Diagnostics = append(r.Diagnostics, d)
	}
	d := finding(errorRule, "c.py", 1, 1, 1, 2, "m", "x")
	d.Fix = unsafe
	r.Diagnostics = append(r.Diagnostics, d)

	var buf bytes.Buffer
	if err := WriteStatistics(&buf, r, "concise"); err != nil {
		t.Fatal(err)
	}
	want := "12\tTL901\t[-] warn-rule\n" +
		" 3\tTL403\t[*] torch-load-without-map-location\n" +
		" 1\tTL902\t[ ] error-rule\n" +
		"Found 16 errors.\n" +
		"[*] 6 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}

	buf.Reset()
	if err := WriteStatistics(&buf, r, "json"); err != nil {
		t.Fatal(err)
	}
	var stats []ruleStats
	if err := json.Unmarshal(buf.Bytes(), &stats); err != nil {
		t.Fatal(err)
	}
	wantStats := []ruleStats{
		{Code: "TL901", Name: "warn-rule", Count: 12, Fixable: false, FixableCount: 3, Confidence: map[string]int{"high": 12}},
		{Code: "TL403", Name: "torch-load-without-map-location", Count: 3, Fixable: true, FixableCount: 3, Confidence: map[string]int{"high": 3}},
		{Code: "TL902", Name: "error-rule", Count: 1, Fixable: false, FixableCount: 0, Confidence: map[string]int{"high": 1}},
	}
	if mustJSON(t, stats) != mustJSON(t, wantStats) {
		t.Errorf("json statistics %s", buf.String())
	}

	// With --unsafe-fixes the unsafe fix counts; without any fix there is
	// no fix column.
	r.Unsafe = true
	if s := statistics(r); s[2].Code != "TL902" || !s[2].Fixable {
		t.Errorf("unsafe fix not counted: %+v", s[2])
	}
	buf.Reset()
	plain := &Report{Diagnostics: []analyzer.Diagnostic{finding(warnRule, "a.py", 1, 1, 1, 2, "m", "x")}}
	if err := WriteStatistics(&buf, plain, "full"); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "1\tTL901\twarn-rule\nFound 1 error.\n" {
		t.Errorf("no fixes: %q", got)
	}
	buf.Reset()
	if err := WriteStatistics(&buf, &Report{}, "concise"); err != nil || buf.Len() != 0 {
		t.Errorf("no findings: %q, %v", buf.String(), err)
	}
	if err := WriteStatistics(&buf, &Report{}, "json"); err != nil || buf.String() != "[]\n" {
		t.Errorf("no findings, json: %q, %v", buf.String(), err)
	}
}

func TestColorCodes(t *testing.T) {
	d := finding(warnRule, "a.py", 2, 3, 2, 5, "msg", "  xy")
	d.Fix = &analyzer.Fix{Message: "f", Applicability: analyzer.Safe}
	r := &Report{Diagnostics: []analyzer.Diagnostic{d}, Color: true}
	got := render(t, format("concise"), r)
	want := "\x1b[1ma.py\x1b[0m\x1b[36m:\x1b[0m2\x1b[36m:\x1b[0m3\x1b[36m:\x1b[0m \x1b[1;31mTL901\x1b[0m [\x1b[36m*\x1b[0m] msg\n" +
		"Found 1 error.\n[\x1b[36m*\x1b[0m] 1 fixable with the `--fix` option.\n"
	if got != want {
		t.Errorf("concise:\n%q\nwant\n%q", got, want)
	}
	full := render(t, format("full"), r)
	for _, s := range []string{"\x1b[1;34m2 |\x1b[0m   xy\n", "\x1b[1;34m  |\x1b[0m   \x1b[1;31m^^ TL901\x1b[0m\n", "\x1b[1;34m  =\x1b[0m \x1b[1mhelp\x1b[0m: f\n"} {
		if !strings.Contains(full, s) {
			t.Errorf("full output lacks %q:\n%q", s, full)
		}
	}
	if g := render(t, format("grouped"), r); !strings.HasPrefix(g, "\x1b[4ma.py\x1b[0m:\n  2\x1b[36m:\x1b[0m3 \x1b[1;31mTL901\x1b[0m") {
		t.Errorf("grouped: %q", g)
	}
	// Machine formats ignore the colour setting.
	for _, f := range []string{"json", "json-lines", "sarif", "github", "gitlab", "junit", "pylint"} {
		if out := render(t, format(f), r); strings.Contains(out, "\x1b") {
			t.Errorf("%s output has escape codes", f)
		}
	}
	r.Color = false
	if out := render(t, format("full"), r); strings.Contains(out, "\x1b") {
		t.Errorf("colour off, yet: %q", out)
	}
}

func TestUseColor(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	var buf bytes.Buffer
	cases := []struct {
		name   string
		mode   string
		toFile bool
		env    func(string) string
		want   bool
	}{
		{"auto, not a terminal", "auto", false, env(), false},
		{"auto, FORCE_COLOR", "auto", false, env("FORCE_COLOR", "1"), true},
		{"auto, empty FORCE_COLOR", "auto", false, env("FORCE_COLOR", ""), false},
		{"auto, NO_COLOR beats FORCE_COLOR", "auto", false, env("NO_COLOR", "1", "FORCE_COLOR", "1"), false},
		{"always", "always", false, env(), true},
		{"always beats NO_COLOR", "always", false, env("NO_COLOR", "1"), true},
		{"always, to a file", "always", true, env(), false},
		{"never, FORCE_COLOR", "never", false, env("FORCE_COLOR", "1"), false},
	}
	for _, c := range cases {
		if got := UseColor(c.mode, &buf, c.toFile, c.env); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if isTerminal(f) || isTerminal(pw) || isTerminal(&buf) {
		t.Error("a regular file, a pipe or a buffer taken for a terminal")
	}
	for _, c := range []*os.File{f, pr, pw} {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	}
}
