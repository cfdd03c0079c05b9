package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
)

const fixtureDir = "../testdata/python"

// wantRE matches one expectation in a `# want:` comment: a code and an
// optional quoted message regexp.
var (
	wantComment = regexp.MustCompile(`#\s*want:\s*(.*)$`)
	wantItem    = regexp.MustCompile(`(TL\d{3})(?:\s+"((?:[^"\\]|\\.)*)")?`)
	okComment   = regexp.MustCompile(`#\s*ok:\s*\S`)
)

type expectation struct {
	line int
	code string
	re   *regexp.Regexp
}

// parseExpectations reads the `# want:` annotations of a fixture and
// counts its `# ok:` hard negatives.
func parseExpectations(t *testing.T, path string, src []byte) (wants []expectation, oks int) {
	t.Helper()
	for i, line := range strings.Split(string(src), "\n") {
		if okComment.MatchString(line) {
			oks++
		}
		m := wantComment.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		items := wantItem.FindAllStringSubmatch(m[1], -1)
		if len(items) == 0 {
			t.Fatalf("%s:%d: malformed want comment %q", path, i+1, m[0])
		}
		for _, it := range items {
			e := expectation{line: i + 1, code: it[1]}
			if it[2] != "" {
				re, err := regexp.Compile(strings.ReplaceAll(it[2], `\"`, `"`))
				if err != nil {
					t.Fatalf("%s:%d: bad regexp: %v", path, i+1, err)
				}
				e.re = re
			}
			wants = append(wants, e)
		}
	}
	return wants, oks
}

// allRules enables every rule with a check, preview rules included.
func allRules() []*analyzer.Rule {
	var out []*analyzer.Rule
	for _, r := range All {
		if r.Check != nil {
			out = append(out, r)
		}
	}
	return out
}

func fixtures(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtureDir, "*.py"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	sort.Strings(paths)
	return paths
}

// TestFixtures lints every fixture with every rule: each `# want: CODE`
// must be reported on its line (matching the message regexp when given),
// and every finding must be wanted.
func TestFixtures(t *testing.T) {
	runner := analyzer.NewRunner(allRules(), SyntaxError, IOError)
	for _, path := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			wants, _ := parseExpectations(t, path, src)
			diags := runner.LintSource(path, src)
			used := make([]bool, len(diags))
			for _, w := range wants {
				found := false
				for i, d := range diags {
					if used[i] || d.Pos.Line != w.line || d.Rule.Code != w.code {
						continue
					}
					if w.re != nil && !w.re.MatchString(d.Message) {
						t.Errorf("%s:%d: %s message %q does not match %q", path, w.line, w.code, d.Message, w.re)
					}
					used[i], found = true, true
					break
				}
				if !found {
					t.Errorf("%s:%d: want %s, not reported", path, w.line, w.code)
				}
			}
			for i, d := range diags {
				if !used[i] {
					t.Errorf("%s:%d:%d: unexpected %s: %s", path, d.Pos.Line, d.Pos.Column, d.Rule.Code, d.Message)
				}
			}
		})
	}
}

// TestEveryRuleHasFixtures requires each rule to have a fixture named
// after its code, with positives and at least as many hard negatives.
func TestEveryRuleHasFixtures(t *testing.T) {
	for _, r := range All {
		paths, _ := filepath.Glob(filepath.Join(fixtureDir, r.Code+"*.py"))
		if len(paths) == 0 {
			t.Errorf("%s has no fixture %s/%s*.py", r.Code, fixtureDir, r.Code)
			continue
		}
		positives, negatives := 0, 0
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			wants, oks := parseExpectations(t, p, src)
			for _, w := range wants {
				if w.code == r.Code {
					positives++
				}
			}
			negatives += oks
		}
		if positives == 0 {
			t.Errorf("%s: its fixtures want no %s finding", r.Code, r.Code)
		}
		if r.Check != nil && negatives < positives {
			t.Errorf("%s: %d positives but only %d hard negatives (# ok: ...)", r.Code, positives, negatives)
		}
	}
}

var (
	codeRE = regexp.MustCompile(`^TL\d{3}$`)
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// TestRegistry checks that All is sorted and every rule is complete.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for i, r := range All {
		if i > 0 && All[i-1].Code >= r.Code {
			t.Errorf("All is not sorted by code at %s", r.Code)
		}
		if !codeRE.MatchString(r.Code) || !nameRE.MatchString(r.Name) {
			t.Errorf("%s %q: bad code or name", r.Code, r.Name)
		}
		if seen[r.Name] {
			t.Errorf("duplicate rule name %s", r.Name)
		}
		seen[r.Name] = true
		if r.Summary == "" || strings.HasSuffix(r.Summary, ".") {
			t.Errorf("%s: summary must be one phrase without a final period", r.Code)
		}
		for _, h := range []string{"## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Known problems", "## References"} {
			if !strings.Contains(r.Doc, h+"\n") {
				t.Errorf("%s: doc lacks %q", r.Code, h)
			}
		}
		if r.Check != nil && len(r.Kinds) == 0 {
			t.Errorf("%s: has a check but asks for no node kinds", r.Code)
		}
		if ByCode(r.Code) != r || ByCode(r.Name) != r {
			t.Errorf("%s: ByCode does not find it", r.Code)
		}
	}
}

func TestSelection(t *testing.T) {
	codes := func(s Selection) string {
		rs, err := s.Resolve()
		if err != nil {
			return "error: " + err.Error()
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.Code)
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		sel  Selection
		want string
	}{
		{Selection{}, "TL101,TL201,TL301,TL401,TL402,TL403"},
		{Selection{Select: []string{"TL1"}}, "TL101"},
		{Selection{Select: []string{"TL1", "TL3"}}, "TL101,TL301"},
		{Selection{Ignore: []string{"TL2", "TL4"}}, "TL101,TL301"},
		{Selection{Select: []string{"TL201"}, ExtendSelect: []string{"empty-cache-in-loop"}}, "TL201,TL301"},
		{Selection{Select: []string{"ALL"}, Ignore: []string{"TL101"}}, "TL201,TL301,TL401,TL402,TL403"},
		{Selection{Select: []string{"TL4"}, Ignore: []string{"TL402"}}, "TL401,TL403"},
		{Selection{Select: []string{"tl101"}}, "TL101"},
		{Selection{Select: []string{"TL9"}}, "error: unknown rule selector \"TL9\" (expected a code such as TL101, a prefix such as TL1, a rule name, or ALL)"},
	}
	for _, c := range cases {
		if got := codes(c.sel); got != c.want {
			t.Errorf("%+v: got %s, want %s", c.sel, got, c.want)
		}
	}
}
