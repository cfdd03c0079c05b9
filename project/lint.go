package project

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/workers"
)

// Linter lints files with the facts of their projects: each file's
// findings are those it gets when its whole project is linted, however
// few of the project's files are named (pre-commit's staged files, an
// editor's buffer, one file on the command line).
type Linter struct {
	Runner *analyzer.Runner
	// Files lists the Python files and notebooks of the project rooted at
	// root (after the configured excludes). Nil means the files named only.
	Files func(root string) ([]string, error)
	// Named are the paths named on the command line (an editor's
	// workspace folder): a file with no marker of a project root above it
	// belongs to the project of the outermost named folder that holds it,
	// else to that of its own folder.
	Named []string
	// Src returns the extra import roots of the project rooted at root
	// (the `src` setting of its configuration), absolute or relative to
	// root. Nil means none.
	Src func(root string) []string
	// Store, when set, keeps summaries and findings between runs.
	Store Store
	// Workers is the number of files analysed at once; 0 means GOMAXPROCS.
	Workers int
	// Ahead keeps the facts of each project once solved, for LintAhead
	// (an editor's answers as it types). Without it, a project's facts
	// are freed once its files are linted, so that a run over many
	// projects holds one at a time.
	Ahead bool

	roots   sync.Map // folder → its project root
	solved  sync.Map // project root → its last solved *Graph
	markers markers
	named   struct {
		once sync.Once
		dirs []string // absolute, outermost first
	}
}

// root returns the project root of a file, worked out once per folder:
// FindRoot's, except that a file with no marker above it has for a root
// the outermost named folder that holds it, if any, else the folder that
// holds its outermost package (packageHome).
func (l *Linter) root(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Dir(path)
	}
	dir := filepath.Dir(abs)
	if r, ok := l.roots.Load(dir); ok {
		return r.(string)
	}
	r := l.markers.root(dir)
	if r == "" {
		if named, ok := l.namedHolder(dir); ok {
			r = named
		} else {
			r = l.packageHome(dir)
		}
	}
	l.roots.Store(dir, r)
	return r
}

// packageHome returns, for a folder of a package (one with an
// __init__.py, or a namespace portion of one) and no marker above it,
// the outermost folder above it whose scripts import the package on the
// way (`from nerf.train_utils import ...`): a file of the package named
// alone has the root it has when that folder is named (belongs gives the
// scripts' root the package's files). Else dir.
func (l *Linter) packageHome(dir string) string {
	// The folder above a package is its home where a script there
	// imports it; a folder of projects, a home folder or the file
	// system's root is none (a repository whose own root holds an
	// __init__.py is the home of its packages, its scripts importing
	// them from there).
	home := dir
	for d := dir; l.markers.of(d).pkg || l.namespaceIn(d, ""); d = filepath.Dir(d) {
		up := filepath.Dir(d)
		if up == d || isHome(up) {
			break
		}
		if importedIn(up, filepath.Base(d)) {
			home = up
		}
	}
	return home
}

// importedIn reports whether a Python file of dir, other than an
// __init__.py, imports the package or module name (`from nerf import
// ...`, `import nerf.utils`), as the imports at the start of its text
// show (scanImports).
func importedIn(dir, name string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	names := func(module string) bool { return module == name || strings.HasPrefix(module, name+".") }
	head := make([]byte, 64<<10)
	read := 0
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".py") || e.Name() == "__init__.py" {
			continue
		}
		if read++; read > 64 {
			break
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		n, _ := io.ReadFull(f, head)
		_ = f.Close() // read only: nothing to lose
		found := false
		scanImports(head[:n], func(st importStmt) {
			found = found || names(st.from) || st.from == "" && slices.ContainsFunc(st.names, func(imp [2]string) bool { return names(imp[0]) })
		})
		if found {
			return true
		}
	}
	return false
}

// isHome reports whether dir is the user's home folder, or a folder
// above it.
func isHome(dir string) bool {
	h, err := os.UserHomeDir()
	return dir == filepath.Dir(dir) || err == nil && within(filepath.Clean(h), dir)
}

// belongs reports whether a Python file that discovery finds under root
// is a file of the project rooted there: one whose root is root, or,
// under a root that has no marker, one of a package that root's scripts
// can import: every folder from the root down to the file's holds an
// __init__.py or is a namespace portion of the package above it, and
// none has a marker. Other folders under an unmarked root (a scripts
// folder, another project, a home folder's contents) are left out.
func (l *Linter) belongs(path, root string) bool {
	if l.root(path) == root {
		return true
	}
	abs, err := filepath.Abs(path)
	if err != nil || l.markers.root(root) != "" {
		return false
	}
	dir := filepath.Dir(abs)
	if dir == root || !within(dir, root) {
		return false
	}
	for d := dir; d != root; d = filepath.Dir(d) {
		if mk := l.markers.of(d); mk.project || mk.torchlint || !mk.pkg && !l.namespaceIn(d, root) {
			return false
		}
	}
	return true
}

// namespaceIn reports whether folder d, with no __init__.py, is a
// namespace portion of a package below root (`domainbed/lib/`, imported
// as `domainbed.lib` since Python 3.3): its parent, not root, is a
// package.
func (l *Linter) namespaceIn(d, root string) bool {
	parent := filepath.Dir(d)
	return parent != d && parent != root && l.markers.of(parent).pkg
}

// namedHolder returns the outermost named folder that holds dir, and
// whether there is one: the root of a project with no marker, as the
// user named it.
func (l *Linter) namedHolder(dir string) (string, bool) {
	l.named.once.Do(func() {
		for _, p := range l.Named {
			abs, err := filepath.Abs(p)
			if err != nil {
				continue
			}
			if info, err := os.Stat(abs); err == nil && info.IsDir() {
				l.named.dirs = append(l.named.dirs, abs)
			}
		}
		slices.SortFunc(l.named.dirs, func(a, b string) int { return len(a) - len(b) })
	})
	for _, n := range l.named.dirs {
		if within(dir, n) {
			return n, true
		}
	}
	return dir, false
}

// within reports whether the clean absolute path p is dir or under it.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// Root returns the project root of a file: the folder its imports and
// facts are resolved from.
func (l *Linter) Root(path string) string { return l.root(path) }

// src returns the extra import roots of the project rooted at root.
func (l *Linter) src(root string) []string {
	if l.Src == nil {
		return nil
	}
	return l.Src(root)
}

// Store keeps, for each file, what linting it gave: its summary, its
// findings and the questions about other files that they depend on.
// Implementations must be safe for concurrent use. A Store that also
// has a Flush method has it called after each project is linted or
// solved (see Cache.Flush).
type Store interface {
	// Entry returns what is kept of the file at path for the contents
	// whose SHA-256 is sum, or, with sum nil, for the contents the file's
	// stat st vouches for (see Stat.Vouches).
	Entry(path string, sum *[32]byte, st Stat) (*Entry, bool)
	// Keep keeps e for the contents whose SHA-256 is e.Hash, of the file
	// at path whose stat, taken before they were read, is st.
	Keep(path string, st Stat, e *Entry)
	// Previous returns the entry last kept for the file at path, whatever
	// contents it was kept for: what an edited file was before.
	Previous(path string) (*Entry, bool)
}

// Stat is what a file's metadata says of its contents, taken before the
// file is read: a later change of the contents changes it.
type Stat struct {
	Size, ModTime int64 // bytes; nanoseconds since the epoch
	Mode          uint32
	// Settled: the file had not been modified for a while when its stat
	// was taken, so that a change within the clock's resolution of its
	// modification time cannot have gone unseen.
	Settled bool
}

// settleTime is how long a file must have been left alone for its stat
// to vouch for its contents: above any file system's time resolution.
const settleTime = 2 * time.Second

// Vouches reports whether the stat alone tells that a file still has the
// contents it had when an equal stat was taken.
func (s Stat) Vouches() bool { return s.Settled }

// holds reports whether an entry kept for contents whose SHA-256 is
// keptSum, of a file whose stat was then keptStat, holds for the file
// now: with sum, the SHA-256 of its contents, when they are the same;
// with sum nil, when its stat st vouches that it is unchanged. restat
// says that the contents are the same and the stat is not (the file was
// touched, not changed): the entry's stat is then st, so that the next
// run need not read the file.
func holds(keptSum [32]byte, keptStat Stat, sum *[32]byte, st Stat) (ok, restat bool) {
	if sum == nil {
		return st.Vouches() && keptStat == st, false
	}
	if keptSum != *sum {
		return false, false
	}
	return true, st.Vouches() && keptStat != st
}

// statFile returns the stat of the file at path; the zero Stat, which
// vouches for nothing, when it cannot be taken.
func statFile(path string, now time.Time) Stat {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return Stat{}
	}
	mt := info.ModTime()
	return Stat{Size: info.Size(), ModTime: mt.UnixNano(), Mode: uint32(info.Mode()), Settled: now.Sub(mt) > settleTime}
}

// Entry is what a Store keeps of one file.
type Entry struct {
	Summary *analyzer.Summary
	// Linted says whether Diags and Asked hold the file's findings and
	// the facts they were found with; a file only summarized has none.
	Linted bool
	Diags  []analyzer.Diagnostic
	Asked  Questions
	// Hash is the SHA-256 of the contents the entry holds for; Digest
	// that of the project the findings were found in (see digest): while
	// it is the same, the findings hold without asking anything. SumHash
	// is the SHA-256 of the encoded summary, of which the digest is made.
	Hash, Digest, SumHash [32]byte

	// A stored entry's summary and questions as stored, for the store to
	// keep again without encoding them (Cache.Flush); Summary and Asked
	// are decoded from them when needed.
	summaryEnc, askedEnc   []byte
	summaryOnce, askedOnce sync.Once
}

// decodeSummary decodes the summary of a stored entry. One that does not
// decode is left empty.
func (e *Entry) decodeSummary() {
	e.summaryOnce.Do(func() {
		if e.Summary == nil && e.summaryEnc != nil {
			var err error
			if e.Summary, err = decodeSummary(e.summaryEnc); err != nil {
				e.Summary, e.summaryEnc = &analyzer.Summary{}, nil
			}
		}
	})
}

// decodeAsked decodes the questions of a stored entry. Ones that do not
// decode are replaced by one no answer matches: the findings are then
// never reused once the project changes.
func (e *Entry) decodeAsked() {
	e.askedOnce.Do(func() {
		if e.Asked == nil && e.askedEnc != nil {
			var err error
			if e.Asked, err = decodeAsked(e.askedEnc); err != nil {
				e.Asked, e.askedEnc = Questions{{Key: "!undecodable", Value: "!"}}, nil
			}
		}
	})
}

// encoded returns the entry's summary and questions encoded.
func (e *Entry) encoded() (sum, asked []byte) {
	sum, asked = e.summaryEnc, e.askedEnc
	if sum == nil && e.Summary != nil {
		sum = encodeSummary(e.Summary)
	}
	if asked == nil && e.Asked != nil {
		asked = encodeAsked(e.Asked)
	}
	return sum, asked
}

// fewToParse is the number of files to parse below which a run lints
// them before solving the project's facts, rather than after a first
// solve with their imports alone. A variable for tests, which try both.
var fewToParse = 32

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
	fresh   bool     // entry was computed in this run
	stat    Stat     // taken before src was read
	hash    [32]byte // of the contents, with a Store
	// What a scan of the text of a file to parse shows, taken when it is
	// first read: its source is then dropped, and read again to parse it,
	// so that a run holds the sources of the files being parsed only.
	imports [][]string // each import's module, then the names it takes from it (importGroups)
	light   *analyzer.Summary
}

// storeKey is the name the store keeps a unit's entry under: its path,
// or for a notebook, whose findings the store keeps under its path (it
// is linted on its own, after its project), a name no file has.
func (u *unit) storeKey() string {
	if analyzer.IsNotebook(u.abs) {
		return u.abs + notebookSummary
	}
	return u.abs
}

// notebookSummary follows a notebook's path in the name of the store's
// entry for its summary.
const notebookSummary = "#summary"

// FindRoot returns the root of the project a file belongs to: the closest
// folder above it with a pyproject.toml that has a [tool.torchlint]
// table, else the closest with a pyproject.toml, setup.py, setup.cfg or
// .git, else the file's own folder. Where the command runs plays no part.
func FindRoot(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Dir(path)
	}
	var m markers
	if r := m.root(filepath.Dir(abs)); r != "" {
		return r
	}
	return filepath.Dir(abs)
}

// markers remembers what each folder holds of the files that mark a
// project's root, so that the roots of many files cost one look at each
// folder.
type markers struct {
	seen sync.Map // folder → marks
}

// marks is what a folder holds.
type marks struct {
	torchlint bool // a pyproject.toml with [tool.torchlint]
	project   bool // a pyproject.toml, setup.py, setup.cfg or .git
	pkg       bool // an __init__.py: a package
}

func (m *markers) of(dir string) marks {
	if v, ok := m.seen.Load(dir); ok {
		return v.(marks)
	}
	var mk marks
	pyproject := filepath.Join(dir, "pyproject.toml")
	if data, err := os.ReadFile(pyproject); err == nil {
		_, mk.torchlint, _ = parseConfig(pyproject, data) // as the configuration reads it
		mk.project = true
	}
	mk.project = mk.project || exists(filepath.Join(dir, "setup.py")) || exists(filepath.Join(dir, "setup.cfg")) ||
		exists(filepath.Join(dir, ".git"))
	mk.pkg = exists(filepath.Join(dir, "__init__.py"))
	m.seen.Store(dir, mk)
	return mk
}

// root returns the project root of the files in dir (clean, absolute):
// the closest folder at or above it with a pyproject.toml that
// configures torchlint, which declares the project's extent, else the
// closest with any marker; "" when no folder above has one.
func (m *markers) root(dir string) string {
	marked := ""
	for d := dir; ; d = filepath.Dir(d) {
		mk := m.of(d)
		if mk.torchlint {
			return d
		}
		if marked == "" && mk.project {
			marked = d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return marked
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Lint lints the named Python files and notebooks and returns their
// findings and the errors of files that could not be linted. override,
// when set, gives the source of a file in place of its contents on disk
// (an editor's unsaved buffer, standard input). A notebook is linted
// with the facts of its project, once the project's Python files are:
// the project reads what its notebooks call, but no file imports a
// notebook, so no other file's findings wait for one's.
func (l *Linter) Lint(paths []string, override map[string][]byte) ([]analyzer.Diagnostic, []error) {
	var diags []analyzer.Diagnostic
	var errs []error
	byRoot := map[string][]string{}
	notebooks := map[string][]string{}
	for _, p := range paths {
		r := l.root(p)
		if analyzer.IsNotebook(p) {
			notebooks[r] = append(notebooks[r], p)
		} else {
			byRoot[r] = append(byRoot[r], p)
		}
	}
	roots := make([]string, 0, len(byRoot)+len(notebooks))
	for r := range byRoot {
		roots = append(roots, r)
	}
	for r := range notebooks {
		if byRoot[r] == nil {
			roots = append(roots, r)
		}
	}
	sort.Strings(roots)
	for _, r := range roots {
		var run *projectRun
		if py := byRoot[r]; py != nil {
			d, e, pr := l.lintProject(r, py, override)
			diags, errs, run = append(diags, d...), append(errs, e...), pr
		}
		if nbs := notebooks[r]; nbs != nil {
			d, e := l.lintNotebooks(r, nbs, run, override)
			diags = append(diags, d...)
			errs = append(errs, e...)
		}
		l.flush()
	}
	return diags, errs
}

// projectRun is what lintProject leaves for the notebooks of its project:
// its files, and its facts where it solved them.
type projectRun struct {
	order []*unit
	g     *Graph
}

// lintNotebooks lints the notebooks of the project rooted at root, with
// the facts run solved (or, without them, the facts solved here from the
// summaries of the project's files).
func (l *Linter) lintNotebooks(root string, paths []string, run *projectRun, override map[string][]byte) ([]analyzer.Diagnostic, []error) {
	if run == nil {
		run = &projectRun{order: l.units(root, nil)}
		l.load(run.order, override)
	}
	// Notebooks are linted side by side: the first that asks the
	// project anything solves it, the others wait for that.
	var once sync.Once
	solve := func() *Graph {
		once.Do(func() {
			if run.g == nil {
				for _, u := range run.order {
					u.target = false // only summaries are needed
				}
				run.g = l.solve(root, run.order, override)
			}
		})
		return run.g
	}
	if slices.ContainsFunc(run.order, func(u *unit) bool { return u.err == nil && u.readErr == nil && u.entry == nil }) {
		solve() // a file the store has no summary of: the digest needs it
	}
	var salt []byte
	if l.Store != nil {
		// Cached findings hold while the project's summaries do.
		d := l.digest(root, run.order, entrySum)
		salt = d[:]
	}
	found := make([][]analyzer.Diagnostic, len(paths))
	failed := make([]error, len(paths))
	l.parallel(len(paths), func(i int) {
		p := paths[i]
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		ff := &lazyFacts{solve: solve, path: filepath.Clean(abs)}
		found[i], failed[i] = l.Runner.LintFileWith(p, ff, salt)
	})
	var diags []analyzer.Diagnostic
	var errs []error
	for i := range paths {
		diags = append(diags, found[i]...)
		if failed[i] != nil {
			errs = append(errs, failed[i])
		}
	}
	return diags, errs
}

// lazyFacts are a notebook's facts, whose project is solved only when a
// notebook is linted: a cached notebook asks nothing.
type lazyFacts struct {
	solve func() *Graph
	path  string
	ff    *FileFacts
	names *analyzer.Summary
}

func (lf *lazyFacts) facts() *FileFacts {
	if lf.ff == nil {
		lf.ff = lf.solve().Facts(lf.path)
		if lf.names != nil {
			lf.ff.UseSummary(lf.names)
		}
	}
	return lf.ff
}

// UseSummary hands the facts the names the notebook binds.
func (lf *lazyFacts) UseSummary(s *analyzer.Summary) {
	lf.names = s
	if lf.ff != nil {
		lf.ff.UseSummary(s)
	}
}

// Lookup implements analyzer.Facts.
func (lf *lazyFacts) Lookup(ref string, want analyzer.Want) *analyzer.Object {
	return lf.facts().Lookup(ref, want)
}

// Star implements analyzer.Facts.
func (lf *lazyFacts) Star(name string) string { return lf.facts().Star(name) }

// flush lets a Store that encodes what it keeps (Cache) do so, once a
// project is done with the entries it kept.
func (l *Linter) flush() {
	if f, ok := l.Store.(interface{ Flush() }); ok {
		f.Flush()
	}
}

// lintProject lints targets, files of the project rooted at root.
func (l *Linter) lintProject(root string, targets []string, override map[string][]byte) ([]analyzer.Diagnostic, []error, *projectRun) {
	order := l.units(root, targets)
	l.load(order, override)
	run := &projectRun{order: order}
	if !l.reuse(root, order, override) {
		run.g = l.solve(root, order, override)
	}
	var diags []analyzer.Diagnostic
	var errs []error
	for _, u := range order {
		switch {
		case !u.target:
		case u.err != nil:
			errs = append(errs, u.err)
		default:
			d := make([]analyzer.Diagnostic, len(u.entry.Diags))
			copy(d, u.entry.Diags)
			for j := range d {
				d[j].Path = u.path
			}
			diags = append(diags, d...)
		}
	}
	return diags, errs, run
}

// digest names the state of a project: its root, its import roots and
// the summary of each of its files (sum gives the SHA-256 of a unit's).
// The facts are solved from the summaries alone, so that findings made
// in a project with the same digest asked questions that get the same
// answers, whatever else changed in the files.
func (l *Linter) digest(root string, order []*unit, sum func(*unit) [32]byte) [32]byte {
	sorted := slices.Clone(order)
	slices.SortFunc(sorted, func(a, b *unit) int { return strings.Compare(a.abs, b.abs) })
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%q\x00", root, l.src(root))
	for _, u := range sorted {
		h.Write([]byte(u.abs))
		if u.err != nil {
			h.Write([]byte{0, '!'})
			continue
		}
		h.Write([]byte{0})
		s := sum(u)
		h.Write(s[:])
	}
	var d [32]byte
	h.Sum(d[:0])
	return d
}

// entrySum is the SHA-256 of the summary of a unit's entry.
func entrySum(u *unit) [32]byte {
	if u.entry == nil {
		return [32]byte{}
	}
	return u.entry.SumHash
}

// seal hashes the encoded summary of a fresh entry, for the project's
// digest. The encoding is not kept: the store encodes the summary again
// once the project is linted (see Cache.Flush), rather than hold both
// forms of every summary while the project's facts are solved; encoding
// twice costs less than holding the copies.
func (l *Linter) seal(e *Entry) *Entry {
	if l.Store != nil && e.Summary != nil {
		e.SumHash = sha256.Sum256(encodeSummary(e.Summary))
	}
	return e
}

// reuse brings the targets' findings up to date without solving the
// project's facts, where the store allows: when every target's stored
// findings were made in a project with the summaries of now (its
// digest), or when the few files that changed since keep their
// summaries and each changed target asks only questions its previous
// version asked, whose answers then still hold. It reports whether it
// did; otherwise the entries it made serve solve, whose check of every
// answer against the solved facts has the last word.
func (l *Linter) reuse(root string, order []*unit, override map[string][]byte) bool {
	if l.Store == nil {
		return false
	}
	var changed []*unit
	for _, u := range order {
		if u.err == nil && u.entry == nil {
			changed = append(changed, u)
		}
	}
	if len(changed) > fewToParse {
		return false
	}
	prev := make(map[*unit]*Entry, len(changed))
	for _, u := range changed {
		p, ok := l.Store.Previous(u.storeKey())
		if !ok || (u.target && !p.Linted) {
			return false
		}
		prev[u] = p
	}
	digest := l.digest(root, order, func(u *unit) [32]byte {
		if p := prev[u]; p != nil {
			return p.SumHash
		}
		return entrySum(u)
	})
	for _, u := range order {
		if !u.target || u.err != nil || u.readErr != nil {
			continue
		}
		if e := u.entry; e == nil && prev[u].Digest != digest || e != nil && e.Digest != digest {
			return false
		}
	}
	var failed atomic.Bool
	l.parallel(len(changed), func(i int) {
		u := changed[i]
		p := prev[u]
		if !l.source(u, override) {
			failed.Store(true)
			return
		}
		if !u.target {
			u.entry = l.seal(&Entry{Summary: l.summarize(u), Hash: u.hash})
			l.Store.Keep(u.storeKey(), u.stat, u.entry)
			u.src = nil
		} else {
			p.decodeAsked()
			rf := &replayFacts{was: p.Asked}
			d, s := l.analyze(u, rf, true)
			if u.err != nil {
				u.entry = &Entry{}
				failed.Store(true)
				return // a rule failed: nothing to keep
			}
			u.entry = l.seal(&Entry{Summary: s, Linted: true, Diags: d, Asked: analyzer.PairsOf(rf.Asked), Hash: u.hash})
			u.fresh = true
			if rf.missed {
				failed.Store(true)
			}
		}
		if u.entry.SumHash != p.SumHash {
			failed.Store(true)
		}
	})
	if failed.Load() {
		return false
	}
	for _, u := range changed {
		if u.target {
			u.entry.Digest = digest
			l.Store.Keep(u.storeKey(), u.stat, u.entry)
		}
	}
	return true
}

// replayFacts answers the questions of an edited file with the answers
// its previous version got (was), in a project whose summaries are still
// those it was linted in: a question that version did not ask is
// missed, and answered with none.
type replayFacts struct {
	was   Questions
	stars bool // the file star-imports
	// Asked records the questions and answers, as FileFacts does; a
	// missed question is recorded with an answer no answer equals.
	Asked  map[string]string
	missed bool
}

// missedAnswer records a question replayFacts could not answer.
const missedAnswer = "!"

func (r *replayFacts) answer(q string) (string, bool) {
	a, ok := r.was.Get(q)
	if !ok {
		r.missed, a = true, missedAnswer
	}
	if r.Asked == nil {
		r.Asked = map[string]string{}
	}
	r.Asked[q] = a
	return a, ok
}

// Lookup implements analyzer.Facts, as FileFacts.Lookup asks.
func (r *replayFacts) Lookup(ref string, want analyzer.Want) *analyzer.Object {
	if ref != "" && ref[0] != '#' && ref[0] != '.' && ref[0] != '*' {
		head, _, _ := strings.Cut(ref, ".")
		if a, ok := r.was.Get("H" + head); ok && a == "" {
			r.answer("H" + head) // names nothing of the project
			return nil
		}
	}
	q := "L" + strconv.Itoa(int(want)) + " " + ref
	a, ok := r.answer(q)
	if !ok {
		return nil
	}
	o, err := decodeAnswer(a)
	if err != nil {
		r.missed, r.Asked[q] = true, missedAnswer
		return nil
	}
	return o
}

// Star implements analyzer.Facts, as FileFacts.Star asks.
func (r *replayFacts) Star(name string) string {
	if !r.stars {
		return ""
	}
	a, ok := r.answer("S" + name)
	if !ok {
		return ""
	}
	return a
}

// UseSummary takes what FileFacts takes of the file's own summary.
func (r *replayFacts) UseSummary(s *analyzer.Summary) {
	r.stars = len(s.Stars) > 0
}

// solve works out the project's facts and the findings of its targets
// that the store does not have for this digest, and stores them. It
// returns the solved graph.
func (l *Linter) solve(root string, order []*unit, override map[string][]byte) *Graph {
	l.parallel(len(order), func(i int) {
		if e := order[i].entry; e != nil {
			e.decodeSummary()
		}
	})
	// The files the store does not have are ordered by the imports a
	// quick scan of their text finds: a file is linted after the files it
	// imports, with the facts solved from them, so that most of its
	// questions get their final answers the first time.
	g := NewGraph(root, l.src(root))
	var parse []*unit
	for _, u := range order {
		switch {
		case u.err != nil:
		case u.entry != nil:
			g.Add(u.abs, u.entry.Summary)
		default:
			g.Add(u.abs, nil)
			parse = append(parse, u)
		}
	}
	switch {
	case len(parse) > 0 && (len(parse) < fewToParse || !slices.ContainsFunc(parse, func(u *unit) bool { return u.target })):
		// A few files, or none to lint: lint or summarize them with the
		// facts of the others and solve once; targets whose questions then
		// get other answers are linted again below, which costs less than
		// a solve of the whole graph.
		l.parallel(len(parse), func(i int) {
			l.firstPass(parse[i], g, override)
		})
		for _, u := range parse {
			g.Add(u.abs, u.entry.Summary)
		}
	case len(parse) > 0:
		// The scans of the files' text (their imports, their bindings),
		// made as load read them, fill the graph and order the files.
		// The imports are followed through the bindings the scans found,
		// to the files that define what they import.
		for _, u := range parse {
			g.Add(u.abs, u.light)
			u.light = nil
		}
		g.Solve()
		levels := importLevels(g, parse)
		for _, u := range parse {
			u.imports = nil
		}
		// Solving costs a walk of every summary, so the graph is solved
		// again only after about each fifth of the files: the files
		// between two solves see the same facts, and are linted together,
		// in import order, with no wait between levels.
		parts := chunks(levels, max(64, len(order)/5))
		for i, part := range parts {
			l.parallel(len(part), func(i int) {
				l.firstPass(part[i], g, override)
			})
			for _, u := range part {
				g.Add(u.abs, u.entry.Summary)
			}
			if i < len(parts)-1 {
				g.Solve()
			}
		}
	}
	g.Solve()
	if l.Ahead {
		l.solved.Store(root, g)
	}
	var digest [32]byte
	if l.Store != nil {
		digest = l.digest(root, order, entrySum)
	}
	// Second pass: a target whose questions now get other answers is
	// linted again with the project's facts; each target's findings are
	// stored with the digest they now hold for.
	l.parallel(len(order), func(i int) {
		u := order[i]
		if u.err != nil || !u.target || u.readErr != nil {
			return
		}
		ff := g.Facts(u.abs)
		u.entry.decodeAsked()
		if ff.Stale(u.entry.Asked) {
			if !l.source(u, override) {
				return // no longer readable: its read diagnostic, or an error
			}
			ff = g.Facts(u.abs)
			d, _ := l.analyze(u, ff, false)
			if u.err != nil {
				return // a rule failed: nothing to keep
			}
			u.entry = &Entry{Summary: u.entry.Summary, Linted: true, Diags: d, Asked: analyzer.PairsOf(ff.Asked), Hash: u.entry.Hash,
				SumHash: u.entry.SumHash, summaryEnc: u.entry.summaryEnc}
			u.fresh = true
		}
		u.src = nil
		if l.Store != nil && (u.fresh || u.entry.Digest != digest) {
			e := u.entry
			u.entry = &Entry{Summary: e.Summary, Linted: true, Diags: e.Diags, Asked: e.Asked, Hash: e.Hash, Digest: digest,
				SumHash: e.SumHash, summaryEnc: e.summaryEnc, askedEnc: e.askedEnc}
			l.Store.Keep(u.storeKey(), u.stat, u.entry)
		}
	})
	return g
}

// units lists the files of the project rooted at root: the targets,
// then the Python files and notebooks its discovery finds that belong to
// it (a folder with its own marker, a pyproject.toml, setup.py,
// setup.cfg or .git, is a project of its own), each once.
func (l *Linter) units(root string, targets []string) []*unit {
	byPath := map[string]*unit{}
	var order []*unit
	add := func(p string, target bool) {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		abs = filepath.Clean(abs)
		if u := byPath[abs]; u != nil {
			if target && !u.target {
				u.target, u.path = true, p
			}
			return
		}
		u := &unit{path: p, abs: abs, target: target}
		byPath[abs] = u
		order = append(order, u)
	}
	for _, t := range targets {
		add(t, true)
	}
	if l.Files != nil {
		if files, err := l.Files(root); err == nil {
			for _, f := range files {
				// A notebook is summarized with the rest: no file imports
				// it, but its cells call the project's functions.
				if (strings.HasSuffix(f, ".py") || analyzer.IsNotebook(f)) && l.belongs(f, root) {
					add(f, false)
				}
			}
		}
	}
	return order
}

// load takes what the store has of each unit, reading the file only
// where its stat does not vouch for the contents the store has: any
// entry for a file only summarized, one with findings for a target.
func (l *Linter) load(units []*unit, override map[string][]byte) {
	now := time.Now()
	l.parallel(len(units), func(i int) {
		u := units[i]
		usable := func(e *Entry, ok bool) bool {
			if ok && (e.Linted || !u.target) {
				u.entry = e
				return true
			}
			return false
		}
		if _, overridden := overridden(u, override); l.Store != nil && !overridden {
			u.stat = statFile(u.abs, now)
			if u.stat.Vouches() && usable(l.Store.Entry(u.storeKey(), nil, u.stat)) {
				u.hash = u.entry.Hash
				return
			}
		}
		// The source is dropped once scanned or found in the store: it is
		// read into the room of a source read and dropped before.
		room := scanRoom.Get().(*[]byte)
		defer scanRoom.Put(room)
		u.src, u.readErr, u.err = l.readInto(u, override, *room)
		if _, over := overridden(u, override); !over && cap(u.src) > cap(*room) {
			*room = u.src[:0]
		}
		switch {
		case u.err != nil:
		case u.readErr != nil:
			u.entry = &Entry{Linted: true, Diags: []analyzer.Diagnostic{*u.readErr}}
		case l.Store != nil:
			u.hash = sha256.Sum256(u.src)
			if usable(l.Store.Entry(u.storeKey(), &u.hash, u.stat)) {
				u.src = nil
			}
		}
		if u.src != nil && u.entry == nil {
			u.imports, u.light = scanText(u.src)
			u.src = nil
		}
	})
}

// scanRoom holds the room of the sources load reads and drops.
var scanRoom = sync.Pool{New: func() any { return new([]byte) }}

// source reads a unit's source again, for it to be parsed, and reports
// whether it has one. A file changed since load is parsed as it is now,
// under the hash of what is parsed; one that can no longer be read gets
// the entry of a file that cannot be read.
func (l *Linter) source(u *unit, override map[string][]byte) bool {
	if u.src != nil {
		return true
	}
	u.src, u.readErr, u.err = l.read(u, override)
	switch {
	case u.err != nil:
		u.entry = &Entry{}
	case u.readErr != nil:
		u.entry = &Entry{Linted: true, Diags: []analyzer.Diagnostic{*u.readErr}}
	default:
		if l.Store != nil {
			u.hash = sha256.Sum256(u.src)
		}
		return true
	}
	u.src = nil
	return false
}

// firstPass summarizes a file and, for a target, lints it with the facts
// solved so far, recording what it asked. Its source is dropped: it is
// read again if needed.
func (l *Linter) firstPass(u *unit, g *Graph, override map[string][]byte) {
	if !l.source(u, override) {
		return
	}
	u.fresh = true
	if !u.target {
		u.entry = l.seal(&Entry{Summary: l.summarize(u), Hash: u.hash})
		g.Fresh(u.abs, u.entry.Summary)
		if l.Store != nil {
			l.Store.Keep(u.storeKey(), u.stat, u.entry)
		}
		u.src, u.fresh = nil, false
		return
	}
	ff := g.Facts(u.abs)
	d, s := l.analyze(u, ff, true)
	if u.err != nil {
		u.entry = &Entry{}
		return // a rule failed: the file has no findings to report or keep
	}
	u.entry = l.seal(&Entry{Summary: s, Linted: true, Diags: d, Asked: analyzer.PairsOf(ff.Asked), Hash: u.hash})
	g.Fresh(u.abs, s)
	u.src = nil // read again only to lint again
}

// read returns a unit's source. A target that cannot be read gets the
// runner's read diagnostic (TL002), as when linted alone; another file
// of the project that cannot be read is left out of the graph.
func (l *Linter) read(u *unit, override map[string][]byte) ([]byte, *analyzer.Diagnostic, error) {
	return l.readInto(u, override, nil)
}

// readInto is read, reading a file into room where it has the room.
func (l *Linter) readInto(u *unit, override map[string][]byte, room []byte) ([]byte, *analyzer.Diagnostic, error) {
	src, over := overridden(u, override)
	var d *analyzer.Diagnostic
	if !over {
		src, d = l.Runner.ReadSourceInto(u.path, room)
	}
	if d != nil && !u.target {
		return nil, nil, fmt.Errorf("%s: %s", u.path, d.Message)
	}
	if d == nil && analyzer.IsNotebook(u.path) {
		// A notebook's code cells, as one Python source.
		nb, err := analyzer.ParseNotebook(src)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", u.path, err)
		}
		return nb.Source, nil, nil
	}
	return src, d, nil
}

// overridden returns the source override gives a unit in place of its
// file, under the name it was given or its absolute path.
func overridden(u *unit, override map[string][]byte) ([]byte, bool) {
	if src, ok := override[u.path]; ok {
		return src, true
	}
	src, ok := override[u.abs]
	return src, ok
}

// analyze lints (and, with summarize, summarizes) one unit; a panic in
// a rule becomes an error naming the file, never fatal to the others.
func (l *Linter) analyze(u *unit, ff analyzer.Facts, summarize bool) (diags []analyzer.Diagnostic, sum *analyzer.Summary) {
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

// LintAhead lints one Python file from src with the facts its project
// had when it was last solved, reading no other file: the findings an
// editor shows while Lint brings the project up to date. They differ
// from Lint's only where the file's own last edit changed what the rest
// of the project answers it. ok is false for a notebook, without Ahead,
// or before the file's project was first solved.
func (l *Linter) LintAhead(path string, src []byte) (diags []analyzer.Diagnostic, ok bool, err error) {
	if analyzer.IsNotebook(path) {
		return nil, false, nil
	}
	g, found := l.solved.Load(l.root(path))
	if !found {
		return nil, false, nil
	}
	abs, aerr := filepath.Abs(path)
	if aerr != nil {
		abs = path
	}
	u := &unit{path: path, abs: filepath.Clean(abs), src: src, target: true}
	diags, _ = l.analyze(u, g.(*Graph).Facts(u.abs), false)
	if u.err != nil {
		return nil, false, u.err
	}
	return diags, true, nil
}

// Facts returns, for each of the named files, what the rest of its
// project knows, from the summaries of the projects' files (the store's,
// or parsed afresh). It serves where files are linted one source at a
// time, as the fixes do.
func (l *Linter) Facts(paths []string, override map[string][]byte) func(path string) analyzer.Facts {
	graphs := map[string]*Graph{}
	for _, p := range paths {
		r := l.root(p)
		if graphs[r] != nil {
			continue
		}
		var targets []string
		if !analyzer.IsNotebook(p) {
			targets = []string{p}
		}
		units := l.units(r, targets)
		for _, u := range units {
			u.target = false // only summaries are needed
		}
		l.load(units, override)
		graphs[r] = l.solve(r, units, override)
		l.flush()
	}
	return func(path string) analyzer.Facts {
		g := graphs[l.root(path)]
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

func (l *Linter) parallel(n int, do func(i int)) {
	workers.Run(l.Workers, n, do)
}

// importStmt is an import statement as the text of its line shows it.
type importStmt struct {
	// local is set for an import inside a function or a class: it binds
	// nothing at module level. One under `if TYPE_CHECKING:`, in a `try`
	// or any other block of the module binds its names in the module.
	local bool
	// from is the module of `from module import ...`, as written.
	from string
	// names are the imported names with their aliases ("" for none):
	// dotted modules for `import`, names of from for `from`, "*" for a
	// star import.
	names [][2]string
}

// scanImports calls each for every line that starts, after any
// indentation, with `import` or `from ... import`, reading its text and,
// for a parenthesised list or a line ended by a backslash, the lines it
// runs over; comments are left out.
func scanImports(src []byte, each func(importStmt)) {
	// next returns the next line without its comment; it is taken only
	// when take says so.
	next := func(take func(line []byte) bool) ([]byte, bool) {
		line, rest := src, []byte(nil)
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, rest = src[:i], src[i+1:]
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = bytes.TrimRight(line, " \t\r")
		if !take(line) {
			return nil, false
		}
		src = rest
		return line, true
	}
	always := func([]byte) bool { return true }
	// scopes holds the indentation of the def and class headers a line
	// is under: what they hold is local. (A line of a string or bracket
	// further left than the code around it ends them early: the scan
	// reads lines, not tokens.)
	var scopes []int
	for len(src) > 0 {
		line, _ := next(always)
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == 0 || strings.IndexByte(")]}", trimmed[0]) >= 0 {
			continue // nothing, or the end of a statement over several lines
		}
		indent := len(line) - len(trimmed)
		for len(scopes) > 0 && scopes[len(scopes)-1] >= indent {
			scopes = scopes[:len(scopes)-1]
		}
		st := importStmt{local: len(scopes) > 0}
		// A def's body is below its first line, wherever its header ends.
		if bytes.HasPrefix(trimmed, []byte("def ")) || bytes.HasPrefix(trimmed, []byte("class ")) ||
			bytes.HasPrefix(trimmed, []byte("async def ")) {
			scopes = append(scopes, indent)
		}
		isImport, isFrom := bytes.HasPrefix(trimmed, []byte("import ")), bytes.HasPrefix(trimmed, []byte("from "))
		if !isImport && !isFrom {
			continue
		}
		// The lines a statement runs over: inside its parentheses, or
		// after a backslash, while they hold only names (an import in a
		// docstring may never be closed).
		text := string(trimmed)
		open := strings.Count(text, "(") > strings.Count(text, ")")
		for (open || strings.HasSuffix(text, "\\")) && len(src) > 0 {
			more, ok := next(namesOnly)
			if !ok {
				break
			}
			text = strings.TrimSuffix(text, "\\") + " " + string(bytes.TrimSpace(more))
			open = strings.Count(text, "(") > strings.Count(text, ")")
		}
		switch {
		case isImport:
			for _, part := range strings.Split(text[len("import "):], ",") {
				words := strings.Fields(part)
				switch {
				case len(words) == 1 && dottedName(words[0]):
					st.names = append(st.names, [2]string{words[0], ""})
				case len(words) == 3 && words[1] == "as" && dottedName(words[0]) && dottedName(words[2]):
					st.names = append(st.names, [2]string{words[0], words[2]})
				}
			}
		default:
			f := strings.Fields(text[len("from "):])
			if len(f) < 3 || f[1] != "import" {
				continue
			}
			st.from = f[0]
			words := strings.FieldsFunc(strings.Join(f[2:], " "), func(r rune) bool {
				return r == ',' || r == ' ' || r == '(' || r == ')' || r == '\\'
			})
			for i := 0; i < len(words); i++ {
				if i+2 < len(words) && words[i+1] == "as" {
					if dottedName(words[i]) && dottedName(words[i+2]) {
						st.names = append(st.names, [2]string{words[i], words[i+2]})
					}
					i += 2
					continue
				}
				if words[i] == "*" || dottedName(words[i]) {
					st.names = append(st.names, [2]string{words[i], ""})
				}
			}
		}
		each(st)
	}
}

// join appends a name to a from-module: `.` + `x` is `.x`, `a` + `b`
// is `a.b`.
// namesOnly reports whether a line holds nothing but what a list of
// imported names does: names, dots, commas, parentheses and backslashes.
func namesOnly(line []byte) bool {
	for _, c := range line {
		if !analyzer.IdentByte(c) && strings.IndexByte(" \t.,()\\*", c) < 0 {
			return false
		}
	}
	return true
}

// dottedName reports whether s is a name or a dotted name (`os.path`):
// what a scan of text that is not an import after all (a docstring's)
// does not bind.
func dottedName(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if part == "" || !analyzer.IdentStart(part[0]) {
			return false
		}
		for i := 1; i < len(part); i++ {
			if !analyzer.IdentByte(part[i]) {
				return false
			}
		}
	}
	return true
}

func (st importStmt) join(name string) string {
	if strings.HasSuffix(st.from, ".") {
		return st.from + name
	}
	return st.from + "." + name
}

// importGroups returns what an import statement names, one group per
// imported module: the module, then for `from` imports each name it takes
// (a submodule, or a name the module binds).
func (st importStmt) importGroups(out [][]string) [][]string {
	if st.from == "" {
		for _, n := range st.names {
			out = append(out, []string{n[0]})
		}
		return out
	}
	group := []string{st.from}
	for _, n := range st.names {
		if n[0] != "*" {
			group = append(group, st.join(n[0]))
		}
	}
	return append(out, group)
}

// importLevels orders a project's files so that a file comes after the
// files it imports, as far as the text of its import lines shows (a
// cycle is cut anywhere): level 0 imports nothing of the project. An
// import is followed through the bindings the graph holds, so g must be
// solved over the units' scans. A unit's imports are those its text scan
// found (scanText).
func importLevels(g *Graph, units []*unit) [][]*unit {
	deps := make([][]int, len(units))
	index := map[*file]int{}
	for i, u := range units {
		if fl := g.files[u.abs]; fl != nil {
			index[fl] = i
		}
	}
	for i, u := range units {
		fl := g.files[u.abs]
		if fl == nil {
			continue
		}
		seen := map[int]bool{}
		// dep records that the file imports module, when module is
		// another of the files ordered.
		dep := func(module *file) {
			if j, ok := index[module]; ok && j != i && !seen[j] {
				seen[j] = true
				deps[i] = append(deps[i], j)
			}
		}
		for _, group := range u.imports {
			// `from pkg import name` needs the file that defines name,
			// followed through pkg's re-exports. pkg itself is needed for
			// a name it binds that the scan cannot follow, unless pkg is a
			// package's __init__.py: such a name is then a constant or a
			// lazy export, and a package imports its modules, which import
			// it back, so that an edge to it would put all of them in one
			// cycle.
			needsModule := len(group) == 1
			for _, name := range group[1:] {
				switch t := g.resolve(name, fl); {
				case t.module != nil:
					dep(t.module) // a submodule
				case t.obj != nil:
					dep(t.obj.key.file)
				default:
					needsModule = true
				}
			}
			if needsModule {
				if t := g.resolve(group[0], fl); t.module != nil && (len(group) == 1 || filepath.Base(t.module.path) != "__init__.py") {
					dep(t.module)
				}
			}
		}
	}
	// Files that import each other, directly or not, form one component
	// and share a level; a component's level is one past the highest of
	// those it imports.
	comp := components(deps)
	level := make([]int, len(units))
	for _, c := range comp.order { // dependencies first
		lv := 0
		for _, i := range comp.members[c] {
			for _, j := range deps[i] {
				if cj := comp.of[j]; cj != c && level[comp.members[cj][0]]+1 > lv {
					lv = level[comp.members[cj][0]] + 1
				}
			}
		}
		for _, i := range comp.members[c] {
			level[i] = lv
		}
	}
	var out [][]*unit
	for i, u := range units {
		for len(out) <= level[i] {
			out = append(out, nil)
		}
		out[level[i]] = append(out[level[i]], u)
	}
	return out
}

// chunks cuts the levels of the import order into runs of about size
// files, each linted with the facts solved from the runs before it. A run
// ends where a level does, so that a file and the files it imports are
// not linted at once, unless a level is too large for one run; a run may
// then end inside it.
func chunks(levels [][]*unit, size int) [][]*unit {
	size = max(size, 2)
	var out [][]*unit
	var cur []*unit
	for _, level := range levels {
		if len(cur) >= size/2 && len(cur)+len(level) > size {
			out = append(out, cur)
			cur = nil
		}
		for len(cur)+len(level) > size*3/2 {
			// Too large: the run so far ends before the level, which is
			// then cut.
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
				continue
			}
			cur, level = level[:size], level[size:]
			out = append(out, cur)
			cur = nil
		}
		cur = append(cur, level...)
		if len(cur) >= size {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// componentSet is the strongly connected components of a graph, in an
// order where a component comes after every component it reaches.
type componentSet struct {
	of      []int   // node → component
	members [][]int // component → nodes
	order   []int   // components, dependencies first
}

// components finds the strongly connected components of the graph whose
// edges are deps (Tarjan's algorithm, iterative, so deep chains of
// imports do not grow the stack).
func components(deps [][]int) componentSet {
	n := len(deps)
	cs := componentSet{of: make([]int, n)}
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	type frame struct{ v, edge int }
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.edge < len(deps[f.v]) {
				w := deps[f.v][f.edge]
				f.edge++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				case onStack[w] && index[w] < low[f.v]:
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 && low[v] < low[call[len(call)-1].v] {
				low[call[len(call)-1].v] = low[v]
			}
			if low[v] == index[v] {
				c := len(cs.members)
				var members []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					cs.of[w] = c
					members = append(members, w)
					if w == v {
						break
					}
				}
				cs.members = append(cs.members, members)
				cs.order = append(cs.order, c) // Tarjan emits a component after those it reaches
			}
		}
	}
	return cs
}

// scanText reads, in one scan of a file's text, what its imports name
// (each import's groups, importGroups), which orders the files, and its
// light summary: what the text shows of its module-level imports, classes
// and functions without parsing it, enough for the graph to tell, before
// any file is linted, which classes are modules, what the project defines
// and where an imported name is defined. The file's summary replaces the
// light one once the file is parsed.
func scanText(src []byte) (imports [][]string, light *analyzer.Summary) {
	bindings := map[string]string{}
	s := &analyzer.Summary{}
	scanImports(src, func(st importStmt) {
		imports = st.importGroups(imports)
		if st.local {
			return
		}
		for _, n := range st.names {
			name, alias := n[0], n[1]
			switch {
			case st.from != "" && name == "*":
				s.Stars = append(s.Stars, st.from)
			case st.from != "" && alias != "":
				bindings[alias] = st.join(name)
			case st.from != "":
				bindings[name] = st.join(name)
			case alias != "":
				bindings[alias] = name
			default:
				first, _, _ := strings.Cut(name, ".")
				bindings[first] = first
			}
		}
	})
	local := map[string]bool{}
	type class struct {
		name  string
		line  int
		bases []string
	}
	var classes []class
	// The functions of the module and the methods of its classes, by the
	// line of their def, as the summary has them: a question whether the
	// project defines one then gets its final answer.
	inClass, classIndent, inHeader := "", 0, false
	line := 0
	for rest := src; len(rest) > 0; {
		cur := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			cur, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line++
		body := bytes.TrimLeft(cur, " \t")
		indent := len(cur) - len(body)
		switch {
		case len(body) == 0 || body[0] == '#' || body[0] == '\r':
			continue
		case indent == 0 && (body[0] == ')' || body[0] == ']' || body[0] == '}'):
			// The end of a statement over several lines: a class header's
			// when it ends with its colon.
			inHeader = inHeader && !endsBlockHeader(body)
			continue
		case indent == 0:
			inClass = ""
			if name := defName(body); name != "" {
				s.Funcs = append(s.Funcs, analyzer.FuncSummary{Name: name, Line: line})
				continue
			}
		case inClass != "":
			if inHeader {
				inHeader = !endsBlockHeader(body) // bases over several lines
				continue
			}
			if classIndent == 0 {
				classIndent = indent // the body's first line
			}
			if name := defName(body); name != "" && indent == classIndent {
				s.Funcs = append(s.Funcs, analyzer.FuncSummary{Name: inClass + "." + name, Line: line})
			}
			continue
		default:
			continue
		}
		if !bytes.HasPrefix(cur, []byte("class ")) {
			continue
		}
		head := cur[len("class "):]
		if name := identPrefix(head); name != "" {
			inClass, classIndent, inHeader = name, 0, !endsBlockHeader(body)
		}
		open := bytes.IndexByte(head, '(')
		if open <= 0 {
			if inClass != "" {
				classes = append(classes, class{inClass, line, nil})
				local[inClass] = true
			}
			continue
		}
		name := inClass // `class Box[T](Base)` is Box
		if name == "" {
			continue
		}
		// The bases may run over several lines: up to the closing
		// parenthesis.
		text := string(head[open+1:])
		if !strings.Contains(text, ")") {
			if i := bytes.IndexByte(rest, ')'); i >= 0 && i < 2000 {
				text += string(rest[:i])
			}
		}
		if i := strings.IndexByte(text, ')'); i >= 0 {
			text = text[:i]
		}
		var bases []string
		for _, b := range strings.Split(text, ",") {
			b = strings.Join(strings.Fields(b), "")
			if b != "" && !strings.Contains(b, "=") {
				bases = append(bases, b)
			}
		}
		classes = append(classes, class{name, line, bases})
		local[name] = true
	}
	for _, c := range classes {
		cs := analyzer.ClassSummary{Name: c.name, Line: c.line}
		for _, b := range c.bases {
			first, more, _ := strings.Cut(b, ".")
			ref := ""
			switch {
			case bindings[first] != "":
				ref = bindings[first]
				if more != "" {
					ref += "." + more
				}
			case local[first] && more == "":
				ref = "#" + first
			}
			if ref == "" {
				continue
			}
			cs.Bases = append(cs.Bases, ref)
			cs.Module = cs.Module || analyzer.ModuleBase(ref)
		}
		s.Classes = append(s.Classes, cs)
	}
	s.Bindings = analyzer.PairsOf(bindings)
	return imports, s
}

// endsBlockHeader reports whether a line ends with the colon of a block
// header, before any comment.
func endsBlockHeader(line []byte) bool {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, " \t\r")
	return len(line) > 0 && line[len(line)-1] == ':'
}

// defName returns the name a line that starts with `def` or `async def`
// defines, else "".
func defName(line []byte) string {
	if rest, ok := bytes.CutPrefix(line, []byte("async ")); ok {
		line = bytes.TrimLeft(rest, " \t")
	}
	rest, ok := bytes.CutPrefix(line, []byte("def "))
	if !ok {
		return ""
	}
	return identPrefix(bytes.TrimLeft(rest, " \t"))
}

// identPrefix returns the identifier b starts with, if what follows it
// can end a name in a def or class statement.
func identPrefix(b []byte) string {
	n := 0
	for n < len(b) && (n == 0 && analyzer.IdentStart(b[n]) || n > 0 && analyzer.IdentByte(b[n])) {
		n++
	}
	if n == 0 || n < len(b) && b[n] != '(' && b[n] != ':' && b[n] != ' ' && b[n] != '\t' && b[n] != '[' {
		return ""
	}
	return string(b[:n])
}

// MemoryStore is a Store held in memory, for a long-running process (the
// language server): it keeps the latest entry of each file.
type MemoryStore struct {
	mu      sync.Mutex
	entries map[string]memoryEntry
}

type memoryEntry struct {
	sum   [32]byte
	stat  Stat // of the file when the entry was kept
	entry *Entry
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{entries: map[string]memoryEntry{}}
}

// Entry implements Store: the entry kept for path, where it holds for
// the contents whose SHA-256 is sum or, with sum nil, for those the
// file's stat st vouches for. An edit in an editor thus re-lints its
// project without reading every file of it.
func (m *MemoryStore) Entry(path string, sum *[32]byte, st Stat) (*Entry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[path]
	if !ok {
		return nil, false
	}
	ok, restat := holds(e.sum, e.stat, sum, st)
	if restat {
		e.stat = st
		m.entries[path] = e
	}
	if !ok {
		return nil, false
	}
	return e.entry, true
}

// Previous implements Store.
func (m *MemoryStore) Previous(path string) (*Entry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[path]
	return e.entry, ok
}

// Keep implements Store.
func (m *MemoryStore) Keep(path string, st Stat, e *Entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[path] = memoryEntry{e.Hash, st, e}
}
