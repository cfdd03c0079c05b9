package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
)

// The evidence programs in evidence/ measure, on a GPU, what each memory
// rule's pattern costs; docs/evidence/results.json holds the figures and
// each measured rule's doc quotes them in a "Measured:" paragraph. These
// tests need no GPU: they check that torchlint judges the programs as
// their variants say, and that the docs quote the results file.
const (
	evidenceDir = "../evidence"
	resultsPath = "../docs/evidence/results.json"
	blobURL     = "https://github.com/torchlint/torchlint/blob/main/"
)

// evidenceMarker is `# evidence: TL101` (or several codes): the line a
// rule must report.
var (
	evidenceMarker = regexp.MustCompile(`#\s*evidence:\s*(.*)$`)
	evidenceCode   = regexp.MustCompile(`TL\d{3}`)
	topLevelDef    = regexp.MustCompile(`^def (\w+)\(`)
)

// evidenceResults is the part of results.json the tests read.
type evidenceResults struct {
	Environment evidenceEnv `json:"environment"`
	Rules       map[string]struct {
		Program    string       `json:"program"`
		Plot       string       `json:"plot"`
		MeasuredOn *evidenceEnv `json:"measured_on"`
	} `json:"rules"`
}

// evidenceEnv is what a run was measured on: the GPU as PyTorch names it
// ("NVIDIA H100 80GB HBM3") and PyTorch's version ("2.11.0+cu130").
type evidenceEnv struct {
	GPU   string `json:"gpu"`
	Torch string `json:"torch"`
}

// measuredOn returns the GPU and the PyTorch version (without its local
// part, "+cu130") a rule's results were measured with: its own record,
// else the first run's environment.
func (res evidenceResults) measuredOn(code string) (gpu, torch string) {
	env := res.Environment
	if on := res.Rules[code].MeasuredOn; on != nil && on.GPU != "" {
		env = *on
	}
	torch, _, _ = strings.Cut(env.Torch, "+")
	return env.GPU, torch
}

func readEvidenceResults(t *testing.T) (evidenceResults, []byte) {
	t.Helper()
	raw, err := os.ReadFile(resultsPath)
	if err != nil {
		t.Fatalf("read %s: %v (run python3 evidence/run.py on a GPU)", resultsPath, err)
	}
	var res evidenceResults
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("parse %s: %v", resultsPath, err)
	}
	if len(res.Rules) == 0 {
		t.Fatalf("%s has no rules", resultsPath)
	}
	return res, raw
}

// pyFunc is a top-level function of an evidence program: its name and
// its lines, 1-based and inclusive.
type pyFunc struct {
	name       string
	start, end int
}

// topLevelFuncs finds the top-level `def`s of a Python file by
// indentation: a function ends before the next line that starts in
// column 0 (blank lines and comments aside).
func topLevelFuncs(lines []string) []pyFunc {
	var out []pyFunc
	for i, line := range lines {
		m := topLevelDef.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := pyFunc{name: m[1], start: i + 1, end: i + 1}
		for j := i + 1; j < len(lines); j++ {
			l := lines[j]
			if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			if l[0] != ' ' && l[0] != '\t' {
				break
			}
			f.end = j + 1
		}
		out = append(out, f)
	}
	return out
}

// variantKind is "bad", "fixed" or "ref" for a variant function, "" for
// any other.
func variantKind(name string) string {
	for _, k := range []string{"bad", "fixed", "ref"} {
		if strings.HasPrefix(name, k+"_") {
			return k
		}
	}
	return ""
}

// TestEvidencePrograms lints evidence/ with the default rules. Every
// finding must sit on a line marked `# evidence: CODE` and every marked
// code must be reported there. A program's bad_* variants must each run
// a marked line of a rule it measures (directly or through a top-level
// function they name, such as a hook they register); its fixed_* and
// ref_* variants must run none.
func TestEvidencePrograms(t *testing.T) {
	res, _ := readEvidenceResults(t)
	measures := map[string]map[string]bool{} // program file → rules it measures
	for code, r := range res.Rules {
		if ByCode(code) == nil {
			t.Errorf("%s: results for unknown rule %s", resultsPath, code)
		}
		base := filepath.Base(r.Program)
		if measures[base] == nil {
			measures[base] = map[string]bool{}
		}
		measures[base][code] = true
	}
	enabled, err := Selection{}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(evidenceDir, "*.py"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no programs in %s: %v", evidenceDir, err)
	}
	sort.Strings(paths)
	seen := map[string]bool{}
	for _, path := range paths {
		base := filepath.Base(path)
		seen[base] = true
		t.Run(base, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(src), "\n")
			marked := map[int]map[string]bool{}
			for i, line := range lines {
				if m := evidenceMarker.FindStringSubmatch(line); m != nil {
					codes := evidenceCode.FindAllString(m[1], -1)
					if len(codes) == 0 {
						t.Fatalf("%s:%d: malformed evidence marker %q", path, i+1, m[0])
					}
					marked[i+1] = map[string]bool{}
					for _, c := range codes {
						marked[i+1][c] = true
					}
				}
			}
			// The default rules, and the preview rules this program measures.
			own := slices.Clone(enabled)
			for code := range measures[base] {
				if r := ByCode(code); r != nil && r.Preview {
					own = append(own, r)
				}
			}
			runner := analyzer.NewRunner(own, SyntaxError, IOError)
			reported := map[int]map[string]bool{}
			for _, d := range analyzer.Unsuppressed(runner.LintSource(path, src)) {
				if !marked[d.Pos.Line][d.Rule.Code] {
					t.Errorf("%s:%d: %s reported on a line not marked `# evidence: %s`: %s", path, d.Pos.Line, d.Rule.Code, d.Rule.Code, d.Message)
				}
				if reported[d.Pos.Line] == nil {
					reported[d.Pos.Line] = map[string]bool{}
				}
				reported[d.Pos.Line][d.Rule.Code] = true
			}
			for line, codes := range marked {
				for c := range codes {
					if !reported[line][c] {
						t.Errorf("%s:%d: marked `# evidence: %s` but %s does not report it", path, line, c, c)
					}
				}
			}
			checkVariants(t, path, lines, marked, measures[base])
		})
	}
	for prog := range measures {
		if !seen[prog] {
			t.Errorf("%s names evidence/%s, which does not exist", resultsPath, prog)
		}
	}
}

// checkVariants checks that the bad variants of a program run a line
// marked with a rule it measures and the others do not.
func checkVariants(t *testing.T, path string, lines []string, marked map[int]map[string]bool, measured map[string]bool) {
	t.Helper()
	funcs := topLevelFuncs(lines)
	// hits: the measured codes marked within each top-level function.
	hits := map[string]map[string]bool{}
	for _, f := range funcs {
		hits[f.name] = map[string]bool{}
		for l := f.start; l <= f.end; l++ {
			for c := range marked[l] {
				if measured[c] {
					hits[f.name][c] = true
				}
			}
		}
	}
	// runs: the measured codes a function marks itself or through a
	// top-level function whose name it mentions.
	runs := func(f pyFunc) map[string]bool {
		out := map[string]bool{}
		for c := range hits[f.name] {
			out[c] = true
		}
		body := strings.Join(lines[f.start:f.end], "\n")
		for _, g := range funcs {
			if g.name != f.name && regexp.MustCompile(`\b`+g.name+`\b`).MatchString(body) {
				for c := range hits[g.name] {
					out[c] = true
				}
			}
		}
		return out
	}
	kinds := map[string]int{}
	for _, f := range funcs {
		kind := variantKind(f.name)
		kinds[kind]++
		switch got := runs(f); kind {
		case "bad":
			if len(got) == 0 {
				t.Errorf("%s:%d: %s runs no line marked with a rule this program measures (%v)", path, f.start, f.name, keys(measured))
			}
		case "fixed", "ref":
			if len(got) > 0 {
				t.Errorf("%s:%d: %s runs a line marked %v", path, f.start, f.name, keys(got))
			}
		}
	}
	if len(measured) == 0 {
		for l, codes := range marked {
			t.Errorf("%s:%d: marked %v, but the program measures no rule", path, l, keys(codes))
		}
		if kinds["bad"]+kinds["fixed"]+kinds["ref"] > 0 {
			t.Errorf("%s: has variants, but %s names no rule measured by it", path, resultsPath)
		}
		return
	}
	if kinds["bad"] == 0 || kinds["fixed"] == 0 {
		t.Errorf("%s: %d bad_ and %d fixed_ variants; a measured program needs both", path, kinds["bad"], kinds["fixed"])
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var (
	mdLink     = regexp.MustCompile(`\]\(([^)]*)\)`)
	mdCode     = regexp.MustCompile("`[^`]*`")
	quotedFig  = regexp.MustCompile(`(^|[^\w.\-])(\d+(?:\.\d+)*)`)
	figureTail = regexp.MustCompile(`^\w`)
)

// figures returns the numbers quoted in a text, outside links and code:
// "10.19", "2.11.0". Digits inside a word (H100, TL101, 80GB) or after a
// hyphen (ResNet-50) are names, not figures.
func figures(text string) []string {
	text = mdLink.ReplaceAllString(text, "]")
	text = mdCode.ReplaceAllString(text, "")
	var out []string
	for _, m := range quotedFig.FindAllStringSubmatchIndex(text, -1) {
		num := text[m[4]:m[5]]
		if figureTail.MatchString(text[m[5]:]) {
			continue
		}
		out = append(out, strings.TrimSuffix(num, "."))
	}
	return out
}

// resultFigures collects every way results.json can be quoted: each
// number at 0 to 4 decimals and as written, and the figures inside its
// strings (versions, driver).
func resultFigures(v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			resultFigures(e, out)
		}
	case []any:
		for _, e := range x {
			resultFigures(e, out)
		}
	case float64:
		out[strconv.FormatFloat(x, 'f', -1, 64)] = true
		for prec := 0; prec <= 4; prec++ {
			out[strconv.FormatFloat(x, 'f', prec, 64)] = true
		}
	case string:
		for _, f := range figures(x) {
			out[f] = true
		}
	}
}

// measuredParagraph returns a doc's paragraph that starts with
// "Measured:" and the section it is in.
func measuredParagraph(doc string) (para, section string) {
	i := strings.Index(doc, "\nMeasured:")
	if i < 0 {
		return "", ""
	}
	para = doc[i+1:]
	if j := strings.Index(para, "\n\n"); j >= 0 {
		para = para[:j]
	}
	if h := strings.LastIndex(doc[:i], "\n## "); h >= 0 {
		section = strings.SplitN(doc[h+1:], "\n", 2)[0]
	}
	return para, section
}

// TestMeasuredDocs requires every rule with results to quote them in a
// "Measured:" paragraph at the end of "## Why is this bad?" that names the
// GPU and the PyTorch version they were measured with, every figure of
// that paragraph to be in the results file, and its links to point at the
// rule's plot and program in this repository.
func TestMeasuredDocs(t *testing.T) {
	res, raw := readEvidenceResults(t)
	var all any
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	resultFigures(all, known)
	for _, r := range All {
		para, section := measuredParagraph(r.Doc)
		result, measured := res.Rules[r.Code]
		switch {
		case para == "" && measured:
			t.Errorf("%s: results in %s but no Measured: paragraph in its doc", r.Code, resultsPath)
			continue
		case para == "":
			continue
		case !measured:
			t.Errorf("%s: its doc has a Measured: paragraph but %s has no results for it", r.Code, resultsPath)
			continue
		}
		if section != "## Why is this bad?" {
			t.Errorf("%s: the Measured: paragraph is in %q, not at the end of \"## Why is this bad?\"", r.Code, section)
		}
		gpu, torch := res.measuredOn(r.Code)
		if gpu == "" || torch == "" {
			t.Errorf("%s: %s records no GPU or PyTorch version for it", r.Code, resultsPath)
		} else if !strings.Contains(para, gpu) || !strings.Contains(para, "PyTorch "+torch) {
			t.Errorf("%s: the Measured: paragraph does not name the GPU and PyTorch its results were measured with (%q, \"PyTorch %s\")", r.Code, gpu, torch)
		}
		for _, link := range []string{result.Plot, result.Program} {
			if !strings.Contains(para, "("+blobURL+link+")") {
				t.Errorf("%s: the Measured: paragraph does not link %s%s", r.Code, blobURL, link)
			}
			if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(link))); err != nil {
				t.Errorf("%s: %v", r.Code, err)
			}
		}
		var missing []string
		for _, f := range figures(para) {
			if !known[f] {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 {
			t.Errorf("%s: the Measured: paragraph quotes %s, not in %s", r.Code, strings.Join(missing, ", "), resultsPath)
		}
	}
}

// TestEvidenceFigures checks the figure extraction the doc test relies on.
func TestEvidenceFigures(t *testing.T) {
	text := "Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, a ResNet-50 (TL201) grows by 10.19 MiB, " +
		"1 GiB at step 101. With `map_location=\"cpu\"` 0 MiB ([plot](https://x/TL403.png))."
	got := fmt.Sprint(figures(text))
	if want := "[2.11.0 10.19 1 101 0]"; got != want {
		t.Errorf("figures: got %s, want %s", got, want)
	}
	known := map[string]bool{}
	resultFigures(map[string]any{"torch": "2.11.0+cu130", "x": 10.1934, "n": 101.0}, known)
	for _, f := range []string{"2.11.0", "10.19", "10.2", "10", "101"} {
		if !known[f] {
			t.Errorf("resultFigures: %s missing from %v", f, keys(known))
		}
	}
}
