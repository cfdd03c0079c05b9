package project

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/torchlint/torchlint/analyzer"
)

// Linter lints files with the facts of their projects: each file's
// findings are those it gets when its whole project is linted, however
// few of the project's files are named (pre-commit's staged files, an
// editor's buffer, one file on the command line).
type Linter struct {
	Runner *analyzer.Runner
	// Files lists the Python files of the project rooted at root (after
	// the configured excludes). Nil means the files named only.
	Files func(root string) ([]string, error)
	// Src are extra import roots (the configuration's `src`), relative to
	// a project's root.
	Src []string
	// Store, when set, keeps summaries and findings between runs.
	Store Store
	// Workers is the number of files analysed at once; 0 means GOMAXPROCS.
	Workers int
}

// Store keeps, for each file, what linting it gave: its summary, its
// findings and the questions about other files that they depend on.
// Implementations must be safe for concurrent use.
type Store interface {
	Entry(path string, src []byte) (*Entry, bool)
	Keep(path string, src []byte, e *Entry)
}

// Entry is what a Store keeps of one file.
type Entry struct {
	Summary *analyzer.Summary
	// Linted says whether Diags and Asked hold the file's findings and
	// the facts they were found with; a file only summarized has none.
	Linted bool
	Diags  []analyzer.Diagnostic
	Asked  map[string]string
}

// unit is one Python file of a run.
type unit struct {
	path   string // as named or discovered
	abs    string
	src    []byte
	target bool
	err    error
	// readErr is the read diagnostic of a target that cannot be read.
	readErr *analyzer.Diagnostic
	entry   *Entry
	fresh   bool // entry was computed in this run
}

// FindRoot returns the root of the project a file belongs to: the closest
// folder above it with a pyproject.toml that has a [tool.torchlint]
// table, else the closest with a pyproject.toml, setup.py or setup.cfg,
// else the root of its git repository, else the working directory when
// the file is inside it, else the file's own folder.
func FindRoot(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Dir(path)
	}
	dir := filepath.Dir(abs)
	cwd, _ := os.Getwd()
	marked, gitRoot := "", ""
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "pyproject.toml")); err == nil {
			if hasToolTable(data) {
				return d
			}
			if marked == "" {
				marked = d
			}
		}
		if marked == "" && (exists(filepath.Join(d, "setup.py")) || exists(filepath.Join(d, "setup.cfg"))) {
			marked = d
		}
		if gitRoot == "" && exists(filepath.Join(d, ".git")) {
			gitRoot = d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	switch {
	case marked != "":
		return marked
	case gitRoot != "":
		return gitRoot
	case cwd != "" && (dir == cwd || strings.HasPrefix(dir, cwd+string(filepath.Separator))):
		return cwd
	}
	return dir
}

func hasToolTable(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		if l := strings.TrimSpace(line); l == "[tool.torchlint]" || strings.HasPrefix(l, "[tool.torchlint.") {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Lint lints the named Python files (notebooks are linted alone, as no
// file imports them) and returns their findings and the errors of files
// that could not be linted. override, when set, gives the source of a
// file in place of its contents on disk (an editor's unsaved buffer,
// standard input).
func (l *Linter) Lint(paths []string, override map[string][]byte) ([]analyzer.Diagnostic, []error) {
	var diags []analyzer.Diagnostic
	var errs []error
	var py []string
	for _, p := range paths {
		if analyzer.IsNotebook(p) {
			d, err := l.Runner.LintFile(p)
			diags = append(diags, d...)
			if err != nil {
				errs = append(errs, err)
			}
			continue
		}
		py = append(py, p)
	}
	byRoot := map[string][]string{}
	for _, p := range py {
		r := FindRoot(p)
		byRoot[r] = append(byRoot[r], p)
	}
	roots := make([]string, 0, len(byRoot))
	for r := range byRoot {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	for _, r := range roots {
		d, e := l.lintProject(r, byRoot[r], override)
		diags = append(diags, d...)
		errs = append(errs, e...)
	}
	return diags, errs
}

// lintProject lints targets, files of the project rooted at root.
func (l *Linter) lintProject(root string, targets []string, override map[string][]byte) ([]analyzer.Diagnostic, []error) {
	units := map[string]*unit{}
	var order []*unit
	add := func(p string, target bool) {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		abs = filepath.Clean(abs)
		if u := units[abs]; u != nil {
			u.target = u.target || target
			if target {
				u.path = p
			}
			return
		}
		u := &unit{path: p, abs: abs, target: target}
		units[abs] = u
		order = append(order, u)
	}
	for _, t := range targets {
		add(t, true)
	}
	if l.Files != nil {
		if files, err := l.Files(root); err == nil {
			for _, f := range files {
				if strings.HasSuffix(f, ".py") {
					add(f, false)
				}
			}
		}
	}
	// First pass: summaries of every file, and the targets' findings with
	// no facts yet, recording what they asked.
	empty := &Graph{}
	l.parallel(len(order), func(i int) {
		u := order[i]
		u.src, u.readErr, u.err = l.read(u, override)
		if u.err != nil {
			return
		}
		if u.readErr != nil {
			u.entry = &Entry{Linted: true, Diags: []analyzer.Diagnostic{*u.readErr}}
			return
		}
		if l.Store != nil {
			if e, ok := l.Store.Entry(u.abs, u.src); ok && (e.Linted || !u.target) {
				u.entry = e
				return
			}
		}
		u.fresh = true
		if !u.target {
			u.entry = &Entry{Summary: l.summarize(u)}
			return
		}
		ff := empty.Facts(u.abs)
		d, s := l.analyze(u, ff, true)
		u.entry = &Entry{Summary: s, Linted: true, Diags: d, Asked: ff.Asked}
	})
	g := NewGraph(root, l.Src)
	for _, u := range order {
		if u.entry != nil {
			g.Add(u.abs, u.entry.Summary)
		} else {
			g.Add(u.abs, nil)
		}
	}
	g.Solve()
	// Second pass: a target whose questions now get other answers is
	// linted again with the project's facts.
	var mu sync.Mutex
	var diags []analyzer.Diagnostic
	var errs []error
	l.parallel(len(order), func(i int) {
		u := order[i]
		if u.err != nil {
			if u.target {
				mu.Lock()
				errs = append(errs, u.err)
				mu.Unlock()
			}
			return
		}
		if !u.target {
			if u.fresh && l.Store != nil {
				l.Store.Keep(u.abs, u.src, u.entry)
			}
			return
		}
		ff := g.Facts(u.abs)
		if u.readErr == nil && ff.Stale(u.entry.Asked) {
			ff = g.Facts(u.abs)
			d, _ := l.analyze(u, ff, false)
			u.entry = &Entry{Summary: u.entry.Summary, Linted: true, Diags: d, Asked: ff.Asked}
			u.fresh = true
		}
		if u.fresh && u.readErr == nil && l.Store != nil {
			l.Store.Keep(u.abs, u.src, u.entry)
		}
		d := make([]analyzer.Diagnostic, len(u.entry.Diags))
		copy(d, u.entry.Diags)
		for j := range d {
			d[j].Path = u.path
		}
		mu.Lock()
		diags = append(diags, d...)
		mu.Unlock()
	})
	return diags, errs
}

// read returns a unit's source. A target that cannot be read gets the
// runner's read diagnostic (TL002), as when linted alone; another file
// of the project that cannot be read is left out of the graph.
func (l *Linter) read(u *unit, override map[string][]byte) ([]byte, *analyzer.Diagnostic, error) {
	if src, ok := override[u.path]; ok {
		return src, nil, nil
	}
	if src, ok := override[u.abs]; ok {
		return src, nil, nil
	}
	src, d := l.Runner.ReadSource(u.path)
	if d != nil && !u.target {
		return nil, nil, fmt.Errorf("%s: %s", u.path, d.Message)
	}
	return src, d, nil
}

// analyze lints (and, with summarize, summarizes) one unit; a panic in
// a rule becomes an error naming the file, never fatal to the others.
func (l *Linter) analyze(u *unit, ff *FileFacts, summarize bool) (diags []analyzer.Diagnostic, sum *analyzer.Summary) {
	defer func() {
		if p := recover(); p != nil {
			diags, sum = nil, nil
			u.err = fmt.Errorf("internal error while linting %s: %v", u.path, p)
		}
	}()
	return l.Runner.Analyze(u.path, u.src, ff, summarize)
}

// summarize summarizes a file that is not linted, skipping one that
// cannot be parsed without harm.
func (l *Linter) summarize(u *unit) (sum *analyzer.Summary) {
	defer func() {
		if recover() != nil {
			sum = nil
		}
	}()
	return l.Runner.Summarize(u.path, u.src)
}

// Facts returns, for each of the named files, what the rest of its
// project knows, from the summaries of the projects' files (the store's,
// or parsed afresh). It serves where files are linted one source at a
// time, as the fixes do.
func (l *Linter) Facts(paths []string, override map[string][]byte) func(path string) analyzer.Facts {
	graphs := map[string]*Graph{}
	for _, p := range paths {
		if analyzer.IsNotebook(p) {
			continue
		}
		r := FindRoot(p)
		if graphs[r] != nil {
			continue
		}
		files := []string{p}
		if l.Files != nil {
			if more, err := l.Files(r); err == nil {
				files = append(files, more...)
			}
		}
		g := NewGraph(r, l.Src)
		seen := map[string]bool{}
		for _, f := range files {
			abs, err := filepath.Abs(f)
			if err != nil || seen[abs] || !strings.HasSuffix(f, ".py") && f != p {
				continue
			}
			seen[abs] = true
			u := &unit{path: f, abs: filepath.Clean(abs)}
			var s *analyzer.Summary
			if u.src, u.readErr, u.err = l.read(u, override); u.err == nil && u.readErr == nil {
				if e, ok := l.loadEntry(u); ok {
					s = e.Summary
				} else {
					s = l.summarize(u)
				}
			}
			g.Add(u.abs, s)
		}
		g.Solve()
		graphs[r] = g
	}
	return func(path string) analyzer.Facts {
		g := graphs[FindRoot(path)]
		if g == nil {
			return nil
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil
		}
		return g.Facts(abs)
	}
}

func (l *Linter) loadEntry(u *unit) (*Entry, bool) {
	if l.Store == nil {
		return nil, false
	}
	return l.Store.Entry(u.abs, u.src)
}

func (l *Linter) parallel(n int, do func(i int)) {
	w := l.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
