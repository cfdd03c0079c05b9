package rules

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/testtool"
)

const fixtureDir = "../testdata/python"

// allRules enables every rule with a check, preview rules included.
func allRules() []*analyzer.Rule {
	var out []*analyzer.Rule
	for _, r := range All {
		if Selectable(r) {
			out = append(out, r)
		}
	}
	return out
}

// fixtureRules are the rules a fixture is linted with: every rule but
// the preview ones, which users select by name, and those only on their
// own fixtures (named after their code) and on fixtures that name them
// in a `# fixture-preview: CODE, CODE` line.
func fixtureRules(path string) []*analyzer.Rule {
	named := map[string]bool{}
	if src, err := os.ReadFile(path); err == nil {
		for _, m := range fixturePreview.FindAllSubmatch(src, -1) {
			for _, c := range strings.Split(string(m[1]), ",") {
				named[strings.TrimSpace(c)] = true
			}
		}
	}
	var out []*analyzer.Rule
	for _, r := range allRules() {
		if !r.Preview || strings.HasPrefix(filepath.Base(path), r.Code) || named[r.Code] {
			out = append(out, r)
		}
	}
	return out
}

// fixturePreview is a fixture's line naming the preview rules it runs.
var fixturePreview = regexp.MustCompile(`(?m)^# fixture-preview: ([A-Z0-9, ]+)$`)

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
	for _, path := range fixtures(t) {
		runner := analyzer.NewRunner(fixtureRules(path), SyntaxError, IOError)
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			wants, _ := testtool.ParseWants(t, path, src)
			diags := analyzer.Unsuppressed(runner.LintSource(path, src))
			used := make([]bool, len(diags))
			for _, w := range wants {
				found := false
				for i, d := range diags {
					if used[i] || d.Pos.Line != w.Line || d.Rule.Code != w.Code {
						continue
					}
					if w.RE != nil && !w.RE.MatchString(d.Message) {
						t.Errorf("%s:%d: %s message %q does not match %q", path, w.Line, w.Code, d.Message, w.RE)
					}
					if w.Level != "" && d.Confidence().String() != w.Level {
						t.Errorf("%s:%d: %s confidence %s, want %s (assumed %q, once %q)", path, w.Line, w.Code, d.Confidence(), w.Level, d.Assumed, d.Once)
					}
					used[i], found = true, true
					break
				}
				if !found {
					t.Errorf("%s:%d: want %s, not reported", path, w.Line, w.Code)
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
			wants, oks := testtool.ParseWants(t, p, src)
			for _, w := range wants {
				if w.Code == r.Code {
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
		{Selection{}, "TL101,TL102,TL103,TL201,TL202,TL301,TL302,TL401,TL402,TL502,TL503,TL504,TL900"},
		{Selection{Select: []string{"TL1"}}, "TL101,TL102,TL103"},
		{Selection{Select: []string{"TL1", "TL3"}}, "TL101,TL102,TL103,TL301,TL302"},
		{Selection{Ignore: []string{"TL2", "TL4"}}, "TL101,TL102,TL103,TL301,TL302,TL502,TL503,TL504,TL900"},
		{Selection{Select: []string{"TL201"}, ExtendSelect: []string{"empty-cache-in-loop"}}, "TL201,TL301"},
		{Selection{Select: []string{"ALL"}, Ignore: []string{"TL1", "TL2"}}, "TL301,TL302,TL401,TL402,TL502,TL503,TL504,TL900"},
		{Selection{Select: []string{"TL3"}, ExtendSelect: []string{"TL303"}}, "TL301,TL302,TL303"},
		{Selection{Select: []string{"prefer-inference-mode"}}, "TL203"},
		{Selection{Select: []string{"TL4"}, Ignore: []string{"TL402"}}, "TL401"},
		{Selection{Select: []string{"TL4"}, ExtendSelect: []string{"TL403"}}, "TL401,TL402,TL403"},
		{Selection{ExtendSelect: []string{"TL403"}, Ignore: []string{"TL4"}}, "TL101,TL102,TL103,TL201,TL202,TL301,TL302,TL502,TL503,TL504,TL900"},
		{Selection{ExtendSelect: []string{"TL303"}, Ignore: []string{"ALL"}}, ""},
		{Selection{Select: []string{"tl101"}}, "TL101"},
		{Selection{Select: []string{"TL9"}}, "TL900"},
	}
	for _, c := range cases {
		if got := codes(c.sel); got != c.want {
			t.Errorf("%+v: got %s, want %s", c.sel, got, c.want)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the .py.fixed golden files")

// TestFixGolden applies every fix, unsafe ones included, to each fixture
// and compares the result with <fixture>.py.fixed. The fixed source must
// parse, be a fixed point (fixing it again changes nothing), and lose
// exactly the findings whose fixes were applied.
func TestFixGolden(t *testing.T) {
	fixedRules := map[*analyzer.Rule]bool{}
	for _, path := range fixtures(t) {
		runner := analyzer.NewRunner(fixtureRules(path), SyntaxError, IOError)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		golden := path + ".fixed"
		before := runner.LintSource(path, src)
		for _, d := range before {
			if d.Fix != nil && !d.Rule.Fixable {
				t.Errorf("%s:%d: %s offers a fix but is not marked Fixable", path, d.Pos.Line, d.Rule.Code)
			}
		}
		res := runner.FixSource(path, src, true)
		for _, p := range res.Problems {
			t.Errorf("%s: %s", path, p)
		}
		if len(res.Applied) == 0 {
			if _, err := os.Stat(golden); err == nil {
				t.Errorf("%s: no fix applies, but %s exists", path, golden)
			}
			continue
		}
		if *update {
			if err := os.WriteFile(golden, res.Source, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (run go test ./rules -run TestFixGolden -update)", path, err)
			continue
		}
		if string(res.Source) != string(want) {
			t.Errorf("%s: fixed source differs from %s (run with -update and review the diff)", path, golden)
		}
		again := runner.FixSource(path, res.Source, true)
		if len(again.Applied) != 0 || string(again.Source) != string(res.Source) {
			t.Errorf("%s: fixing the fixed source applies %d more fixes", path, len(again.Applied))
		}
		if f, err := analyzer.Parse(golden, res.Source); err != nil || len(f.SyntaxErrors()) > 0 {
			t.Errorf("%s: fixed source does not parse", path)
		}
		for _, d := range res.Remaining {
			if d.Fix.Applicable(true) && !d.Suppressed {
				t.Errorf("%s:%d: %s still offers a fix after fixing", golden, d.Pos.Line, d.Rule.Code)
			}
		}
		count := func(ds []analyzer.Diagnostic) map[*analyzer.Rule]int {
			c := map[*analyzer.Rule]int{}
			for _, d := range ds {
				c[d.Rule]++
			}
			return c
		}
		was, now := count(before), count(res.Remaining)
		applied := map[*analyzer.Rule]int{}
		for _, r := range res.Applied {
			applied[r]++
			fixedRules[r] = true
		}
		for _, r := range All {
			// A preview rule may advise on what a fix wrote (TL203 on
			// the no_grad decorator of TL201's fix). TL201's fix disables
			// grad, and with it the graphs that the TL1 rules report in
			// the decorated function: those findings may go. TL101's fix
			// detaches the terms of a running total, and with them the
			// graph a stored total keeps (TL102); the pass whose loss the
			// total summed then has outputs that reach no backward, which
			// TL201 reports once the total no longer takes them.
			resolved := strings.HasPrefix(r.Code, "TL1") && applied[EvalWithoutNoGrad] > 0 && now[r] < was[r]-applied[r] ||
				r == TensorWithGraphStored && applied[LossAccumulatedWithGraph] > 0 && now[r] < was[r]-applied[r] ||
				r == EvalWithoutNoGrad && applied[LossAccumulatedWithGraph] > 0 && now[r] > was[r]-applied[r]
			if !r.Preview && now[r] != was[r]-applied[r] && !resolved {
				t.Errorf("%s: %s had %d findings and %d fixes applied, but %d remain", path, r.Code, was[r], applied[r], now[r])
			}
		}
	}
	for _, r := range All {
		if r.Fixable && !fixedRules[r] {
			t.Errorf("%s is Fixable but no fixture has a fix of it applied", r.Code)
		}
	}
}

// TestFixKeepsEncoding fixes a file with a BOM, CRLF line endings, tab
// indentation and non-ASCII identifiers: the edits must keep all four.
func TestFixKeepsEncoding(t *testing.T) {
	src := "\ufeffimport torch\r\n\r\n\r\ndef evaluate_données(model, données, chemin_é):\r\n" +
		"\tmodel.load_state_dict(torch.load(chemin_é))\r\n\tmodel.eval()\r\n\tfor x in données:\r\n\t\tprint(model(x))\r\n"
	want := "\ufeffimport torch\r\n\r\n\r\n@torch.no_grad()\r\ndef evaluate_données(model, données, chemin_é):\r\n" +
		"\tmodel.load_state_dict(torch.load(chemin_é, map_location=\"cpu\"))\r\n\tmodel.eval()\r\n\tfor x in données:\r\n\t\tprint(model(x))\r\n"
	runner := analyzer.NewRunner(allRules(), SyntaxError, IOError)
	res := runner.FixSource("enc.py", []byte(src), true)
	if got := string(res.Source); got != want {
		t.Errorf("fixed source:\n%q\nwant:\n%q", got, want)
	}
	if len(res.Applied) != 2 || len(res.Remaining) != 0 {
		t.Errorf("applied %d fixes, %d findings remain; want 2 and 0", len(res.Applied), len(res.Remaining))
	}
	// Nested in a class, indented with tabs: the decorator takes the def's indentation.
	src = "import torch\n\nclass Evaluator:\n\tdef validate(self, model, x):\n\t\treturn model(x).tolist()\n"
	want = "import torch\n\nclass Evaluator:\n\t@torch.no_grad()\n\tdef validate(self, model, x):\n\t\treturn model(x).tolist()\n"
	if got := string(runner.FixSource("tabs.py", []byte(src), true).Source); got != want {
		t.Errorf("fixed source:\n%q\nwant:\n%q", got, want)
	}
}

// TestUnsafeFixesNeedOptIn checks that only safe fixes apply without
// unsafe ones enabled, and that a file with a syntax error is not fixed.
func TestUnsafeFixesNeedOptIn(t *testing.T) {
	runner := analyzer.NewRunner(allRules(), SyntaxError, IOError)
	src := "import torch\nscaler = torch.cuda.amp.GradScaler()\nstate = torch.load('x.pt')\n"
	res := runner.FixSource("s.py", []byte(src), false)
	want := "import torch\nscaler = torch.amp.GradScaler(\"cuda\")\nstate = torch.load('x.pt')\n"
	if string(res.Source) != want || len(res.Applied) != 1 || len(res.Remaining) != 1 {
		t.Errorf("safe-only fix: got %q (%d applied, %d remaining)", res.Source, len(res.Applied), len(res.Remaining))
	}
	broken := src + "def (:\n"
	if res := runner.FixSource("b.py", []byte(broken), true); string(res.Source) != broken || len(res.Applied) != 0 {
		t.Errorf("a file with a syntax error was changed: %q", res.Source)
	}
}
