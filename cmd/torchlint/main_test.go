package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// repoRoot is the module root, where the tests run the CLI from so that
// paths in the output are repository-relative.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

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
		{"bad format", []string{"check", "--output-format", "xml", "testdata/golden/sample.py"}, 2, "torchlint: error: unknown output format \"xml\" (expected one of: concise, full, json, sarif)\n"},
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
	for _, format := range []string{"full", "concise", "json", "sarif"} {
		t.Run(format, func(t *testing.T) {
			code, out, stderr := runIn(t, root, "check", "--output-format", format, "testdata/golden/sample.py", "testdata/golden/clean.py")
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

// sarifSchema returns the path of the SARIF 2.1.0 schema in the shared
// folder beside the repository.
func sarifSchema(t *testing.T) string {
	t.Helper()
	p := filepath.Join(repoRoot(t), "..", "shared", "sarif", "sarif-schema-2.1.0.json")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("SARIF schema not found at %s", p)
		}
		t.Skipf("SARIF schema not found at %s", p)
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
	dir := t.TempDir()
	sarifPath := filepath.Join(dir, "torchlint.sarif")
	if code, _, stderr := runIn(t, root, "check", "--output-format", "sarif", "--output-file", sarifPath, "testdata/python"); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	validateWithMultitool(t, tool, sarifPath)
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
