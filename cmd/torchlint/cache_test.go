package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const cachedSource = "import torch\nstate = torch.load(\"a.pt\").cuda()\nscaler = torch.cuda.amp.GradScaler()  # noqa: TL401\n"

// selectTL403 turns on TL403, a preview rule, whose findings
// cachedSource has.
const selectTL403 = "[tool.torchlint]\nextend-select = [\"TL403\"]\n"

func TestCacheReusesAndInvalidates(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": cachedSource, "b.py": "x = 1\n", "pyproject.toml": selectTL403})
	_, cold, _ := runIn(t, dir, "check", "--output-format", "json", ".")
	cacheDir := filepath.Join(dir, ".torchlint_cache")
	for _, name := range []string{".gitignore", "CACHEDIR.TAG"} {
		if _, err := os.Stat(filepath.Join(cacheDir, name)); err != nil {
			t.Errorf("cache folder lacks %s: %v", name, err)
		}
	}
	entries, _ := filepath.Glob(filepath.Join(cacheDir, "results-*.bin"))
	if len(entries) != 1 {
		t.Fatalf("cache files: %v", entries)
	}
	// A warm run gives the same report (project.TestCacheServesStoredFindings
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
	writeTree(t, dir, map[string]string{"b.py": "import torch\nw = torch.load(\"w.pt\").cuda()\n"})
	if _, out, _ := runIn(t, dir, "check", "--output-format", "concise", "."); !strings.Contains(out, "b.py:2:5: TL403") {
		t.Errorf("changed file not linted again:\n%s", out)
	}
	// Changed settings are honoured.
	writeTree(t, dir, map[string]string{"pyproject.toml": selectTL403 + "ignore = [\"TL403\"]\n"})
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
	if code, out, stderr := runIn(t, dir, "check", "--output-format", "concise", "--isolated", "--extend-select", "TL403", "."); code != 1 || !strings.Contains(out, "a.py:2:9: TL403") || stderr != "" {
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
