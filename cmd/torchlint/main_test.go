package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/torchlint/torchlint/internal/testtool"
	"github.com/torchlint/torchlint/report"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// repoRoot is the module root, where the tests run the CLI from so that
// paths in the output are repository-relative.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// writeTree creates files (path → content) under dir.
var writeTree = testtool.WriteTree

// runIn runs the CLI with args from dir and returns exit code, stdout and
// stderr.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(old); err != nil {
			t.Fatal(err)
		}
	}()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestExitCodes(t *testing.T) {
	root := repoRoot(t)
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"findings", []string{"check", "testdata/golden/sample.py"}, 1, ""},
		{"clean", []string{"check", "testdata/golden/clean.py"}, 0, ""},
		{"short form", []string{"testdata/golden/sample.py"}, 1, ""},
		{"clean json", []string{"check", "--output-format", "json", "testdata/golden/clean.py"}, 0, ""},
		{"findings sarif", []string{"check", "--output-format", "sarif", "testdata/golden/sample.py"}, 1, ""},
		{"missing path", []string{"check", "no/such/file.py"}, 2, "torchlint: error: no/such/file.py: no such file or directory\n"},
		{"bad format", []string{"check", "--output-format", "xml", "testdata/golden/sample.py"}, 2, "torchlint: error: unknown output format \"xml\" (expected one of: concise, full, github, gitlab, grouped, json, json-lines, junit, pylint, sarif)\n"},
		{"bad flag", []string{"check", "--no-such-flag"}, 2, ""},
		{"bad selector", []string{"check", "--select", "XY1", "testdata/golden/sample.py"}, 2, ""},
		{"selected away", []string{"check", "--select", "TL3", "--ignore", "TL301", "testdata/golden/sample.py"}, 0, ""},
		{"unknown rule", []string{"rule", "TL999"}, 2, ""},
		{"explain", []string{"--explain", "TL101"}, 0, ""},
		{"version", []string{"--version"}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runIn(t, root, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
			if c.stderr != "" && stderr != c.stderr {
				t.Errorf("stderr %q, want %q", stderr, c.stderr)
			}
			if c.code == 2 && strings.Count(strings.TrimSpace(stderr), "\n") > 0 && !strings.Contains(c.name, "flag") {
				t.Errorf("error is not one line: %q", stderr)
			}
		})
	}
}

func TestSelectionFlags(t *testing.T) {
	root := repoRoot(t)
	_, out, _ := runIn(t, root, "check", "--output-format", "concise", "--select", "TL1,TL3", "testdata/golden/sample.py")
	if !strings.Contains(out, "TL101") || !strings.Contains(out, "TL301") || strings.Contains(out, "TL201") {
		t.Errorf("--select TL1,TL3 gave:\n%s", out)
	}
	_, out, _ = runIn(t, root, "check", "--output-format", "concise", "--select", "TL101", "--extend-select", "TL2", "testdata/golden/sample.py")
	if !strings.Contains(out, "TL101") || !strings.Contains(out, "TL201") || strings.Contains(out, "TL301") {
		t.Errorf("--select TL101 --extend-select TL2 gave:\n%s", out)
	}
}

func TestRuleCommand(t *testing.T) {
	root := repoRoot(t)
	code, out, _ := runIn(t, root, "rule", "TL101")
	if code != 0 || !strings.HasPrefix(out, "# loss-accumulated-with-graph (TL101)\n") || !strings.Contains(out, "## Why is this bad?") {
		t.Errorf("rule TL101: exit %d\n%s", code, out)
	}
	_, byName, _ := runIn(t, root, "rule", "loss-accumulated-with-graph")
	if byName != out {
		t.Error("rule by name differs from rule by code")
	}
	code, out, _ = runIn(t, root, "rule", "--all")
	if code != 0 || !strings.Contains(out, "TL201  eval-without-no-grad") || strings.Count(out, "\n") < 5 {
		t.Errorf("rule --all: exit %d\n%s", code, out)
	}
}

// TestGolden compares each output format on a sample file with its
// golden file; run with -update to rewrite them.
func TestGolden(t *testing.T) {
	root := repoRoot(t)
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	// The gitlab format takes its paths relative to CI_PROJECT_DIR.
	t.Setenv("CI_PROJECT_DIR", "")
	for _, format := range []string{"full", "concise", "grouped", "json", "json-lines", "sarif", "github", "gitlab", "junit", "pylint"} {
		t.Run(format, func(t *testing.T) {
			// Every level, so that each format shows how it tells them apart.
			code, out, stderr := runIn(t, root, "check", "--confidence", "low", "--output-format", format, "testdata/golden/sample.py", "testdata/golden/clean.py")
			if code != 1 {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			out = strings.ReplaceAll(out, filepath.ToSlash(abs)+"/", "$ROOT/")
			out = strings.ReplaceAll(out, `Version": "`+strings.TrimPrefix(versionString(), "v")+`"`, `Version": "$VERSION"`)
			out = strings.ReplaceAll(out, `"version": "`+strings.TrimPrefix(versionString(), "v")+`"`, `"version": "$VERSION"`)
			golden := filepath.Join(root, "testdata", "golden", "sample."+format)
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/torchlint -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("output differs from %s:\n%s", golden, out)
			}
		})
	}
}

// sarifSchema returns the path of the SARIF 2.1.0 JSON schema kept in
// the repository (testdata/sarif, the OASIS errata 01 schema).
func sarifSchema(t *testing.T) string {
	t.Helper()
	p := filepath.Join(repoRoot(t), "testdata", "sarif", "sarif-schema-2.1.0.json")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	return p
}

func TestSARIFSchema(t *testing.T) {
	schemaPath := sarifSchema(t)
	c := jsonschema.NewCompiler()
	schema, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	root := repoRoot(t)
	for _, target := range []string{"testdata/python", "testdata/golden/clean.py"} {
		_, out, _ := runIn(t, root, "check", "--output-format", "sarif", target)
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s: SARIF does not validate: %v", target, err)
		}
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Rules []struct{ ID string } `json:"rules"`
					} `json:"driver"`
				} `json:"tool"`
				Results []struct {
					RuleID    string `json:"ruleId"`
					RuleIndex int    `json:"ruleIndex"`
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI       string `json:"uri"`
								URIBaseID string `json:"uriBaseId"`
							} `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil {
			t.Fatal(err)
		}
		rules := log.Runs[0].Tool.Driver.Rules
		for _, r := range log.Runs[0].Results {
			if r.RuleIndex >= len(rules) || rules[r.RuleIndex].ID != r.RuleID {
				t.Errorf("result %s has ruleIndex %d pointing elsewhere", r.RuleID, r.RuleIndex)
			}
			loc := r.Locations[0].PhysicalLocation.ArtifactLocation
			if loc.URIBaseID != "%SRCROOT%" || strings.HasPrefix(loc.URI, "/") {
				t.Errorf("result location %+v is not repository-relative", loc)
			}
		}
	}
}

// TestSARIFMultitool validates the SARIF of the fixtures with Microsoft's
// SARIF Multitool and GitHub's rules, when TORCHLINT_SARIF_MULTITOOL
// names its executable (.ci/run installs it and sets it).
func TestSARIFMultitool(t *testing.T) {
	tool := os.Getenv("TORCHLINT_SARIF_MULTITOOL")
	if tool == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TORCHLINT_SARIF_MULTITOOL is not set")
		}
		t.Skip("TORCHLINT_SARIF_MULTITOOL is not set")
	}
	root := repoRoot(t)
	// The fixtures, and a tree with nested folders, a syntax error and
	// non-ASCII names (astral-plane characters included) before a finding
	// of TL403, a preview rule, which is selected for it.
	for _, tree := range []string{"testdata/python", "testdata/sarif-tree", "testdata/notebooks"} {
		dir := t.TempDir()
		sarifPath := filepath.Join(dir, "torchlint.sarif")
		if code, _, stderr := runIn(t, root, "check", "--extend-select", "TL403", "--output-format", "sarif", "--output-file", sarifPath, tree); code != 1 {
			t.Fatalf("%s: exit %d: %s", tree, code, stderr)
		}
		validateWithMultitool(t, tool, sarifPath)
	}
}

// TestSARIFTree checks what the Multitool cannot: the nested tree's
// results have the expected repository-relative URIs and code-point
// columns. The finding after the non-ASCII names is TL403's, a preview
// rule, so it is selected.
func TestSARIFTree(t *testing.T) {
	root := repoRoot(t)
	_, out, _ := runIn(t, root, "check", "--extend-select", "TL403", "--output-format", "sarif", "testdata/sarif-tree")
	var log struct {
		Runs []struct {
			ColumnKind string `json:"columnKind"`
			Results    []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v", err)
	}
	if log.Runs[0].ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind %q", log.Runs[0].ColumnKind)
	}
	got := map[string]bool{}
	for _, r := range log.Runs[0].Results {
		l := r.Locations[0].PhysicalLocation
		got[fmt.Sprintf("%s %s:%d:%d %s", r.RuleID, l.ArtifactLocation.URI, l.Region.StartLine, l.Region.StartColumn, l.ArtifactLocation.URIBaseID)] = true
	}
	// "données = {"étiquette": "🙂🙂"}; état = " is 38 code points (40 UTF-16 units, 47 bytes).
	for _, want := range []string{
		"TL001 testdata/sarif-tree/broken.py:3:9 %SRCROOT%",
		"TL101 testdata/sarif-tree/pkg/sub/deep/train.py:11:9 %SRCROOT%",
		"TL403 testdata/sarif-tree/unicode_names.py:3:39 %SRCROOT%",
	} {
		if !got[want] {
			t.Errorf("missing result %s; got %v", want, got)
		}
	}
}

// validateWithMultitool runs `validate --rule-kind Gh;Sarif` and requires
// zero errors and zero warnings in its output log. The tool exits 0 even
// when it finds errors, so its log is what is judged; a result without a
// level is a warning (SARIF's default).
func validateWithMultitool(t *testing.T, tool, sarifPath string) {
	t.Helper()
	outLog := sarifPath + ".validation.sarif"
	_ = os.Remove(outLog)
	cmd := exec.Command(tool, "validate", "--rule-kind", "Gh;Sarif", "--output", outLog, "--log", "ForceOverwrite;PrettyPrint", sarifPath)
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	combined, err := cmd.CombinedOutput()
	data, rerr := os.ReadFile(outLog)
	if rerr != nil {
		t.Fatalf("multitool wrote no log (%v): %v\n%s", err, rerr, combined)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"results"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("multitool log: %v", err)
	}
	if len(log.Runs) == 0 {
		t.Fatalf("multitool log has no run:\n%s", combined)
	}
	for _, r := range log.Runs[0].Results {
		level := r.Level
		if level == "" {
			level = "warning"
		}
		if level == "error" || level == "warning" {
			t.Errorf("multitool %s %s: %s", level, r.RuleID, r.Message.Text)
		}
	}
	for _, inv := range log.Runs[0].Invocations {
		if !inv.ExecutionSuccessful {
			t.Errorf("multitool run failed:\n%s", combined)
		}
	}
}

func TestOutputFileIsAtomicAndComplete(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "report.json")
	if err := os.WriteFile(out, bytes.Repeat([]byte("x"), 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runIn(t, root, "check", "--output-format", "json", "--output-file", out, "testdata/golden/sample.py")
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var v []map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("report is not valid JSON (old bytes left behind?): %v", err)
	}
	if len(v) == 0 {
		t.Fatal("empty report")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if code, _, stderr := runIn(t, root, "check", "--output-file", filepath.Join(dir, "no", "such", "dir", "r.txt"), "testdata/golden/sample.py"); code != 2 || stderr == "" {
		t.Errorf("unwritable output file: exit %d, stderr %q", code, stderr)
	}
}

func TestDeterministicOrder(t *testing.T) {
	root := repoRoot(t)
	_, first, _ := runIn(t, root, "check", "--output-format", "concise", "testdata/python")
	for i := 0; i < 5; i++ {
		if _, again, _ := runIn(t, root, "check", "--output-format", "concise", "testdata/python"); again != first {
			t.Fatal("output order changed between runs")
		}
	}
	lines := strings.Split(strings.TrimSpace(first), "\n")
	if len(lines) < 10 {
		t.Fatalf("expected many findings on the fixtures, got:\n%s", first)
	}
}

func TestExitZero(t *testing.T) {
	root := repoRoot(t)
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"findings", []string{"check", "--exit-zero", "testdata/golden/sample.py"}, 0},
		{"findings, json", []string{"check", "--exit-zero", "--output-format", "json", "testdata/golden/sample.py"}, 0},
		{"findings, statistics", []string{"check", "--exit-zero", "--statistics", "testdata/golden/sample.py"}, 0},
		{"statistics without it", []string{"check", "--statistics", "testdata/golden/sample.py"}, 1},
		{"diff with changes", []string{"check", "--exit-zero", "--diff", "--unsafe-fixes", "testdata/golden/sample.py"}, 0},
		{"diff without it", []string{"check", "--diff", "--unsafe-fixes", "testdata/golden/sample.py"}, 1},
		{"usage error", []string{"check", "--exit-zero", "no/such/file.py"}, 2},
		{"bad flag", []string{"check", "--exit-zero", "--no-such-flag"}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code, _, stderr := runIn(t, root, c.args...); code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
		})
	}
}

func TestQuiet(t *testing.T) {
	root := repoRoot(t)
	_, loud, _ := runIn(t, root, "check", "--output-format", "concise", "testdata/golden/sample.py")
	code, out, _ := runIn(t, root, "check", "-q", "--output-format", "concise", "testdata/golden/sample.py")
	if code != 1 || strings.Count(out, "\n") != 3 || strings.Contains(out, "Found") || strings.Contains(out, "not shown") {
		t.Errorf("-q: exit %d, output:\n%s", code, out)
	}
	// The default level leaves TL201's low finding out, and says so,
	// unless quiet.
	if !strings.HasPrefix(loud, out) || !strings.Contains(loud, "Found 3 errors.") ||
		!strings.HasSuffix(loud, "1 finding of lower confidence not shown (`--confidence low` shows it).\n") {
		t.Errorf("-q printed other findings than the default:\n%s\nvs\n%s", out, loud)
	}
	_, loud, _ = runIn(t, root, "check", "--confidence", "high", "--output-format", "concise", "testdata/golden/sample.py")
	_, out, _ = runIn(t, root, "check", "-q", "--confidence", "high", "--output-format", "concise", "testdata/golden/sample.py")
	if !strings.Contains(loud, "Found 2 errors.") || !strings.HasSuffix(loud, "2 findings of lower confidence not shown (`--confidence low` shows them).\n") ||
		strings.Count(out, "\n") != 2 || strings.Contains(out, "not shown") {
		t.Errorf("--confidence high:\n%s\nand with -q:\n%s", loud, out)
	}
	for _, format := range []string{"full", "grouped", "concise"} {
		code, out, stderr := runIn(t, root, "check", "--quiet", "--output-format", format, "testdata/golden/clean.py")
		if code != 0 || out != "" || stderr != "" {
			t.Errorf("%s, clean: exit %d, stdout %q, stderr %q", format, code, out, stderr)
		}
	}
	code, out, _ = runIn(t, root, "check", "-q", "--statistics", "testdata/golden/sample.py")
	if code != 1 || strings.Contains(out, "Found") || !strings.Contains(out, "TL201") {
		t.Errorf("-q --statistics: exit %d:\n%s", code, out)
	}
	code, out, stderr := runIn(t, root, "check", "-q", "--diff", "--unsafe-fixes", "testdata/golden/sample.py")
	if code != 1 || !strings.Contains(out, "+++ ") || stderr != "" {
		t.Errorf("-q --diff: exit %d, stderr %q:\n%s", code, stderr, out)
	}

	// Warnings go too; errors stay.
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "missing.py"), filepath.Join(dir, "broken.py")); err != nil {
		t.Skip(err)
	}
	_, _, stderr = runIn(t, root, "check", dir)
	if !strings.Contains(stderr, "warning") {
		t.Fatalf("expected a warning about the broken link, got %q", stderr)
	}
	if _, _, stderr = runIn(t, root, "check", "-q", dir); stderr != "" {
		t.Errorf("-q: stderr %q", stderr)
	}
	if code, _, stderr = runIn(t, root, "check", "-q", "no/such/file.py"); code != 2 || stderr == "" {
		t.Errorf("-q hid an error: exit %d, stderr %q", code, stderr)
	}
}

func TestColorFlag(t *testing.T) {
	root := repoRoot(t)
	t.Setenv("NO_COLOR", "")
	t.Setenv("FORCE_COLOR", "")
	const red = "\x1b[1;31mTL101\x1b[0m"
	check := func(name string, want bool, args ...string) {
		t.Helper()
		_, out, stderr := runIn(t, root, append([]string{"check"}, append(args, "testdata/golden/sample.py")...)...)
		if got := strings.Contains(out, red); got != want {
			t.Errorf("%s: coloured %v, want %v (stderr %q):\n%q", name, got, want, stderr, out)
		}
		if !want && strings.Contains(out, "\x1b") {
			t.Errorf("%s: escape codes in %q", name, out)
		}
	}
	check("default, not a terminal", false)
	check("auto, not a terminal", false, "--color", "auto")
	check("never", false, "--color=never")
	for _, format := range []string{"full", "concise", "grouped"} {
		check("always "+format, true, "--color", "always", "--output-format", format)
	}
	check("always, statistics", true, "--color", "always", "--statistics")
	for _, format := range []string{"json", "json-lines", "sarif", "github", "gitlab", "junit", "pylint"} {
		check("always "+format, false, "--color", "always", "--output-format", format)
	}
	t.Setenv("FORCE_COLOR", "1")
	check("auto, FORCE_COLOR", true)
	t.Setenv("NO_COLOR", "1")
	check("auto, NO_COLOR and FORCE_COLOR", false)
	check("always, NO_COLOR", true, "--color", "always")

	out := filepath.Join(t.TempDir(), "report.txt")
	if code, _, stderr := runIn(t, root, "check", "--color", "always", "-o", out, "testdata/golden/sample.py"); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if data, err := os.ReadFile(out); err != nil || bytes.Contains(data, []byte("\x1b")) || !bytes.Contains(data, []byte("TL101")) {
		t.Errorf("output file (%v):\n%q", err, data)
	}
	if code, _, stderr := runIn(t, root, "check", "--color", "sometimes", "testdata/golden/sample.py"); code != 2 || !strings.Contains(stderr, "--color") {
		t.Errorf("bad --color: exit %d, stderr %q", code, stderr)
	}
}

func TestStatisticsFlag(t *testing.T) {
	root := repoRoot(t)
	code, out, _ := runIn(t, root, "check", "--statistics", "--confidence", "low", "testdata/golden/sample.py", "testdata/golden/clean.py")
	if code != 1 || !strings.HasPrefix(out, "2\tTL201\teval-without-no-grad\t(1 medium, 1 low)\n1\tTL101\tloss-accumulated-with-graph\n1\tTL301\tempty-cache-in-loop\nFound 4 errors.\n") {
		t.Errorf("--statistics: exit %d:\n%s", code, out)
	}
	code, out, _ = runIn(t, root, "check", "--statistics", "--unsafe-fixes", "--confidence", "medium", "testdata/golden/sample.py")
	if code != 1 || !strings.HasPrefix(out, "1\tTL101\t[*] loss-accumulated-with-graph\n1\tTL201\t[*] eval-without-no-grad\t(1 medium)\n1\tTL301\t[ ] empty-cache-in-loop\n") ||
		!strings.HasSuffix(out, "1 finding of lower confidence not shown (`--confidence low` shows it).\n") {
		t.Errorf("--statistics --unsafe-fixes: exit %d:\n%s", code, out)
	}
	code, out, _ = runIn(t, root, "check", "--statistics", "--confidence", "low", "--output-format", "json", "testdata/golden/sample.py")
	var stats []struct {
		Code       string         `json:"code"`
		Count      int            `json:"count"`
		Confidence map[string]int `json:"confidence"`
	}
	if err := json.Unmarshal([]byte(out), &stats); err != nil || code != 1 || len(stats) != 3 || stats[0].Code != "TL201" || stats[0].Count != 2 ||
		stats[0].Confidence["medium"] != 1 || stats[0].Confidence["low"] != 1 || stats[1].Confidence["high"] != 1 {
		t.Errorf("--statistics json: exit %d, %v:\n%s", code, err, out)
	}
	code, out, _ = runIn(t, root, "check", "--statistics", "testdata/golden/clean.py")
	if code != 0 || out != "" {
		t.Errorf("--statistics, clean: exit %d, %q", code, out)
	}

	// A format that cannot carry statistics is refused before any file is
	// fixed.
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(root, "testdata", "golden", "sample.py"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "sample.py")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runIn(t, root, "check", "--statistics", "--output-format", "github", "--fix", "--unsafe-fixes", p)
	if code != 2 || !strings.Contains(stderr, "--statistics") {
		t.Errorf("--statistics github: exit %d, stderr %q", code, stderr)
	}
	if now, _ := os.ReadFile(p); !bytes.Equal(now, src) {
		t.Error("the file was fixed although the command line was refused")
	}
}

// Every format writes the same bytes to --output-file as to standard
// output.
func TestOutputFileAllFormats(t *testing.T) {
	root := repoRoot(t)
	t.Setenv("CI_PROJECT_DIR", "")
	dir := t.TempDir()
	for _, name := range report.Formats() {
		t.Run(name, func(t *testing.T) {
			_, stdout, _ := runIn(t, root, "check", "--output-format", name, "testdata/golden/sample.py")
			p := filepath.Join(dir, "report."+name)
			code, empty, stderr := runIn(t, root, "check", "--output-format", name, "--output-file", p, "testdata/golden/sample.py")
			if code != 1 || empty != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, empty, stderr)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != stdout || len(data) == 0 {
				t.Errorf("file differs from standard output:\n%s\nvs\n%s", data, stdout)
			}
		})
	}
}

// parseWorkflowCommand splits a GitHub Actions workflow command as the
// runner does: "::name k=v,k=v::data", with the toolkit's escapes undone.
func parseWorkflowCommand(line string) (name string, props map[string]string, data string, ok bool) {
	rest, found := strings.CutPrefix(line, "::")
	if !found {
		return "", nil, "", false
	}
	head, data, found := strings.Cut(rest, "::")
	if !found {
		return "", nil, "", false
	}
	name, list, _ := strings.Cut(head, " ")
	unescape := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	props = map[string]string{}
	for _, kv := range strings.Split(list, ",") {
		k, v, found := strings.Cut(kv, "=")
		if !found {
			return "", nil, "", false
		}
		props[k] = unescape.Replace(v)
	}
	return name, props, strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(data), true
}

// The github format on every fixture parses as GitHub's runner reads it:
// known properties only, a file that exists, and columns only on
// single-line annotations.
func TestGitHubCommandsParse(t *testing.T) {
	root := repoRoot(t)
	_, out, _ := runIn(t, root, "check", "--output-format", "github", "testdata/python")
	_, js, _ := runIn(t, root, "check", "--output-format", "json", "testdata/python")
	var findings []struct {
		Code     string `json:"code"`
		Message  string `json:"message"`
		Location struct{ Row, Column int }
	}
	if err := json.Unmarshal([]byte(js), &findings); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(findings) || len(lines) < 10 {
		t.Fatalf("%d commands for %d findings", len(lines), len(findings))
	}
	multi := 0
	for i, line := range lines {
		name, props, data, ok := parseWorkflowCommand(line)
		if !ok || (name != "warning" && name != "error") {
			t.Fatalf("not a workflow command: %q", line)
		}
		for k := range props {
			if !slices.Contains([]string{"title", "file", "line", "col", "endLine", "endColumn"}, k) {
				t.Errorf("unknown property %q in %q", k, line)
			}
		}
		if _, err := os.Stat(filepath.Join(root, props["file"])); err != nil {
			t.Errorf("file %q: %v", props["file"], err)
		}
		f := findings[i]
		if strings.HasSuffix(props["file"], ".ipynb") {
			// The line of the .ipynb file that holds the code; the
			// message gives the cell (TestNotebookLocations).
			if props["title"] != "torchlint ("+f.Code+")" || !strings.HasPrefix(data, fmt.Sprintf("%s:cell ", props["file"])) {
				t.Errorf("%q does not match %+v", line, f)
			}
			continue
		}
		if props["title"] != "torchlint ("+f.Code+")" || props["line"] != fmt.Sprint(f.Location.Row) {
			t.Errorf("%q does not match %+v", line, f)
		}
		if want := fmt.Sprintf("%s:%d:%d: %s %s", props["file"], f.Location.Row, f.Location.Column, f.Code, f.Message); data != want {
			t.Errorf("message %q, want %q", data, want)
		}
		_, hasCol := props["col"]
		_, hasEndCol := props["endColumn"]
		switch {
		case props["endLine"] != props["line"]:
			multi++
			if hasCol || hasEndCol {
				t.Errorf("columns on a multi-line annotation: %q", line)
			}
		case !hasCol || !hasEndCol:
			t.Errorf("no columns on a single-line annotation: %q", line)
		}
	}
	if multi == 0 {
		t.Error("the fixtures have no multi-line finding; the check above tested nothing")
	}
}

// The gitlab format on every fixture has GitLab's required fields, one of
// its severities, repository-relative paths and unique fingerprints.
func TestGitLabFixtures(t *testing.T) {
	root := repoRoot(t)
	t.Setenv("CI_PROJECT_DIR", "")
	_, out, _ := runIn(t, root, "check", "--output-format", "gitlab", "testdata/python")
	var issues []map[string]any
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatal(err)
	}
	if len(issues) < 10 {
		t.Fatalf("%d issues", len(issues))
	}
	seen := map[string]bool{}
	for _, is := range issues {
		fp, _ := is["fingerprint"].(string)
		desc, _ := is["description"].(string)
		check, _ := is["check_name"].(string)
		sev, _ := is["severity"].(string)
		loc, _ := is["location"].(map[string]any)
		lines, _ := loc["lines"].(map[string]any)
		path, _ := loc["path"].(string)
		begin, _ := lines["begin"].(float64)
		if fp == "" || seen[fp] || desc == "" || check == "" || begin < 1 || path == "" || filepath.IsAbs(path) ||
			!slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, sev) {
			t.Errorf("issue %v", is)
		}
		seen[fp] = true
		if _, err := os.Stat(filepath.Join(root, path)); err != nil {
			t.Errorf("path %q: %v", path, err)
		}
	}
}

// junitCounts is what TestJUnitFixtures reads back from a JUnit report.
type junitCounts struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Cases    []struct{} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, s string) junitCounts {
	t.Helper()
	var j junitCounts
	testtool.JUnit(t, s, &j)
	return j
}

func TestJUnitFixtures(t *testing.T) {
	root := repoRoot(t)
	_, out, _ := runIn(t, root, "check", "--output-format", "junit", "testdata/python")
	_, js, _ := runIn(t, root, "check", "--output-format", "json", "testdata/python")
	var findings []any
	if err := json.Unmarshal([]byte(js), &findings); err != nil {
		t.Fatal(err)
	}
	j := parseJUnit(t, out)
	cases := 0
	for _, s := range j.Suites {
		cases += len(s.Cases)
		if s.Tests != len(s.Cases) || s.Failures != len(s.Cases) {
			t.Errorf("suite %s counts %d tests, %d failures for %d cases", s.Name, s.Tests, s.Failures, len(s.Cases))
		}
	}
	if cases != len(findings) || j.Tests != cases || j.Failures != cases {
		t.Errorf("%d cases, tests=%d failures=%d, for %d findings", cases, j.Tests, j.Failures, len(findings))
	}
}
