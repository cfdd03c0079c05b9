package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// aProject is a small project as a user has it: configuration in
// pyproject.toml that turns on two preview rules (TL303, TL403), a
// virtual environment, git-ignored build output, a script folder with its
// own ignores, and noqa comments.
func aProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"pyproject.toml": "[project]\nname = \"demo\"\n\n[tool.torchlint]\nextend-select = [\"TL303\", \"TL403\"]\nignore = [\"TL402\"]\n\n" +
			"[tool.torchlint.per-file-ignores]\n\"scripts/*.py\" = [\"TL403\"]\n",
		".gitignore":   "build/\n",
		".git/HEAD":    "ref: refs/heads/main\n",
		".venv/lib.py": "import torch\nstate = torch.load('x.pt').cuda()\n",
		"build/gen.py": "import torch\nstate = torch.load('x.pt').cuda()\n",
		"src/train.py": "import os\nimport torch\nfrom torch.utils.checkpoint import checkpoint\n\n" +
			"os.environ[\"PYTORCH_CUDA_ALLOC_CONF\"] = \"max_split_size_mb:128\"\n" +
			"state = torch.load(\"a.pt\").cuda()\n" +
			"extra = torch.load(\"b.pt\").cuda()  # noqa: TL403\n" +
			"scaler = torch.cuda.amp.GradScaler()  # NOQA\n" +
			"def block(f, x):\n    return checkpoint(f, x)\n",
		"scripts/export.py": "import torch\nmodel = torch.load(\"m.pt\").cuda()\nscaler = torch.cuda.amp.GradScaler()\n",
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
	// The command line goes on top of the configuration. TL403, a preview
	// rule the configuration turns on, is named by its code: as selectors
	// are matched now, a prefix (or ALL) reaches no preview rule, in
	// --ignore as in --select.
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "--ignore", "TL4,TL403", "."); !strings.Contains(out, "TL303") || strings.Contains(out, "TL40") {
		t.Errorf("--ignore TL4,TL403 over the configuration:\n%s", out)
	}
	// --isolated: the defaults (TL402 on, the preview TL303 and TL403
	// off, no per-file ignores).
	_, out, _ = runIn(t, dir, "check", "--output-format", "concise", "--isolated", ".")
	if !strings.Contains(out, "TL402") || strings.Contains(out, "TL303") || strings.Contains(out, "TL403") {
		t.Errorf("--isolated:\n%s", out)
	}
	_, out, _ = runIn(t, dir, "check", "--output-format", "concise", "--isolated", "--extend-select", "TL403", ".")
	if !strings.Contains(out, "TL402") || strings.Contains(out, "TL303") || !strings.Contains(out, "scripts/export.py:2:9: TL403") {
		t.Errorf("--isolated --extend-select TL403:\n%s", out)
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
	src := "import torch\nstate = torch.load(\"a.pt\").cuda()\nscaler = torch.cuda.amp.GradScaler()\n"
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

// copyProject copies a fixture project of testdata/python/projects into
// a temporary folder, so that runs can write their cache and edit files.
func copyProject(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	copyProjectTo(t, name, dst)
	return dst
}

// copyProjectTo copies a fixture project into dst.
func copyProjectTo(t *testing.T, name, dst string) {
	t.Helper()
	src := filepath.Join(repoRoot(t), "testdata", "python", "projects", name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func concise(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	code, out, stderr := runIn(t, dir, append([]string{"check", "--output-format", "concise", "-q"}, args...)...)
	if code == 2 {
		t.Fatalf("check %v: exit 2: %s", args, stderr)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	return lines
}

// TestProjectFactsWholeAndAlone: each file of a project, linted alone
// (as pre-commit and editors lint), gets exactly the findings it gets
// when the whole project is linted, cross-file ones included.
func TestProjectFactsWholeAndAlone(t *testing.T) {
	for _, tc := range []struct {
		project string
		want    []string
	}{
		{"classic", []string{"train.py:38:9: TL301", "engine.py:7:12: TL201", "star_only.py:6:12: TL403"}},
		// Step facts: gradients cleared, modes switched, host reads, in
		// engine.py; activations returned by models.py.
		{"steps", []string{"train.py:14:9: TL503", "train.py:44:9: TL502", "train.py:80:9: TL501", "losses.py:10:28: TL504"}},
	} {
		t.Run(tc.project, func(t *testing.T) {
			dir := copyProject(t, tc.project)
			whole := concise(t, dir, "--no-cache", ".")
			joined := strings.Join(whole, "\n")
			for _, want := range tc.want {
				if !strings.Contains(joined, want) {
					t.Errorf("whole project: no %s in\n%s", want, joined)
				}
			}
			var alone []string
			files, _ := filepath.Glob(filepath.Join(dir, "*.py"))
			more, _ := filepath.Glob(filepath.Join(dir, "models", "*.py"))
			for _, f := range append(files, more...) {
				rel, _ := filepath.Rel(dir, f)
				alone = append(alone, concise(t, dir, "--no-cache", rel)...)
			}
			sort.Strings(alone)
			if strings.Join(alone, "\n") != joined {
				t.Errorf("file by file:\n%s\nwhole project:\n%s", strings.Join(alone, "\n"), joined)
			}
		})
	}
}

// TestProjectRootNotWorkingDir: where the command runs plays no part in
// a project's findings. The subprojects fixture, linted from its root,
// from a parent folder naming it and file by file, gets the same
// findings; so does a copy of it without a marker of its root, linted
// from its folder and from the parent. The parent also holds a large
// unrelated folder, src/, which is never part of the project: it has a
// file that does not parse, one with a finding, and a metrics.py whose
// tensor would give tools/sweep.py a finding were it read as an import
// root of the project.
func TestProjectRootNotWorkingDir(t *testing.T) {
	parent := t.TempDir()
	sibling := map[string]string{
		"src/metrics.py": "import torch.nn.functional as F\n\n\ndef box_l1(pred, target):\n    return F.l1_loss(pred, target)\n",
		"src/broken.py":  "def broken(:\n",
		"src/load.py":    "import torch\nstate = torch.load(\"a.pt\")\n",
	}
	for i := range 300 {
		sibling[fmt.Sprintf("src/data/shard_%03d.py", i)] = "import torch\nshard = torch.zeros(8)\n"
	}
	writeTree(t, parent, sibling)
	marked := filepath.Join(parent, "marked")
	unmarked := filepath.Join(parent, "unmarked")
	copyProjectTo(t, "subprojects", marked)
	copyProjectTo(t, "subprojects", unmarked)
	if err := os.Remove(filepath.Join(unmarked, "pyproject.toml")); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"detection/engine/loop.py:15:13: TL101",
		"detection/engine/loop.py:16:9: TL102",
		"detection/scripts/finetune.py:12:9: TL101",
		"detection/train.py:13:9: TL101",
	}
	// The findings of a run from the project's folder, each prefixed as
	// a run from the parent names them.
	fromRoot := func(dir string) []string {
		var out []string
		for _, l := range concise(t, dir, "--no-cache", ".") {
			out = append(out, filepath.Base(dir)+"/"+l)
		}
		return out
	}
	for _, dir := range []string{marked, unmarked} {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			root := fromRoot(dir)
			joined := strings.Join(root, "\n")
			if len(root) != len(want) {
				t.Errorf("from the root: %d findings, want %d:\n%s", len(root), len(want), joined)
			}
			for _, w := range want {
				if !strings.Contains(joined, name+"/"+w) {
					t.Errorf("from the root: no %s in\n%s", w, joined)
				}
			}
			if got := concise(t, parent, "--no-cache", name); strings.Join(got, "\n") != joined {
				t.Errorf("from the parent:\n%s\nfrom the root:\n%s", strings.Join(got, "\n"), joined)
			}
			if name == "unmarked" {
				// With no marker, a file alone has its own folder for a
				// root, and the packages under it that it can import are
				// its project: a script there agrees with the whole run.
				for _, rel := range []string{"detection/train.py"} {
					got := concise(t, parent, "--no-cache", filepath.Join(name, rel))
					if len(got) != 1 || !strings.Contains(joined, got[0]) {
						t.Errorf("%s alone: %v, want its finding of\n%s", rel, got, joined)
					}
				}
				return // engine/loop.py alone has engine/ for a root, scripts/finetune.py scripts/
			}
			var alone []string
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".py") {
					rel, _ := filepath.Rel(parent, p)
					alone = append(alone, concise(t, parent, "--no-cache", rel)...)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(alone)
			if strings.Join(alone, "\n") != joined {
				t.Errorf("file by file:\n%s\nwhole project:\n%s", strings.Join(alone, "\n"), joined)
			}
			inSub := concise(t, filepath.Join(dir, "detection"), "--no-cache", "train.py")
			if len(inSub) != 1 || !strings.HasPrefix(inSub[0], "train.py:13:9: TL101") {
				t.Errorf("from a sub-project's folder: %v", inSub)
			}
		})
	}
}

// TestMaxFileSizeOfEachFile: a project's max-file-size applies to its
// files wherever the command runs.
func TestMaxFileSizeOfEachFile(t *testing.T) {
	parent := t.TempDir()
	writeTree(t, parent, map[string]string{
		"repo/pyproject.toml": "[tool.torchlint]\nmax-file-size = 0.001\n",
		"repo/big.py":         "import torch\n" + strings.Repeat("# padding\n", 200),
	})
	inRepo := concise(t, filepath.Join(parent, "repo"), "--no-cache", ".")
	if len(inRepo) != 1 || !strings.Contains(inRepo[0], "max-file-size") {
		t.Fatalf("from the project: %v, want big.py over the limit", inRepo)
	}
	if got := concise(t, parent, "--no-cache", "repo"); len(got) != 1 || got[0] != "repo/"+inRepo[0] {
		t.Errorf("from the parent: %v, want %v", got, inRepo)
	}
}

// TestProjectCacheFollowsOtherFiles: a file's cached findings are reused
// only while the facts it read from other files hold; making the class
// it instantiates no longer a module changes its findings on the next
// cached run, although the file itself did not change.
func TestProjectCacheFollowsOtherFiles(t *testing.T) {
	dir := copyProject(t, "srclayout")
	target := filepath.Join("scripts", "run.py")
	// The finding is of low confidence: a function named for evaluation
	// that no code calls.
	first := concise(t, dir, "--confidence", "low", target)
	if len(first) != 1 || !strings.Contains(first[0], "TL201") {
		t.Fatalf("first run: %v, want one TL201", first)
	}
	if again := concise(t, dir, "--confidence", "low", target); strings.Join(again, "\n") != strings.Join(first, "\n") {
		t.Fatalf("cached run: %v, want %v", again, first)
	}
	nets := filepath.Join(dir, "src", "rlkit", "agents", "nets.py")
	src, err := os.ReadFile(nets)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "class Policy(nn.Module):", "class Policy:", 1)
	if edited == string(src) {
		t.Fatal("fixture changed: no `class Policy(nn.Module):`")
	}
	if err := os.WriteFile(nets, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if after := concise(t, dir, "--confidence", "low", target); len(after) != 0 {
		t.Errorf("after Policy stopped being a module, the cached run still reports %v", after)
	}
}

// TestProjectStdin: a source read from standard input gets the facts of
// the project its --stdin-filename places it in.
func TestProjectStdin(t *testing.T) {
	dir := copyProject(t, "srclayout")
	src, err := os.ReadFile(filepath.Join(dir, "scripts", "run.py"))
	if err != nil {
		t.Fatal(err)
	}
	old := stdin
	defer func() { stdin = old }()
	stdin = bytes.NewReader(src)
	got := concise(t, dir, "--confidence", "low", "--stdin-filename", "scripts/run.py", "-")
	if len(got) != 1 || !strings.Contains(got[0], "scripts/run.py:14:13: TL201 (low)") {
		t.Errorf("stdin: %v, want the TL201 that needs Policy from src/rlkit", got)
	}
}

// TestProjectSARIFRelated: a finding through a helper of another file
// carries the helper's place as a SARIF related location.
func TestProjectSARIFRelated(t *testing.T) {
	dir := copyProject(t, "classic")
	_, out, stderr := runIn(t, dir, "check", "--no-cache", "--output-format", "sarif", ".")
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID           string `json:"ruleId"`
				RelatedLocations []struct {
					ID               int `json:"id"`
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID != "TL301" {
			continue
		}
		if len(r.RelatedLocations) != 1 {
			t.Fatalf("TL301 has %d related locations, want 1", len(r.RelatedLocations))
		}
		rl := r.RelatedLocations[0]
		found = rl.ID == 1 && rl.PhysicalLocation.ArtifactLocation.URI == "engine.py" && rl.PhysicalLocation.Region.StartLine == 18 &&
			strings.Contains(rl.Message.Text, "step_fn")
		if !found {
			t.Errorf("TL301 related location %+v, want engine.py line 18", rl)
		}
	}
	if !found {
		t.Error("no TL301 through step_fn")
	}
}

// TestProjectEnabledByRelated: a method every call of which in its own
// file disables grad, run with grad enabled by a call in another file,
// names that call in a note.
func TestProjectEnabledByRelated(t *testing.T) {
	dir := copyProject(t, "enabledby")
	_, out, stderr := runIn(t, dir, "check", "--no-cache", ".")
	want := "= note: main.py:9: a call that runs `visualize` with grad enabled; every call of it in gan.py disables grad"
	if !strings.Contains(out, "gan.py:26:19: TL201") || !strings.Contains(out, want) {
		t.Errorf("output lacks the TL201 at gan.py:26 with the note %q:\n%s%s", want, out, stderr)
	}
	if strings.Contains(out, "gan.py:32") {
		t.Errorf("preview, under no_grad at every call, reported:\n%s", out)
	}
}
