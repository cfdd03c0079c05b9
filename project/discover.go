package project

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/torchlint/torchlint/internal/fsutil"
)

// defaultExcludes are the names Ruff skips by default, and torchlint's
// own cache.
var defaultExcludes = []string{
	".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache",
	".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv",
	".vscode", "__pypackages__", "_build", "buck-out", "dist", "node_modules", "site-packages", "venv",
	"__pycache__", ".torchlint_cache",
}

// Discoverer expands the paths named on the command line into the files
// to lint, as Ruff does: a file named explicitly is always linted
// (unless force-exclude and an exclude pattern say otherwise); a
// directory is walked for *.py and *.ipynb files, skipping excluded names
// and patterns and, unless told not to, what .gitignore files and
// .git/info/exclude ignore. Symlinked directories are not followed;
// symlinked files are.
type Discoverer struct {
	// Configs govern the excludes of each directory.
	Configs *Configs
	// Command-line overrides: Exclude replaces the configured excludes
	// when ExcludeSet; ExtendExclude adds to them (both anchored with
	// Anchor); the pointers override the configuration when not nil.
	Exclude          []string
	ExcludeSet       bool
	ExtendExclude    []string
	RespectGitignore *bool
	ForceExclude     *bool
	// Warn receives problems that do not stop discovery, such as an
	// unreadable directory.
	Warn func(string)
}

// Discover returns the files to lint, in the order named, each
// directory's files sorted, without duplicates.
func (d *Discoverer) Discover(paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: no such file or directory", root)
			}
			return nil, fmt.Errorf("%s: %w", root, fsutil.UnwrapPath(err))
		}
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			skip, err := d.forceExcluded(abs)
			if err != nil {
				return nil, err
			}
			if !skip {
				add(filepath.Clean(root))
			}
			continue
		}
		s, err := d.Configs.ForDir(abs)
		if err != nil {
			return nil, err
		}
		respect := s.RespectGitignore
		if d.RespectGitignore != nil {
			respect = *d.RespectGitignore
		}
		w := &walk{d: d, root: filepath.Clean(root), absRoot: abs, respect: respect}
		var patterns []gitignore.Pattern
		if respect {
			patterns = w.ancestorIgnores()
		}
		var files []string
		if err := w.dir(filepath.Clean(root), abs, patterns, &files); err != nil {
			return nil, err
		}
		for _, f := range files {
			add(f)
		}
	}
	return out, nil
}

// ForceExcluded reports whether a file named on the command line (or
// read from standard input under that name) is skipped: force-exclude is
// on and an exclude pattern matches it or a directory above it, up to
// its project root.
func (d *Discoverer) ForceExcluded(path string) (bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	return d.forceExcluded(abs)
}

func (d *Discoverer) forceExcluded(abs string) (bool, error) {
	s, err := d.Configs.ForDir(filepath.Dir(abs))
	if err != nil {
		return false, err
	}
	force := s.ForceExclude
	if d.ForceExclude != nil {
		force = *d.ForceExclude
	}
	return force && d.excludedPath(abs, s), nil
}

// patterns returns the exclude patterns in force for entries of a
// directory governed by s.
func (d *Discoverer) patterns(s *Settings) []string {
	var ps []string
	switch {
	case d.ExcludeSet:
		ps = d.Exclude
	case s.ExcludeSet:
		ps = s.Exclude
	default:
		ps = defaultExcludes
	}
	ps = append(append(append([]string(nil), ps...), s.ExtendExclude...), d.ExtendExclude...)
	return ps
}

// excluded reports whether the entry at abs matches an exclude pattern: a
// pattern without a slash matches its name, one with a slash its whole
// (absolute, anchored) path.
func excluded(abs string, patterns []string) bool {
	slashed := filepath.ToSlash(abs)
	base := path.Base(slashed)
	for _, p := range patterns {
		var ok bool
		if strings.Contains(p, "/") {
			ok, _ = doublestar.Match(p, slashed)
		} else {
			ok, _ = doublestar.Match(p, base)
		}
		if ok {
			return true
		}
	}
	return false
}

// excludedPath reports whether a file named on the command line, or any
// directory above it up to its project root, is excluded.
func (d *Discoverer) excludedPath(abs string, s *Settings) bool {
	patterns := d.patterns(s)
	for p := abs; ; p = filepath.Dir(p) {
		if excluded(p, patterns) {
			return true
		}
		parent := filepath.Dir(p)
		if parent == p || p == s.Root {
			return false
		}
	}
}

// walk is the state of one directory walk.
type walk struct {
	d       *Discoverer
	root    string // as named on the command line
	absRoot string
	respect bool
	gitRoot string // the repository holding the walk, or "" outside one
}

// parts splits an absolute path into its components relative to the
// repository root (or the walk's root outside a repository), as
// gitignore patterns expect.
func (w *walk) parts(abs string) []string {
	base := w.gitRoot
	if base == "" {
		base = w.absRoot
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == "." {
		return nil
	}
	return strings.Split(filepath.ToSlash(rel), "/")
}

// ancestorIgnores finds the repository that holds the walk's root and
// reads .git/info/exclude and the .gitignore files of the directories
// between the repository root and the walk's root.
func (w *walk) ancestorIgnores() []gitignore.Pattern {
	for dir := w.absRoot; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			w.gitRoot = dir
			break
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
	}
	var patterns []gitignore.Pattern
	if exclude := excludeFile(w.gitRoot); exclude != "" {
		patterns = w.readIgnore(exclude, nil)
	}
	var chain []string
	for dir := filepath.Dir(w.absRoot); strings.HasPrefix(dir, w.gitRoot) && dir != filepath.Dir(w.gitRoot); dir = filepath.Dir(dir) {
		chain = append(chain, dir)
		if dir == w.gitRoot {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		patterns = append(patterns, w.readIgnore(filepath.Join(chain[i], ".gitignore"), w.parts(chain[i]))...)
	}
	return patterns
}

// excludeFile returns the info/exclude file of the repository whose work
// tree is root. In a linked worktree or a submodule, .git is a file
// naming the git folder (`gitdir: ...`), and a worktree's git folder
// names the repository's common folder, which holds info/exclude.
func excludeFile(root string) string {
	dotgit := filepath.Join(root, ".git")
	info, err := os.Stat(dotgit)
	if err != nil || info.IsDir() {
		return filepath.Join(dotgit, "info", "exclude")
	}
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return ""
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gitdir := strings.TrimSpace(rest)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(root, gitdir)
	}
	if c, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitdir, common)
		}
		gitdir = common
	}
	return filepath.Join(gitdir, "info", "exclude")
}

// readIgnore reads the patterns of one ignore file, which apply below
// domain; a missing file has none.
func (w *walk) readIgnore(file string, domain []string) []gitignore.Pattern {
	f, err := os.Open(file)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.d.Warn(fmt.Sprintf("%s: %v; its patterns are not applied", file, fsutil.UnwrapPath(err)))
		}
		return nil
	}
	defer func() { _ = f.Close() }()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// dir walks one directory. patterns are the gitignore patterns in force
// above it; its own .gitignore adds to them for its entries.
func (w *walk) dir(dir, abs string, patterns []gitignore.Pattern, files *[]string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if dir == w.root {
			return fmt.Errorf("%s: %w", dir, fsutil.UnwrapPath(err))
		}
		w.d.Warn(fmt.Sprintf("%s: %v; skipped", dir, fsutil.UnwrapPath(err)))
		return nil
	}
	if w.respect && listed(entries, ".gitignore") {
		if own := w.readIgnore(filepath.Join(abs, ".gitignore"), w.parts(abs)); len(own) > 0 {
			patterns = append(append([]gitignore.Pattern(nil), patterns...), own...)
		}
	}
	s, err := w.d.Configs.ForListedDir(abs, entries)
	if err != nil {
		return err
	}
	excludes := w.d.patterns(s)
	matcher := gitignore.NewMatcher(patterns)
	for _, e := range entries {
		name := e.Name()
		p, pabs := filepath.Join(dir, name), filepath.Join(abs, name)
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			switch {
			case err != nil:
				if strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".ipynb") {
					w.d.Warn(fmt.Sprintf("%s: %v; skipped", p, fsutil.UnwrapPath(err)))
				}
				continue
			case st.IsDir():
				continue // symlinked directories are not followed
			case !st.Mode().IsRegular():
				continue
			}
		} else if !isDir && !e.Type().IsRegular() {
			continue // sockets, devices, FIFOs
		}
		if excluded(pabs, excludes) || (len(patterns) > 0 && matcher.Match(w.parts(pabs), isDir)) {
			continue
		}
		if isDir {
			if err := w.dir(p, pabs, patterns, files); err != nil {
				return err
			}
			continue
		}
		if strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".ipynb") {
			*files = append(*files, p)
		}
	}
	return nil
}
