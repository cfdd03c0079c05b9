package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// aProject is a small project as a user has it: configuration in
// pyproject.toml, a virtual environment, git-ignored build output, a
// script folder with its own ignores, and noqa comments.
func aProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"pyproject.toml": "[project]\nname = \"demo\"\n\n[tool.torchlint]\nextend-select = [\"TL303\"]\nignore = [\"TL402\"]\n\n" +
			"[tool.torchlint.per-file-ignores]\n\"scripts/*.py\" = [\"TL403\"]\n",
		".gitignore":   "build/\n",
		".git/HEAD":    "ref: refs/heads/main\n",
		".venv/lib.py": "import torch\nstate = torch.load('x.pt')\n",
		"build/gen.py": "import torch\nstate = torch.load('x.pt')\n",
		"src/train.py": "import os\nimport torch\nfrom torch.utils.checkpoint import checkpoint\n\n" +
			"os.environ[\"PYTORCH_CUDA_ALLOC_CONF\"] = \"max_split_size_mb:128\"\n" +
			"state = torch.load(\"a.pt\")\n" +
			"extra = torch.load(\"b.pt\")  # noqa: TL403\n" +
			"scaler = torch.cuda.amp.GradScaler()  # NOQA\n" +
			"def block(f, x):\n    return checkpoint(f, x)\n",
		"scripts/export.py": "import torch\nmodel = torch.load(\"m.pt\")\nscaler = torch.cuda.amp.GradScaler()\n",
	})
	return dir
}

func TestProjectConfigurationAndSuppression(t *testing.T) {
	dir := aProject(t)
	code, out, stderr := runIn(t, dir, "check", "--output-format", "concise", ".")
	want := "scripts/export.py:3:10: TL401 [*] `torch.cuda.amp.GradScaler` is deprecated"
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 5 || !strings.HasPrefix(lines[0], want) ||
		!strings.HasPrefix(lines[1], "src/train.py:5:41: TL303 ") || !strings.HasPrefix(lines[2], "src/train.py:6:9: TL403 ") {
		t.Fatalf("exit %d, stderr %q, output:\n%s", code, stderr, out)
	}
	if !strings.HasPrefix(lines[3], "Found 5 errors (2 suppressed, 3 remaining).") {
		t.Errorf("summary %q does not count the suppressed findings", lines[3])
	}
	// Suppressed findings never reach SARIF.
	_, sarif, _ := runIn(t, dir, "check", "--output-format", "sarif", ".")
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(sarif), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 3 {
		t.Errorf("SARIF results: %+v (err %v), want the 3 unsuppressed findings", log, err)
	}
	// The command line goes on top of the configuration.
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "--ignore", "TL4", "."); !strings.Contains(out, "TL303") || strings.Contains(out, "TL40") {
		t.Errorf("--ignore TL4 over the configuration:\n%s", out)
	}
	// --isolated: the defaults (TL402 on, TL303 off, no per-file ignores).
	_, out, _ = runIn(t, dir, "check", "--output-format", "concise", "--isolated", ".")
	if !strings.Contains(out, "TL402") || strings.Contains(out, "TL303") || !strings.Contains(out, "scripts/export.py:2:9: TL403") {
		t.Errorf("--isolated:\n%s", out)
	}
	// --config: one file for everything.
	writeTree(t, dir, map[string]string{"ci.toml": "select = [\"TL402\"]\n"})
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "--config", "ci.toml", "."); !strings.HasPrefix(out, "src/train.py:10:12: TL402 ") || strings.Count(out, "\n") != 3 {
		t.Errorf("--config ci.toml:\n%s", out)
	}
	// An explicit file inside an excluded folder is linted unless --force-exclude.
	if code, out, _ := runIn(t, dir, "check", "--output-format", "concise", ".venv/lib.py"); code != 1 || !strings.Contains(out, "TL403") {
		t.Errorf("explicit .venv file: exit %d\n%s", code, out)
	}
	if code, out, _ := runIn(t, dir, "check", "--output-format", "concise", "--force-exclude", ".venv/lib.py"); code != 0 || !strings.Contains(out, "All checks passed!") {
		t.Errorf("--force-exclude: exit %d\n%s", code, out)
	}
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "--no-respect-gitignore", "."); !strings.Contains(out, "build/gen.py") {
		t.Errorf("--no-respect-gitignore:\n%s", out)
	}
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "--extend-exclude", "scripts", "."); strings.Contains(out, "scripts/") {
		t.Errorf("--extend-exclude scripts:\n%s", out)
	}
}

func TestBadConfigurationIsAUsageError(t *testing.T) {
	dir := aProject(t)
	writeTree(t, dir, map[string]string{"src/pyproject.toml": "[tool.torchlint]\nselect = [\"TL1\"]\nselcet = [\"TL2\"]\n"})
	code, out, stderr := runIn(t, dir, "check", ".")
	if code != 2 || out != "" || !strings.Contains(stderr, "src/pyproject.toml:3: unknown key `selcet`") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if code, _, stderr := runIn(t, dir, "check", "--config", "pyproject.toml", "--select", "TL8", "src/train.py"); code != 2 || !strings.Contains(stderr, `unknown rule selector "TL8"`) {
		t.Errorf("bad --select: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runIn(t, dir, "check", "--config", "missing.toml", "."); code != 2 || !strings.Contains(stderr, "missing.toml: cannot read") {
		t.Errorf("missing --config: exit %d, stderr %q", code, stderr)
	}
}

func TestStdin(t *testing.T) {
	dir := aProject(t)
	src := "import torch\nstate = torch.load(\"a.pt\")\nscaler = torch.cuda.amp.GradScaler()\n"
	withStdin := func(s string) func() {
		old := stdin
		stdin = strings.NewReader(s)
		return func() { stdin = old }
	}

	restore := withStdin(src)
	code, out, _ := runIn(t, dir, "check", "--output-format", "concise", "-")
	restore()
	if code != 1 || !strings.Contains(out, "-:2:9: TL403") || !strings.Contains(out, "-:3:10: TL401") {
		t.Errorf("stdin without a name: exit %d\n%s", code, out)
	}

	// The name picks the configuration and its per-file ignores.
	restore = withStdin(src)
	_, out, _ = runIn(t, dir, "check", "--output-format", "concise", "--stdin-filename", "scripts/new.py", "-")
	restore()
	if strings.Contains(out, "TL403") || !strings.Contains(out, "scripts/new.py:3:10: TL401") {
		t.Errorf("stdin named scripts/new.py:\n%s", out)
	}

	// --fix writes the fixed source to standard output, the report to standard error.
	restore = withStdin(src)
	code, out, stderr := runIn(t, dir, "check", "--fix", "--output-format", "concise", "--stdin-filename", "src/new.py", "-")
	restore()
	if want := strings.Replace(src, "torch.cuda.amp.GradScaler()", "torch.amp.GradScaler(\"cuda\")", 1); out != want {
		t.Errorf("stdin --fix output %q, want %q", out, want)
	}
	if code != 1 || !strings.Contains(stderr, "src/new.py:2:9: TL403") || !strings.Contains(stderr, "1 fixed, 1 remaining") {
		t.Errorf("stdin --fix: exit %d, stderr %q", code, stderr)
	}

	// An excluded name with --force-exclude: nothing is linted, the source passes through.
	restore = withStdin(src)
	code, out, _ = runIn(t, dir, "check", "--fix", "--force-exclude", "--stdin-filename", ".venv/new.py", "-")
	restore()
	if code != 0 || out != src {
		t.Errorf("excluded stdin with --fix: exit %d, output %q", code, out)
	}
}
