package project

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

// testVersion stands for torchlint's version in the cache's identity.
const testVersion = "0.0.0-test"

const cachedSource = "import torch\nstate = torch.load(\"a.pt\").cuda()\nscaler = torch.cuda.amp.GradScaler()  # noqa: TL401\n"

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
	configs := NewConfigs(root)
	configs.fixed = defaultSettings(root)
	cache, err := OpenCache(cacheDir, testVersion, func(string) string { return "default" })
	if err != nil {
		t.Error(err)
		return "", nil
	}
	d := &Discoverer{Configs: configs, Warn: func(string) {}}
	files, err := d.Discover([]string{root})
	if err != nil {
		t.Error(err)
		return "", nil
	}
	runner := newDefaultRunner()
	runner.Cache = cache
	diags, failures := runner.LintFiles(files)
	if err := cache.Save(); err != nil {
		t.Error(err)
	}
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(filepath.Base(d.Path) + ":" + d.Rule.Code + ":" + d.Message + "\n")
	}
	return b.String(), failures
}

func newDefaultRunner() *analyzer.Runner {
	enabled, _ := rules.Selection{ExtendSelect: []string{"TL403"}}.Resolve()
	return analyzer.NewRunner(enabled, rules.SyntaxError, rules.IOError)
}

// TestCacheServesStoredFindings plants a finding in the cache under a
// file's key: the runner must report it instead of linting, and must
// lint again once the content changes.
func TestCacheServesStoredFindings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	writeTree(t, dir, map[string]string{"a.py": "x = 1\n"})
	cache, err := OpenCache(filepath.Join(dir, "c"), testVersion, func(string) string { return "k" })
	if err != nil {
		t.Fatal(err)
	}
	planted := analyzer.Diagnostic{Rule: rules.ByCode("TL301"), Path: path, Message: "planted", Pos: analyzer.Position{Line: 1, Column: 1}}
	cache.Put(path, []byte("x = 1\n"), []analyzer.Diagnostic{planted})
	if err := cache.Save(); err != nil {
		t.Fatal(err)
	}
	cache, err = OpenCache(filepath.Join(dir, "c"), testVersion, func(string) string { return "k" })
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
	other, _ := OpenCache(filepath.Join(dir, "c"), testVersion, func(string) string { return "other rules" })
	runner.Cache = other
	writeTree(t, dir, map[string]string{"a.py": "x = 1\n"})
	if diags, _ := runner.LintFile(path); len(diags) != 0 {
		t.Errorf("findings served for other settings: %+v", diags)
	}
}

func TestCacheDirAndRemoveCache(t *testing.T) {
	t.Setenv("TORCHLINT_CACHE_DIR", "")
	if got := CacheDir(""); got != ".torchlint_cache" {
		t.Errorf("default cache folder %q", got)
	}
	t.Setenv("TORCHLINT_CACHE_DIR", "/from/env")
	if got := CacheDir(""); got != "/from/env" {
		t.Errorf("TORCHLINT_CACHE_DIR not used: %q", got)
	}
	if got := CacheDir("flag"); got != "flag" {
		t.Errorf("--cache-dir not preferred: %q", got)
	}

	dir := filepath.Join(t.TempDir(), "cache")
	if removed, err := RemoveCache(dir); removed || err != nil {
		t.Errorf("no cache yet: removed %v, %v", removed, err)
	}
	if _, err := OpenCache(dir, testVersion, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if removed, err := RemoveCache(dir); !removed || err != nil {
		t.Errorf("a cache: removed %v, %v", removed, err)
	}
	plain := t.TempDir()
	if removed, err := RemoveCache(plain); removed || err == nil || !strings.Contains(err.Error(), "not a torchlint cache") {
		t.Errorf("a folder that is not a cache: removed %v, %v", removed, err)
	}
}

// TestCacheGoesByStat: a file whose size, mode and modification time are
// those stored, and that was last modified well before, is served from
// the cache without being read; one modified just now is read and
// hashed, whatever its stat says, as is one whose stat changed.
func TestCacheGoesByStat(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	quiet := strings.Repeat(" ", len(cachedSource)-1) + "\n" // same size, no findings
	cacheDir := filepath.Join(t.TempDir(), "cache")
	lint := func() []string {
		t.Helper()
		cache, err := OpenCache(cacheDir, testVersion, func(string) string { return "default" })
		if err != nil {
			t.Fatal(err)
		}
		l := &Linter{Runner: newDefaultRunner(), Store: cache}
		diags, errs := l.Lint([]string{path}, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if err := cache.Save(); err != nil {
			t.Fatal(err)
		}
		return keys(diags)
	}
	write := func(src string, mtime time.Time) {
		t.Helper()
		writeTree(t, dir, map[string]string{"a.py": src})
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-time.Hour).Truncate(time.Second)
	write(cachedSource, long)
	found := lint()
	if len(found) == 0 {
		t.Fatal("the fixture has no findings")
	}
	// The contents change behind an unchanged, settled stat: the stored
	// findings are served, which shows the file was not read.
	write(quiet, long)
	if got := lint(); !slices.Equal(got, found) {
		t.Errorf("with a settled stat the file was read again: %v", got)
	}
	// A file modified just now is read, even when its stat is the one
	// stored: a second change may have kept the modification time.
	now := time.Now()
	write(quiet, now)
	if got := lint(); len(got) != 0 {
		t.Errorf("a file just modified was served from the cache: %v", got)
	}
	write(cachedSource, now)
	if got := lint(); !slices.Equal(got, found) {
		t.Errorf("a change within the clock's resolution was missed: %v, want %v", got, found)
	}
	// So is a change whose stat differs only in the modification time.
	write(cachedSource, long)
	if got := lint(); !slices.Equal(got, found) {
		t.Errorf("after a change back: %v, want %v", got, found)
	}
	write(quiet, long.Add(time.Second))
	if got := lint(); len(got) != 0 {
		t.Errorf("a changed modification time was not noticed: %v", got)
	}
}

// TestSourceIdentity: a build names its source when a module checksum or
// a clean commit does, and only then.
func TestSourceIdentity(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	main := debug.Module{Path: "github.com/torchlint/torchlint", Version: "(devel)"}
	cases := []struct {
		name string
		info debug.BuildInfo
		ok   bool
		want bool
	}{
		{"no build information", debug.BuildInfo{}, false, false},
		{"clean checkout", debug.BuildInfo{Main: main, Settings: vcs("abc123", "false")}, true, true},
		{"modified checkout", debug.BuildInfo{Main: main, Settings: vcs("abc123", "true")}, true, false},
		{"no version control", debug.BuildInfo{Main: main}, true, false},
		{"go install", debug.BuildInfo{Main: debug.Module{Path: main.Path, Version: "v0.1.0", Sum: "h1:xyz="}}, true, true},
	}
	for _, c := range cases {
		got := sourceIdentity(&c.info, c.ok)
		if (got != "") != c.want {
			t.Errorf("%s: identity %q, want one: %v", c.name, got, c.want)
		}
	}
	a := sourceIdentity(&debug.BuildInfo{Main: main, Settings: vcs("abc123", "false")}, true)
	b := sourceIdentity(&debug.BuildInfo{Main: main, Settings: vcs("def456", "false")}, true)
	if a == b {
		t.Errorf("two commits share the identity %q", a)
	}
}

// TestCacheSettledProject: a run over an unchanged project gives the
// stored findings and leaves the cache as it was; a change in another
// file of the project changes the digest, and the facts are worked out
// again.
func TestCacheSettledProject(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"nets.py":  "import torch.nn as nn\n\nclass Classifier(nn.Module):\n    pass\n",
		"train.py": "from nets import Classifier\n\ndef evaluate(x, outs):\n    clf = Classifier()\n    outs.append(clf(x))\n",
	})
	cacheDir := filepath.Join(t.TempDir(), "cache")
	train := filepath.Join(dir, "train.py")
	lint := func() (*Cache, []string) {
		t.Helper()
		cache, err := OpenCache(cacheDir, testVersion, func(string) string { return "default" })
		if err != nil {
			t.Fatal(err)
		}
		l := &Linter{Runner: newDefaultRunner(), Store: cache, Files: projectFiles}
		diags, errs := l.Lint([]string{train}, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if err := cache.Save(); err != nil {
			t.Fatal(err)
		}
		return cache, keys(diags)
	}
	_, first := lint()
	if len(first) == 0 {
		t.Fatal("no finding for a module class of another file")
	}
	cache, again := lint()
	if !slices.Equal(again, first) {
		t.Errorf("unchanged project: %v, want %v", again, first)
	}
	if cache.dirty {
		t.Error("a run over an unchanged project changed the cache")
	}
	// The target edited, the other file served from the cache: linted
	// before the project is solved, then again with its facts.
	writeTree(t, dir, map[string]string{"train.py": "from nets import Classifier\n\n\ndef evaluate(x, outs):\n    clf = Classifier()\n    outs.append(clf(x))\n"})
	if _, edited := lint(); len(edited) != len(first) || len(edited) > 0 && !strings.Contains(edited[0], ":6:") {
		t.Errorf("after an edit of train.py: %v, want %v a line lower", edited, first)
	}
	writeTree(t, dir, map[string]string{"nets.py": "class Classifier:\n    pass\n"})
	if _, after := lint(); len(after) != 0 {
		t.Errorf("after Classifier stopped being a module: %v", after)
	}
}

// TestCacheFlushesEachProject: the entries a project's files were kept
// with are encoded once the project is linted, before the next project
// is, and a second run over both projects serves them from the cache.
func TestCacheFlushesEachProject(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a", "b"} {
		writeTree(t, filepath.Join(dir, p), map[string]string{
			"pyproject.toml": "[project]\nname = \"" + p + "\"\n",
			"nets.py":        "import torch.nn as nn\n\nclass Classifier(nn.Module):\n    pass\n",
			"train.py":       "from nets import Classifier\n\ndef evaluate(x, outs):\n    clf = Classifier()\n    outs.append(clf(x))\n",
		})
	}
	cacheDir := filepath.Join(t.TempDir(), "cache")
	named := []string{filepath.Join(dir, "a", "train.py"), filepath.Join(dir, "b", "train.py")}
	lint := func() (*Cache, []string, []int) {
		t.Helper()
		cache, err := OpenCache(cacheDir, testVersion, func(string) string { return "default" })
		if err != nil {
			t.Fatal(err)
		}
		// A store that records how many entries are waiting to be
		// encoded each time the next project's first file is kept.
		var waiting []int
		rec := &recordingStore{Cache: cache, before: func() {
			cache.mu.Lock()
			waiting = append(waiting, len(cache.kept))
			cache.mu.Unlock()
		}}
		l := &Linter{Runner: newDefaultRunner(), Store: rec, Files: projectFiles}
		diags, errs := l.Lint(named, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		cache.mu.Lock()
		left := len(cache.kept)
		cache.mu.Unlock()
		if left != 0 {
			t.Errorf("%d entries left unencoded after Lint", left)
		}
		if err := cache.Save(); err != nil {
			t.Fatal(err)
		}
		return cache, keys(diags), waiting
	}
	_, first, waiting := lint()
	if len(first) != 2 {
		t.Fatalf("findings of the two projects: %v", first)
	}
	// Each project keeps its two files; the second project's first Keep
	// must find nothing of the first waiting.
	if len(waiting) != 4 || waiting[0] != 0 || waiting[2] != 0 {
		t.Errorf("entries waiting at each Keep: %v, want [0 1 0 1]", waiting)
	}
	cache, again, _ := lint()
	if !slices.Equal(again, first) {
		t.Errorf("second run: %v, want %v", again, first)
	}
	if cache.dirty {
		t.Error("a second run over unchanged projects changed the cache")
	}
}

// recordingStore is a Cache that calls before ahead of each Keep.
type recordingStore struct {
	*Cache
	before func()
}

func (r *recordingStore) Keep(path string, st Stat, e *Entry) {
	r.before()
	r.Cache.Keep(path, st, e)
}

// TestCacheSavesStatsWhenWorthIt: a run that found a few files touched
// but unchanged leaves the cache as it was; one that found many saves
// their new stats, so that the next run reads none of them.
func TestCacheSavesStatsWhenWorthIt(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < restatsWorthSaving+6; i++ {
		files[fmt.Sprintf("m%03d.py", i)] = "x = 1\n"
	}
	writeTree(t, dir, files)
	cacheDir := filepath.Join(t.TempDir(), "cache")
	touch := func(n int, at time.Time) {
		t.Helper()
		for i := 0; i < n; i++ {
			if err := os.Chtimes(filepath.Join(dir, fmt.Sprintf("m%03d.py", i)), at, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	run := func() *Cache {
		t.Helper()
		cache, err := OpenCache(cacheDir, testVersion, func(string) string { return "default" })
		if err != nil {
			t.Fatal(err)
		}
		l := &Linter{Runner: newDefaultRunner(), Store: cache, Files: projectFiles}
		if _, errs := l.Lint([]string{filepath.Join(dir, "m000.py")}, nil); len(errs) > 0 {
			t.Fatal(errs)
		}
		if err := cache.Save(); err != nil {
			t.Fatal(err)
		}
		return cache
	}
	long := time.Now().Add(-time.Hour).Truncate(time.Second)
	touch(len(files), long)
	run()
	stored, err := os.ReadFile(run().path)
	if err != nil {
		t.Fatal(err)
	}
	touch(1, long.Add(time.Second))
	if c := run(); c.restats != 1 {
		t.Fatalf("%d files found touched, want 1", c.restats)
	} else if now, _ := os.ReadFile(c.path); !bytes.Equal(now, stored) {
		t.Error("one touched file rewrote the cache")
	}
	touch(len(files), long.Add(2*time.Second))
	if c := run(); c.restats != len(files) {
		t.Fatalf("%d files found touched, want %d", c.restats, len(files))
	}
	if c := run(); c.restats != 0 {
		t.Errorf("%d files read again after their stats were saved", c.restats)
	}
}

// TestCacheEditsWithoutSolving: after an edit that leaves the edited
// file's summary as it was (a comment, a change inside a body), its
// findings are made with the answers its last version got, and the
// project's facts are not worked out again; after any other edit they
// are. Whichever way, every run gives what a run without the cache
// gives, for the files named and the files they were linted with.
func TestCacheEditsWithoutSolving(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"pyproject.toml": "[project]\nname = \"p\"\n",
		"nets.py":        "import torch.nn as nn\n\nclass Classifier(nn.Module):\n    pass\n",
		"helpers.py":     "def score(model, x):\n    return model(x)\n",
		"train.py": "from nets import Classifier\nfrom helpers import score\n\n" +
			"def evaluate(x, outs):\n    clf = Classifier()\n    outs.append(clf(x))\n    return score(clf, x)\n",
	})
	cacheDir := filepath.Join(t.TempDir(), "cache")
	all := []string{filepath.Join(dir, "helpers.py"), filepath.Join(dir, "nets.py"), filepath.Join(dir, "train.py")}
	train := all[2:]
	lint := func(named []string, store bool) (found []string, solved bool) {
		t.Helper()
		l := &Linter{Runner: newDefaultRunner(), Files: projectFiles, Ahead: true}
		var cache *Cache
		if store {
			var err error
			if cache, err = OpenCache(cacheDir, testVersion, func(string) string { return "default" }); err != nil {
				t.Fatal(err)
			}
			l.Store = cache
		}
		diags, errs := l.Lint(named, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if cache != nil {
			if err := cache.Save(); err != nil {
				t.Fatal(err)
			}
		}
		_, solved = l.solved.Load(dir)
		return keys(diags), solved
	}
	edit := func(name string, change func(string) string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		writeTree(t, dir, map[string]string{name: change(string(b))})
	}
	appendLine := func(line string) func(string) string { return func(s string) string { return s + line } }
	steps := []struct {
		what   string
		named  []string
		file   string
		change func(string) string
		solves bool
	}{
		{"first run", all, "", nil, true},
		{"a comment appended to the target", all, "train.py", appendLine("# tuned\n"), false},
		{"a body changed on its own line", all, "train.py", func(s string) string {
			return strings.Replace(s, "    return score(clf, x)\n", "    return score(clf, x);\n", 1)
		}, false},
		{"a line inserted above the definitions", all, "train.py", func(s string) string { return "# header\n" + s }, true},
		{"a helper that now disables grad", all, "helpers.py", func(string) string {
			return "import torch\n\n@torch.no_grad()\ndef score(model, x):\n    return model(x)\n"
		}, true},
		{"a comment appended to a file not named", train, "nets.py", appendLine("# layers\n"), false},
		{"a file not named whose class stops being a module", train, "nets.py", func(string) string {
			return "class Classifier:\n    pass\n"
		}, true},
		{"nothing changed", train, "", nil, false},
	}
	for i, st := range steps {
		if st.change != nil {
			edit(st.file, st.change)
		}
		got, solved := lint(st.named, true)
		want, _ := lint(st.named, false)
		if i == 0 && len(got) == 0 {
			t.Fatal("the project gives no finding to keep")
		}
		t.Logf("%s: %v", st.what, got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: with the cache %v, without %v", st.what, got, want)
		}
		if solved != st.solves {
			t.Errorf("%s: facts worked out again: %v, want %v", st.what, solved, st.solves)
		}
	}
}

// TestExeIdentity: a Go executable is known by the build ID its linker
// wrote, the one `go tool buildid` prints; any other file by the hash of
// its contents.
func TestExeIdentity(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	want := strings.TrimSpace(string(out))
	if want == "" {
		t.Skip("the test binary has no build ID")
	}
	if got := exeIdentity(exe); got != "buildid "+want {
		t.Errorf("the test binary: %q, want the build ID %q", got, want)
	}
	// A file that is not a Go executable, even one that starts as an
	// ELF file would, is hashed.
	dir := t.TempDir()
	for _, src := range []string{"#!/bin/sh\necho hi\n", "\x7fELF not really"} {
		p := filepath.Join(dir, "tool")
		if err := os.WriteFile(p, []byte(src), 0o755); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(src))
		if got, want := exeIdentity(p), "sha256 "+hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%q: %q, want %q", src, got, want)
		}
	}
	if got := exeIdentity(filepath.Join(dir, "missing")); got != "" {
		t.Errorf("a missing file: %q, want none", got)
	}
}

// TestCacheKeepsNotebookSummaries: a notebook's summary, kept under its
// path and "#summary", outlives a run over another project while the
// notebook exists, and goes with it.
func TestCacheKeepsNotebookSummaries(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"nb.ipynb": "{}\n", "b.py": "x = 1\n"})
	nb := filepath.Join(dir, "nb.ipynb")
	key := (&unit{abs: nb}).storeKey()
	open := func() *Cache {
		c, err := OpenCache(filepath.Join(dir, "c"), testVersion, func(string) string { return "k" })
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := open()
	c.Keep(key, Stat{}, &Entry{Summary: &analyzer.Summary{}})
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []bool{false, true} {
		if gone {
			if err := os.Remove(nb); err != nil {
				t.Fatal(err)
			}
		}
		c = open()
		c.Put(filepath.Join(dir, "b.py"), []byte("x = 1\n"), nil) // another file's run
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		if _, ok := open().Previous(key); ok == gone {
			t.Errorf("notebook removed %v: its summary kept %v", gone, ok)
		}
	}
}
