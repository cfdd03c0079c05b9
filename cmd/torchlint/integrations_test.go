package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/internal/testtool"
)

// fileBlock is a documented file: a `<!-- file: PATH -->` comment followed
// by a fenced code block holding it.
var fileBlock = regexp.MustCompile("(?s)<!-- file: (\\S+) -->\\s*```[a-z]*\\n(.*?)```")

type snippet struct {
	doc, path, text string
}

// docSnippets returns the files documented in the README and docs/, so
// that the tests check exactly what users copy.
func docSnippets(t *testing.T) []snippet {
	t.Helper()
	root := repoRoot(t)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	var out []snippet
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fileBlock.FindAllStringSubmatch(string(data), -1) {
			out = append(out, snippet{doc: filepath.Base(d), path: m[1], text: m[2]})
		}
	}
	return out
}

// TestWorkflowSnippets runs actionlint over every workflow in the docs,
// with the action taken from this checkout (`uses: ./`), so that the
// action's metadata and the inputs the workflows pass are checked too.
func TestWorkflowSnippets(t *testing.T) {
	actionlint := needTool(t, "actionlint", "TORCHLINT_ACTIONLINT", "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	root := repoRoot(t)
	repo := t.TempDir()
	action, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"action.yml": string(action)}
	workflows := 0
	for _, s := range docSnippets(t) {
		if !strings.HasPrefix(s.path, ".github/workflows/") {
			continue
		}
		workflows++
		name := strings.TrimSuffix(s.doc, ".md") + "-" + filepath.Base(s.path)
		files[".github/workflows/"+name] = strings.ReplaceAll(s.text, "torchlint/torchlint@main", "./")
	}
	if workflows < 4 {
		t.Fatalf("found %d documented workflows, want the README's two and the docs' own", workflows)
	}
	writeTree(t, repo, files)
	git(t, repo, "init", "-q")
	cmd := exec.Command(actionlint, "-no-color")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}

	// actionlint does read action.yml: an input it does not declare fails.
	writeTree(t, repo, map[string]string{".github/workflows/bad.yml": "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          pathz: src\n"})
	cmd = exec.Command(actionlint, "-no-color", ".github/workflows/bad.yml")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "pathz") {
		t.Errorf("actionlint accepted an undeclared input: %v\n%s", err, out)
	}
}

// TestPreCommitSnippets validates the hook manifest and the documented
// .pre-commit-config.yaml with pre-commit itself, and checks that the
// documented hook ids exist.
func TestPreCommitSnippets(t *testing.T) {
	preCommit := needTool(t, "pre-commit", "", "Debian package pre-commit")
	root := repoRoot(t)
	manifest := filepath.Join(root, ".pre-commit-hooks.yaml")
	if out, err := exec.Command(preCommit, "validate-manifest", manifest).CombinedOutput(); err != nil {
		t.Fatalf("pre-commit validate-manifest: %v\n%s", err, out)
	}
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	configs := 0
	for _, s := range docSnippets(t) {
		if s.path != ".pre-commit-config.yaml" {
			continue
		}
		configs++
		p := filepath.Join(t.TempDir(), ".pre-commit-config.yaml")
		if err := os.WriteFile(p, []byte(s.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(preCommit, "validate-config", p).CombinedOutput(); err != nil {
			t.Errorf("%s: pre-commit validate-config: %v\n%s", s.doc, err, out)
		}
		for _, m := range regexp.MustCompile(`id:\s*(\S+)`).FindAllStringSubmatch(s.text, -1) {
			if !strings.Contains(string(data), "- id: "+m[1]+"\n") {
				t.Errorf("%s: hook %q is not in .pre-commit-hooks.yaml", s.doc, m[1])
			}
		}
	}
	if configs == 0 {
		t.Error("no documented .pre-commit-config.yaml")
	}
}

// TestActionScripts runs shellcheck over the bash steps of the composite
// action (actionlint checks workflows' scripts, not an action's).
func TestActionScripts(t *testing.T) {
	shellcheck := needTool(t, "shellcheck", "", "Debian package shellcheck")
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	scripts := 0
	for _, sc := range testtool.ActionScripts(string(data)) {
		scripts++
		if strings.Contains(sc.Body, "${{") {
			t.Errorf("script %d interpolates an expression into bash; pass it through env", scripts)
		}
		cmd := exec.Command(shellcheck, "--shell=bash", "-")
		cmd.Stdin = strings.NewReader(sc.Body)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("shellcheck on script %d of action.yml: %v\n%s", scripts, err, out)
		}
	}
	if scripts < 2 {
		t.Errorf("found %d multi-line scripts in action.yml, want at least 2", scripts)
	}
}
