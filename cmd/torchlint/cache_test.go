package main

import (
	"os"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const cachedSource = "import torch\nstate = torch.load(\"a.pt\")\nscaler = torch.cuda.amp.GradScaler()  # noqa: TL401\n"

func TestCacheReusesAndInvalidates(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": cachedSource, "b.py": "x = 1\n"})
	_, cold, _ := runIn(t, dir, "check", "--output-format", "json", ".")
	cacheDir := filepath.Join(dir, ".torchlint_cache")
	for _, name := range []string{".gitignore", "CACHEDIR.TAG"} {
		if _, err := os.Stat(filepath.Join(cacheDir, name)); err != nil {
			t.Errorf("cache folder lacks %s: %v", name, err)
		}
	}
	entries, _ := filepath.Glob(filepath.Join(cacheDir, "results-*.gob"))
	if len(entries) != 1 {
		t.Fatalf("cache files: %v", entries)
	}
	// A warm run gives the same report (TestCacheServesStoredFindings
	// shows that it comes from the cache).
	_, warm, _ := runIn(t, dir, "check", "--output-format", "json", ".")
	if warm != cold {
		t.Errorf("warm run differs:\n%s\nvs\n%s", warm, cold)
	}
	_, fullCold, _ := runIn(t, dir, "check", "--no-cache", ".")
	_, fullWarm, _ := runIn(t, dir, "check", ".")
	if fullCold != fullWarm || !strings.Contains(fullWarm, "(1 suppressed, 1 remaining)") {
		t.Errorf("full format from the cache differs:\n%s\nvs\n%s", fullWarm, fullCold)
	}

	// A changed file is linted again.
	writeTree(t, dir, map[string]string{"b.py": "import torch\nw = torch.load(\"w.pt\")\n"})
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "."); !strings.Contains(out, "b.py:2:5: TL403") {
		t.Errorf("changed file not linted again:\n%s", out)
	}
	// Changed settings are honoured.
	writeTree(t, dir, map[string]string{"pyproject.toml": "[tool.torchlint]\nignore = [\"TL403\"]\n"})
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "."); strings.Contains(out, "TL403") {
		t.Errorf("changed configuration not applied:\n%s", out)
	}
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "--select", "TL401", "."); !strings.Contains(out, "All checks passed! (1 suppressed)") {
		t.Errorf("changed --select not applied:\n%s", out)
	}

	// A damaged cache file is ignored and rebuilt.
	if err := os.WriteFile(entries[0], []byte("not a cache"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runIn(t, dir, "check", "--output-format", "concise", "--isolated", "."); code != 1 || !strings.Contains(out, "a.py:2:9: TL403") || stderr != "" {
		t.Errorf("damaged cache: exit %d, stderr %q\n%s", code, stderr, out)
	}
	if data, _ := os.ReadFile(entries[0]); string(data) == "not a cache" {
		t.Error("damaged cache file not rewritten")
	}

	// torchlint clean removes it.
	if code, out, _ := runIn(t, dir, "clean"); code != 0 || !strings.Contains(out, "Removed .torchlint_cache") {
		t.Errorf("clean: exit %d %q", code, out)
	}
	if _, err := os.Stat(cacheDir); err == nil {
		t.Error("clean left the cache folder")
	}
	if code, _, stderr := runIn(t, dir, "clean", "--cache-dir", "."); code != 2 || !strings.Contains(stderr, "not a torchlint cache") {
		t.Errorf("clean of a folder that is not a cache: exit %d %q", code, stderr)
	}
}

func TestCacheLocationAndOptOut(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": cachedSource})
	runIn(t, dir, "check", "--no-cache", ".")
	if _, err := os.Stat(filepath.Join(dir, ".torchlint_cache")); err == nil {
		t.Error("--no-cache created a cache")
	}
	other := filepath.Join(t.TempDir(), "c")
	runIn(t, dir, "check", "--cache-dir", other, ".")
	if _, err := os.Stat(filepath.Join(other, "CACHEDIR.TAG")); err != nil {
		t.Errorf("--cache-dir not used: %v", err)
	}
	env := filepath.Join(t.TempDir(), "e")
	t.Setenv("TORCHLINT_CACHE_DIR", env)
	runIn(t, dir, "check", ".")
	if _, err := os.Stat(filepath.Join(env, "CACHEDIR.TAG")); err != nil {
		t.Errorf("TORCHLINT_CACHE_DIR not used: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".torchlint_cache")); err == nil {
		t.Error("the default folder was created although another was named")
	}
}

// TestCacheConcurrentRuns runs several checks at once on one cache: every
// run reports the same findings and the cache stays readable.
func TestCacheConcurrentRuns(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		files[filepath.Join("pkg", string(rune('a'+i%26))+strings.Repeat("x", i/26)+".py")] = cachedSource
	}
	writeTree(t, dir, files)
	cacheDir := filepath.Join(t.TempDir(), "cache")
	root, err := filepath.Abs(filepath.Join(dir, "pkg"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := make([]string, 6)
	for i := range outs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			diags, failures := lintWithCache(t, root, cacheDir)
			if len(failures) > 0 {
				t.Errorf("run %d: %v", i, failures)
			}
			outs[i] = diags
		}(i)
	}
	wg.Wait()
	for i := range outs {
		if outs[i] != outs[0] || !strings.Contains(outs[0], "TL403") {
			t.Fatalf("run %d differs or is empty:\n%s", i, outs[i])
		}
	}
	if again, _ := lintWithCache(t, root, cacheDir); again != outs[0] {
		t.Errorf("run after the concurrent ones differs:\n%s", again)
	}
}

// lintWithCache lints a folder in-process with a cache, as `check` does,
// without changing the working directory (which tests share).
func lintWithCache(t *testing.T, root, cacheDir string) (string, []error) {
	t.Helper()
	configs := newConfigCache(root)
	configs.fixed = defaultSettings(root)
	cache, err := openCache(cacheDir, func(string) string { return "default" })
	if err != nil {
		t.Error(err)
		return "", nil
	}
	d := &discoverer{configs: configs, warn: func(string) {}}
	files, err := d.discover([]string{root})
	if err != nil {
		t.Error(err)
		return "", nil
	}
	runner := newDefaultRunner()
	runner.Cache = cache
	diags, failures := runner.LintFiles(files)
	if err := cache.save(); err != nil {
		t.Error(err)
	}
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(filepath.Base(d.Path) + ":" + d.Rule.Code + ":" + d.Message + "\n")
	}
	return b.String(), failures
}

func newDefaultRunner() *analyzer.Runner {
	enabled, _ := rules.Selection{}.Resolve()
	return analyzer.NewRunner(enabled, rules.SyntaxError, rules.IOError)
}

// TestCacheServesStoredFindings plants a finding in the cache under a
// file's key: the runner must report it instead of linting, and must
// lint again once the content changes.
func TestCacheServesStoredFindings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	writeTree(t, dir, map[string]string{"a.py": "x = 1\n"})
	cache, err := openCache(filepath.Join(dir, "c"), func(string) string { return "k" })
	if err != nil {
		t.Fatal(err)
	}
	planted := analyzer.Diagnostic{Rule: rules.ByCode("TL301"), Path: path, Message: "planted", Pos: analyzer.Position{Line: 1, Column: 1}}
	cache.Put(path, []byte("x = 1\n"), []analyzer.Diagnostic{planted})
	if err := cache.save(); err != nil {
		t.Fatal(err)
	}
	cache, err = openCache(filepath.Join(dir, "c"), func(string) string { return "k" })
	if err != nil {
		t.Fatal(err)
	}
	runner := newDefaultRunner()
	runner.Cache = cache
	diags, _ := runner.LintFile(path)
	if len(diags) != 1 || diags[0].Message != "planted" {
		t.Fatalf("cached findings not served: %+v", diags)
	}
	writeTree(t, dir, map[string]string{"a.py": "x = 2\n"})
	if diags, _ := runner.LintFile(path); len(diags) != 0 {
		t.Errorf("changed file served from the cache: %+v", diags)
	}
	other, _ := openCache(filepath.Join(dir, "c"), func(string) string { return "other rules" })
	runner.Cache = other
	writeTree(t, dir, map[string]string{"a.py": "x = 1\n"})
	if diags, _ := runner.LintFile(path); len(diags) != 0 {
		t.Errorf("findings served for other settings: %+v", diags)
	}
}
