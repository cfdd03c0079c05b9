package project

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/workers"
)

// Graph is a project's module graph: its Python files with their
// summaries, the import roots their absolute imports resolve against, and
// the facts solved over them. Build it with NewGraph and Add, then Solve;
// after Solve it is read-only and safe for concurrent use.
type Graph struct {
	// Root is the project's root folder.
	Root  string
	roots []string
	files map[string]*file // by cleaned absolute path
	// entries holds every folder that contains a file of the graph and
	// every file's path without its .py, so that a module name's first
	// part can be ruled out in a folder with one lookup.
	entries map[string]bool
	// heads holds the last part of every entry: an absolute ref whose
	// first part is not among them names nothing of the project.
	heads map[string]bool

	objs   []*object // every file's objects, in the order of paths
	store  []object  // where they are held, made over to the next solve's
	solved bool
	// memo caches what a ref resolves to from a file, and lookupObject's
	// answers once the graph is solved; Add and Solve start it afresh.
	memo atomic.Pointer[resolveMemo]
	// fresh holds the summaries of the files summarized since the last
	// solve (see Fresh), by cleaned absolute path.
	fresh sync.Map // string → *analyzer.Summary
	// answers holds one copy of each answer recorded: many files ask
	// about the same objects, and keep their answers until the project
	// is solved.
	answers  sync.Map // string → string
	nanswers atomic.Int64
	// sysPaths holds, by folder, the folders each file of it puts on
	// Python's import path, by the file's path.
	sysPaths map[string]map[string][]string
	// methods holds every method of the project's classes by its name,
	// in the order of paths, made by methodsOnce once solved.
	methods     map[string][]*object
	methodsOnce *sync.Once
	// reach holds the project's imports for mayReach, made when first
	// asked after a solve.
	reach   *reachIndex
	reachMu sync.Mutex
	// named holds, by method name, the calls of a method on an object of
	// no known class (`dec.decode(x)`, `self._predict(x)` that only a
	// subclass defines, or a ref that resolves to nothing of the
	// project), for the grad mode of methods that no call reaches by
	// their own ref.
	named map[string][]callEdge
	// The room of the callers and named lists, reused by the next solve.
	callerRoom, namedRoom []callEdge
}

// resolveKey is what the resolution of a ref that is not a name of the
// file's own ("#x") depends on: only the folder it is written in.
type resolveKey struct {
	dir string
	ref string
}

type file struct {
	path   string
	dir    string // filepath.Dir(path)
	rel    string // slash-separated, relative to Root, for messages
	module string // dotted module name from the first import root holding it
	sum    *analyzer.Summary
	objs   map[string]*object // by objKey.name, once solved
	// Where link holds the callees of the file's functions, reused by
	// the next solve.
	callees []callEdge
}

type objKey struct {
	file *file
	name string // "f", "Class", "Class.f" or an instance's name
}

type object struct {
	key  objKey
	kind analyzer.ObjectKind
	line int
	fn   *analyzer.FuncSummary // a function's summary
	fact facts
	// For classes: the resolved bases; for instances: the class; for
	// functions: the class whose instance they build (Makes).
	bases []*object
	// For functions: the calls of it, and what it calls.
	callers []callEdge
	callees []callEdge
	returns []*object
	// backpropVia: the methods of base classes in other files whose
	// back-propagated attributes of self this method's calls reach.
	backpropVia []*object
	escapes     bool
	// byForward: a class that is a module by its forward alone, whose
	// bases are all classes of the project (ClassSummary.ByForward).
	byForward bool
	// plain: a class its file shows to be plain (ClassSummary.Plain).
	plain bool
	// paramFree: a module class that builds no parameter
	// (ClassSummary.ParamFree).
	paramFree bool
	// noModeLayers: a module class with no layer that evaluation mode
	// changes (ClassSummary.NoModeLayers); modeLayers: one with such a
	// layer (ClassSummary.ModeLayers, or a base's).
	noModeLayers, modeLayers bool
	// moduleAttrs: for a class, the attributes of self its methods
	// assign an instance of a module class (ClassSummary.AttrClasses).
	moduleAttrs []string
	// count is the tally spread keeps while it sizes the lists above.
	count int32
}

// facts is what the graph works out of an object: the fields of the
// analyzer.Object that answers a question about it, less its kind and
// site (the object's own) and the facts of a function that its summary
// holds and the solve leaves as they are (read from fn when answered).
// The project holds an object for each definition: it is kept small,
// and the facts few objects have are kept apart (more).
type facts struct {
	Forward *analyzer.Site
	more    *rareFacts // nil while none of them holds (rare, setRare)

	Grad, Wraps, Enters analyzer.GradMode
	Activation          analyzer.Activation

	Module, NoGraph, ReturnsGraph, ResultBackprop bool
	GradKnown, WrapsKnown, EntersKnown            bool
	CalledElsewhere, CalledByName                 bool
	EnabledElsewhere                              bool
}

// rareFacts are the facts that few objects have.
type rareFacts struct {
	BackpropAttrs     []string
	ParamCalls, Keeps []analyzer.ParamCall
	EvalCalls         []analyzer.ParamCall
	ModuleCalls       []analyzer.ParamCall
	FrozenCalls       []analyzer.ParamCall
	analyzer.StepSites
	EmptyCache, ActivationAt *analyzer.Site
	// EmptyCacheBy, NamedOff, CallersAssumed, EnabledBy, RepeatedBy: analyzer.Object's.
	EmptyCacheBy                                    string
	NamedOff, CallersAssumed, EnabledBy, RepeatedBy *analyzer.Site
}

// noRareFacts are the facts of an object without more; never changed.
var noRareFacts rareFacts

// rare returns the object's rare facts, to read.
func (f *facts) rare() *rareFacts {
	if f.more == nil {
		return &noRareFacts
	}
	return f.more
}

// setRare returns the object's rare facts, to change.
func (f *facts) setRare() *rareFacts {
	if f.more == nil {
		f.more = new(rareFacts)
	}
	return f.more
}

type callEdge struct {
	caller *object // nil at module level
	callee *object // nil for a call known by the method's name alone
	site   *analyzer.CallSummary
	file   *file
}

// mode is the grad mode the call runs in: the one its caller's code sets
// there, else its caller's own (enabled while not known).
func (e callEdge) mode() analyzer.GradMode {
	if !e.site.Inherit || e.caller == nil {
		return e.site.Grad
	}
	if e.caller.fact.GradKnown {
		return e.caller.fact.Grad
	}
	return analyzer.GradEnabled
}

// NewGraph starts the module graph of the project in root. Absolute
// imports resolve against root, root/src and the extra source folders
// given (Ruff's `src` setting), and first against the importing file's
// own folder and the sub-project folders above it (see importDirs).
func NewGraph(root string, src []string) *Graph {
	root = filepath.Clean(root)
	g := &Graph{Root: root, files: map[string]*file{}, entries: map[string]bool{}, heads: map[string]bool{}}
	g.roots = append(g.roots, root, filepath.Join(root, "src"))
	for _, s := range src {
		if !filepath.IsAbs(s) {
			s = filepath.Join(root, s)
		}
		g.roots = append(g.roots, filepath.Clean(s))
	}
	return g
}

// Add records the summary of the file at path (absolute). A nil summary
// (a file that could not be read) is recorded as a module with nothing in
// it.
func (g *Graph) Add(path string, s *analyzer.Summary) {
	if s == nil {
		s = &analyzer.Summary{}
	}
	path = filepath.Clean(path)
	fl := &file{path: path, dir: filepath.Dir(path), sum: s}
	if rel, err := filepath.Rel(g.Root, path); err == nil {
		fl.rel = filepath.ToSlash(rel)
	} else {
		fl.rel = filepath.ToSlash(path)
	}
	fl.module = g.moduleName(path)
	for p := strings.TrimSuffix(path, ".py"); !g.entries[p]; {
		g.entries[p] = true
		g.heads[filepath.Base(p)] = true
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	g.files[path] = fl
	g.addSysPath(fl)
	g.solved = false
	g.memo.Store(new(resolveMemo))
}

// moduleName is the dotted name a file is imported by from the first
// import root that holds it.
func (g *Graph) moduleName(path string) string {
	if analyzer.IsNotebook(path) {
		return "" // no file imports a notebook
	}
	for _, r := range g.roots {
		rel, err := filepath.Rel(r, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = strings.TrimSuffix(filepath.ToSlash(rel), ".py")
		rel = strings.TrimSuffix(strings.TrimSuffix(rel, "__init__"), "/")
		return strings.ReplaceAll(rel, "/", ".")
	}
	return ""
}

// findModule returns the file a dotted module name names, looked up
// under dir (clean, absolute). The paths are joined by hand: the parts
// are identifiers, so nothing needs cleaning.
func (g *Graph) findModule(dir string, parts []string) *file {
	var buf [256]byte
	b := append(buf[:0], dir...)
	for _, p := range parts {
		if p == "" || p == "." || p == ".." {
			return nil
		}
		b = append(append(b, filepath.Separator), p...)
	}
	// Looked up without making a string of each path tried.
	if fl := g.files[string(append(b, ".py"...))]; fl != nil {
		return fl
	}
	return g.files[string(append(append(b, filepath.Separator), "__init__.py"...))]
}

// addSysPath records the folders of the project that file fl puts on
// Python's import path, in place of what an earlier summary of it did.
func (g *Graph) addSysPath(fl *file) {
	var dirs []string
	for _, rel := range fl.sum.SysPath {
		d := filepath.Clean(filepath.Join(fl.dir, filepath.FromSlash(rel)))
		if d != fl.dir && within(d, g.Root) && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	byFile := g.sysPaths[fl.dir]
	if len(dirs) == 0 {
		delete(byFile, fl.path)
		return
	}
	if byFile == nil {
		if g.sysPaths == nil {
			g.sysPaths = map[string]map[string][]string{}
		}
		byFile = map[string][]string{}
		g.sysPaths[fl.dir] = byFile
	}
	byFile[fl.path] = dirs
}

// importDirs are the folders an absolute import written in dir resolves
// from, nearest first, as Python's path would have them for a script run
// there: dir itself (a script's own folder comes first), each folder
// between it and the root that is not a package (a sub-project's folder,
// which its scripts run from or put on the path), then the import roots.
// The nearest folder wins where two sub-projects have a package of the
// same name.
func (g *Graph) importDirs(dir string) []string {
	memo := g.memo.Load()
	if memo != nil {
		if d, ok := memoGet(memo, &memo.dirs, dir); ok {
			return d
		}
	}
	dirs := g.findImportDirs(dir)
	if memo != nil {
		memoPut(memo, &memo.dirs, dir, dirs)
	}
	return dirs
}

// resolveMemo holds what refs resolve to from each folder, the import
// folders of each, and lookupObject's answers, between two changes of the
// graph; safe for concurrent use through memoGet and memoPut. Typed maps:
// a sync.Map would box every key it is asked.
type resolveMemo struct {
	mu      sync.RWMutex
	targets map[resolveKey]target
	dirs    map[string][]string
	objects map[resolveKey]*object // nil: none
}

// memoGet reads one of memo's maps (m points into memo) under its lock.
func memoGet[K comparable, V any](memo *resolveMemo, m *map[K]V, k K) (V, bool) {
	memo.mu.RLock()
	defer memo.mu.RUnlock()
	v, ok := (*m)[k]
	return v, ok
}

// memoPut writes one of memo's maps (m points into memo) under its lock.
func memoPut[K comparable, V any](memo *resolveMemo, m *map[K]V, k K, v V) {
	memo.mu.Lock()
	defer memo.mu.Unlock()
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}

// findImportDirs is importDirs without the memo.
func (g *Graph) findImportDirs(dir string) []string {
	dirs := []string{dir}
	// What the folder's scripts put on the path: nearest after their own.
	if byFile := g.sysPaths[dir]; len(byFile) > 0 {
		paths := make([]string, 0, len(byFile))
		for p := range byFile {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			for _, d := range byFile[p] {
				if !slices.Contains(dirs, d) {
					dirs = append(dirs, d)
				}
			}
		}
	}
	if dir != g.Root && within(dir, g.Root) {
		for d := filepath.Dir(dir); d != g.Root; d = filepath.Dir(d) {
			if g.files[filepath.Join(d, "__init__.py")] == nil {
				dirs = append(dirs, d)
			}
		}
	}
	return append(dirs, g.roots...)
}

// target is what a ref resolves to: an object, or a module with no
// attribute left, and what its search left out on its way.
type target struct {
	obj    *object
	module *file
	gaps
}

// gaps says what a search left out. cut: it gave up on a chain too deep
// (an import cycle), so the answer depends on the depth it was asked
// from. partial: a lookup the resolution had made already was not made
// again, so what is not found is not found from here alone. An answer
// with either is not memoized.
type gaps struct {
	cut, partial bool
}

// and is what two searches left out together.
func (g gaps) and(o gaps) gaps {
	return gaps{cut: g.cut || o.cut, partial: g.partial || o.partial}
}

func (t target) found() bool { return t.obj != nil || t.module != nil }

// resolve finds what ref, written in file from, refers to in the project.
// A ref other than a name of the file's own ("#x") depends only on the
// folder it is written in, and goes through the graph's memo.
func (g *Graph) resolve(ref string, from *file) target {
	return g.resolveIn(ref, from, 0, nil)
}

// visits are the attribute lookups (module and chain) one resolution has
// under way or done, with the least depth each was made at: a package
// whose modules star-import one another is searched once per lookup and
// depth, not once per path to it.
type visits map[visit]int

// visit is a lookup of a dotted chain of names in a module.
type visit struct {
	mod   *file
	chain string
}

// resolveIn is resolve within a resolution that has made visits.
func (g *Graph) resolveIn(ref string, from *file, depth int, seen visits) target {
	if ref == "" {
		return target{}
	}
	if ref[0] != '.' && ref[0] != '#' {
		head, _, _ := strings.Cut(ref, ".")
		if !g.heads[head] {
			return target{} // outside the project: torch, numpy, ...
		}
	}
	if ref[0] == '#' {
		// A name of the file's own is a lookup or two: not worth the
		// memo, which keeps what it is bound to (by folder) instead.
		if depth > 16 {
			return target{gaps: gaps{cut: true}}
		}
		return g.search(ref, from, depth, seen)
	}
	k := resolveKey{dir: from.dir, ref: ref}
	memo := g.memo.Load()
	if memo != nil {
		if t, ok := memoGet(memo, &memo.targets, k); ok {
			return t
		}
	}
	if depth > 16 {
		return target{gaps: gaps{cut: true}}
	}
	t := g.search(ref, from, depth, seen)
	if memo != nil && t.gaps == (gaps{}) {
		memoPut(memo, &memo.targets, k, t)
	}
	return t
}

// search is resolve without the memo.
func (g *Graph) search(ref string, from *file, depth int, seen visits) target {
	if local, ok := strings.CutPrefix(ref, "#"); ok {
		if !strings.Contains(local, ".") {
			return g.attr(from, []string{local}, depth+1, seen)
		}
		return g.attr(from, strings.Split(local, "."), depth+1, seen)
	}
	var dirs []string
	name := ref
	if ref[0] == '.' {
		n := len(ref) - len(strings.TrimLeft(ref, "."))
		dir := from.dir
		for i := 1; i < n; i++ {
			dir = filepath.Dir(dir)
		}
		dirs = []string{dir}
		name = ref[n:]
	} else {
		dirs = g.importDirs(from.dir)
	}
	var parts []string
	if name != "" {
		parts = strings.Split(name, ".")
	}
	var left gaps
	for _, dir := range dirs {
		// The longest run of leading parts that names a folder or a file
		// of the graph: no module is longer.
		var buf [256]byte
		n, p := 0, append(buf[:0], dir...)
		for n < len(parts) {
			p = append(append(p, filepath.Separator), parts[n]...)
			if !g.entries[string(p)] {
				break
			}
			n++
		}
		if n == 0 && len(parts) > 0 {
			continue // nothing of the graph under that name here
		}
		for i := n; i >= 0; i-- {
			var mod *file
			if i == 0 {
				if ref[0] != '.' {
					break // an absolute import names a module
				}
				mod = g.files[filepath.Join(dir, "__init__.py")]
			} else {
				mod = g.findModule(dir, parts[:i])
			}
			if mod == nil {
				continue
			}
			if i == len(parts) {
				// `from attack import Attacker` where attack/__init__.py
				// binds the class Attacker of attack/Attacker.py: the
				// package's binding hides its submodule of that name.
				if i > 1 {
					if pkg := g.findModule(dir, parts[:i-1]); pkg != nil && strings.HasSuffix(pkg.path, "__init__.py") {
						if _, bound := pkg.sum.Bindings.Get(parts[i-1]); bound || pkg.objs[parts[i-1]] != nil {
							if t := g.attr(pkg, parts[i-1:], depth+1, seen); t.obj != nil {
								t.gaps = left.and(t.gaps)
								return t
							}
						}
					}
				}
				return target{module: mod, gaps: left}
			}
			t := g.attr(mod, parts[i:], depth+1, seen)
			left = left.and(t.gaps)
			if t.found() {
				t.gaps = left
				return t
			}
		}
	}
	return target{gaps: left}
}

// attr resolves an attribute chain in a module: a definition, a name it
// imports or aliases (a re-export), an instance, or a name its star
// imports bring in.
func (g *Graph) attr(mod *file, chain []string, depth int, seen visits) target {
	if len(chain) == 0 {
		return target{module: mod}
	}
	if depth > 16 {
		return target{gaps: gaps{cut: true}}
	}
	if len(mod.sum.Stars) > 0 || strings.HasSuffix(mod.path, "__init__.py") {
		// Where the search can branch. A lookup met again within one
		// resolution, at no smaller depth, is under way or failed, and
		// can find no more than it did (or will): partial, so that what
		// it leaves unfound is not kept in the memo.
		k := visit{mod, chain[0]}
		if len(chain) > 1 {
			k.chain = strings.Join(chain, ".")
		}
		if d, ok := seen[k]; ok && d <= depth {
			return target{gaps: gaps{partial: true}}
		}
		if seen == nil {
			seen = visits{}
		}
		seen[k] = depth
	}
	name := chain[0]
	if len(chain) == 2 {
		var buf [128]byte
		k := append(append(append(buf[:0], name...), '.'), chain[1]...)
		if o := mod.objs[string(k)]; o != nil {
			return target{obj: o}
		}
	}
	if o := mod.objs[name]; o != nil {
		if len(chain) == 1 {
			return target{obj: o}
		}
		return target{} // an attribute of a function or instance
	}
	if r, ok := mod.sum.Bindings.Get(name); ok {
		if len(chain) > 1 {
			r += "." + strings.Join(chain[1:], ".")
		}
		return g.resolveIn(r, mod, depth+1, seen)
	}
	var left gaps
	for _, star := range mod.sum.Stars {
		if !exported(mod, name) {
			break
		}
		t := g.resolveIn(star, mod, depth+1, seen)
		left = left.and(t.gaps)
		if t.module != nil && t.obj == nil {
			t := g.attr(t.module, chain, depth+1, seen)
			left = left.and(t.gaps)
			if t.found() {
				t.gaps = left
				return t
			}
		}
	}
	// A submodule of a package: `import models` then `models.resnet.Net`.
	if strings.HasSuffix(mod.path, "__init__.py") {
		if sub := g.findModule(mod.dir, []string{name}); sub != nil {
			t := g.attr(sub, chain[1:], depth+1, seen)
			t.gaps = t.and(left)
			return t
		}
	}
	return target{gaps: left}
}

// exported reports whether `from mod import *` binds name: listed in its
// __all__ if it has one, else not private.
func exported(mod *file, name string) bool {
	if mod.sum.All != nil {
		for _, a := range mod.sum.All {
			if a == name {
				return true
			}
		}
		return false
	}
	return !strings.HasPrefix(name, "_")
}

// Solve resolves every file's summary over the import graph and works out
// the facts to a fixed point: which classes are modules, through bases in
// any file; which functions return a graph, run a forward pass or empty
// the CUDA cache, themselves or through what they call; and the grad
// mode every function's callers, in every file, run it in.
func (g *Graph) Solve() {
	g.memo.Store(nil) // objects are made afresh: nothing resolves until they are
	g.solved = false
	g.fresh.Clear() // their summaries have been added
	if g.nanswers.Load() > 1<<16 {
		// A long-lived graph (the language server's) keeps the answers
		// of the files linted lately, not of every edit it has seen.
		g.answers.Clear()
		g.nanswers.Store(0)
	}
	// The objects of an earlier solve are let go before the new ones are
	// made, so that the two are never held at once; their room is made
	// over to the new ones (nothing outside the graph holds an object).
	clear(g.objs)
	g.objs, g.methods, g.named, g.reach = g.objs[:0], nil, nil, nil
	for _, fl := range g.files {
		clear(fl.objs)
	}
	paths := make([]string, 0, len(g.files))
	n := 0
	for p, fl := range g.files {
		paths = append(paths, p)
		n += len(fl.sum.Classes) + len(fl.sum.Funcs) + len(fl.sum.Instances)
	}
	sort.Strings(paths)
	if cap(g.objs) < n {
		g.objs = make([]*object, 0, n)
	}
	if cap(g.store) < n {
		g.store = make([]object, n+n/8) // room for the files still to come
	}
	clear(g.store) // nothing of the solve before is held past it
	// Each file's objects are made in its own stretch of the store, all
	// files at once, and listed in the order of paths.
	start := make([]int, len(paths)+1)
	for i, p := range paths {
		fl := g.files[p]
		start[i+1] = start[i] + len(fl.sum.Classes) + len(fl.sum.Funcs) + len(fl.sum.Instances)
	}
	fileObjs := make([][]object, len(paths))
	workers.Run(0, len(paths), func(i int) {
		fileObjs[i] = g.makeObjects(g.files[paths[i]], g.store[start[i]:start[i+1]])
	})
	for i := range paths {
		for j := range fileObjs[i] {
			g.objs = append(g.objs, &fileObjs[i][j])
		}
	}
	g.memo.Store(new(resolveMemo))
	// Then each file's links: first the bases of classes and instances,
	// which the lookups of the other links read (inherited methods).
	workers.Run(0, len(paths), func(i int) {
		g.linkBases(g.files[paths[i]])
	})
	calls := make([][]callEdge, len(paths))
	named := make([][]callEdge, len(paths))
	escapes := make([][]*object, len(paths))
	backprops := make([][]*object, len(paths))
	workers.Run(0, len(paths), func(i int) {
		fl := g.files[paths[i]]
		calls[i], named[i], escapes[i] = g.link(fl)
		backprops[i] = g.linkBackprops(fl, fileObjs[i])
	})
	// The callers of each function, and the calls by each method name, in
	// the order of paths, in room kept from solve to solve.
	g.callerRoom = spread(g.callerRoom, calls, func(e callEdge) *object { return e.callee },
		func(o *object) *[]callEdge { return &o.callers })
	g.named, g.namedRoom = byName(g.namedRoom, named, func(e callEdge) string {
		return e.site.Callee[strings.LastIndexByte(e.site.Callee, '.')+1:]
	})
	for i := range paths {
		for _, o := range escapes[i] {
			o.escapes = true
		}
		for _, t := range backprops[i] {
			t.fact.ResultBackprop = true
		}
	}
	g.methodsOnce = new(sync.Once) // fixGrad may index the methods
	g.fixModules()
	g.fixModuleAttrs()
	order := g.callOrder()
	g.fixFunctions(order)
	g.fixGrad(order)
	g.solved = true
}

// indexMethods lists the methods of the project's classes by name, once
// a solve, when a lookup first needs them. A notebook's classes are left
// out: a method of the project called by name on an object of no known
// class is one of a file the caller could import, and a notebook's own
// method, asked about by that notebook ("?.name"), has no rival in it.
func (g *Graph) indexMethods() {
	var methods []*object
	for _, o := range g.objs {
		if analyzer.IsNotebook(o.key.file.path) {
			continue
		}
		if class, name, ok := strings.Cut(o.key.name, "."); ok && o.kind == analyzer.ObjectFunction && !strings.Contains(name, ".") {
			if c := o.key.file.objs[class]; c != nil && c.kind == analyzer.ObjectClass {
				methods = append(methods, o)
			}
		}
	}
	g.methods, _ = byName(nil, [][]*object{methods}, func(o *object) string { return o.key.name[strings.IndexByte(o.key.name, '.')+1:] })
}

// anyMethod answers the ref "*.name", a method called on an object whose
// class is not known (`model.sample(n)` with model a parameter): the
// first method of that name in the project where every one of them runs
// no forward pass in its caller's mode (it runs with grad disabled, by
// `@torch.no_grad()` or a decorator that sets the mode, or the forward
// passes it runs are all under its own `no_grad`), else nil.
func (g *Graph) anyMethod(name string) *analyzer.Object {
	g.methodsOnce.Do(g.indexMethods)
	ms := g.methods[name]
	if len(ms) == 0 {
		return nil
	}
	mode := analyzer.GradDisabled
	for _, o := range ms {
		body := g.localGrad(o, 0)
		if o.fact.GradKnown {
			body = o.fact.Grad
		}
		switch {
		case body == analyzer.GradEnabled && (o.fn == nil || !o.fn.OwnNoGrad || o.fact.Forward != nil || len(o.fact.rare().ParamCalls) > 0):
			return nil
		case body == analyzer.GradUnknown:
			mode = body
		}
	}
	o := ms[0]
	return &analyzer.Object{Kind: o.kind, Grad: mode, GradKnown: true,
		Site: analyzer.Site{Path: o.key.file.rel, Abs: o.key.file.path, Line: o.line, Text: o.key.name}}
}

// namedCalls answers the ref "?.name", asked for a method of a notebook
// (which no file imports, so the project has no object of it): the calls
// of the project's files of that method name on objects of no known
// class, which may hand them a notebook's object. Grad is the mode they
// run in (enabled where one does), CalledByName is set where a class of
// the project has a method of that name too (the calls may be its), and
// RepeatedBy is the first of them on every iteration of a loop. Nil where
// there are none, or where the name is one that objects of libraries a
// training loop drives have too.
func (g *Graph) namedCalls(name string, asker *file) *analyzer.Object {
	if analyzer.CommonMethods[name] {
		return nil
	}
	var out *analyzer.Object
	for _, e := range g.named[name] {
		// The calls of the project's Python files, and the asking
		// notebook's own: another notebook is never handed its objects.
		if e.file != nil && analyzer.IsNotebook(e.file.path) && (asker == nil || e.file.path != asker.path) {
			continue
		}
		if out == nil {
			g.methodsOnce.Do(g.indexMethods)
			out = &analyzer.Object{Kind: analyzer.ObjectFunction, GradKnown: true, Grad: analyzer.GradDisabled, CalledByName: len(g.methods[name]) > 0}
		}
		if !g.setsGrad(e) || handsOnOwnMode(e, name) {
			continue
		}
		if e.mode() != analyzer.GradDisabled {
			out.Grad = analyzer.GradEnabled
			if e.site.Loop && e.file != nil {
				out.RepeatedBy = earliest(out.RepeatedBy, e, name)
			}
		}
	}
	return out
}

// anyHelper answers the ref "*.name" for the forward pass a method called
// on an object whose class is not known runs (`model.predict(x)` with
// model a parameter): where every method of that name in the project is
// one of a module class that runs a forward pass in its caller's grad
// mode, the first of them, marked ByMethodName with the classes; else nil.
func (g *Graph) anyHelper(name string) *analyzer.Object {
	o, out := g.byMethodName(name, func(o *object) bool {
		return o.fact.Forward != nil && (!o.fact.GradKnown || o.fact.Grad == analyzer.GradEnabled) &&
			(o.fn == nil || !o.fn.GradSet || o.fn.Grad == analyzer.GradEnabled)
	})
	if out != nil {
		out.Forward = o.fact.Forward
	}
	return out
}

// anyBackpropParams answers what the methods a call by name alone may
// run back-propagate of what they are given (`mine.train_step(z, opt)`,
// mine of no known class): the positional parameters whose graph every
// one of them back-propagates, as BackpropParams; nil where they share
// none.
func (g *Graph) anyBackpropParams(name string) *analyzer.Object {
	var common []int
	first := true
	_, out := g.byMethodName(name, func(o *object) bool {
		var bp []int
		if o.fn != nil {
			bp = o.fn.RareFacts().BackpropParams
		}
		if first {
			common, first = slices.Clone(bp), false
		} else {
			common = slices.DeleteFunc(common, func(i int) bool { return !slices.Contains(bp, i) })
		}
		return len(common) > 0
	})
	if out != nil {
		out.BackpropParams = common
	}
	return out
}

// byMethodName answers a question about the methods a call by name alone
// may run (`model.predict(x)`, model of no known class): where there are
// at most four methods of that name in the project, each of a module
// class and each of which is such that ok, the first of them, and an
// answer marked ByMethodName with their classes; else nil.
func (g *Graph) byMethodName(name string, ok func(*object) bool) (*object, *analyzer.Object) {
	g.methodsOnce.Do(g.indexMethods)
	ms := g.methods[name]
	if len(ms) == 0 || len(ms) > 4 {
		return nil, nil
	}
	var classes []string
	for _, o := range ms {
		class, _, _ := strings.Cut(o.key.name, ".")
		c := o.key.file.objs[class]
		if c == nil || !c.fact.Module || !ok(o) {
			return nil, nil
		}
		classes = append(classes, class)
	}
	o := ms[0]
	return o, &analyzer.Object{Kind: o.kind, ByMethodName: true, Classes: classes,
		Site: analyzer.Site{Path: o.key.file.rel, Abs: o.key.file.path, Line: o.line, Text: o.key.name}}
}

// anyTrainSwitch answers a question about the steps of a method that a
// model of no known class calls by name (`model.train_custom()`): where
// every method of that name in the project is one of a module class that
// switches a module to training mode (`self.head.train()`), the first
// such switch, marked ByMethodName with the classes; else nil.
func (g *Graph) anyTrainSwitch(name string) *analyzer.Object {
	o, out := g.byMethodName(name, func(o *object) bool { return o.fact.rare().Train != nil })
	if out != nil {
		out.Train = o.fact.rare().Train
	}
	return out
}

// paramSites is pcs with their sites in fl, as site gives them.
func (g *Graph) paramSites(fl *file, pcs []analyzer.ParamCall) []analyzer.ParamCall {
	var out []analyzer.ParamCall
	for _, pc := range pcs {
		out = append(out, analyzer.ParamCall{Index: pc.Index, Site: g.site(fl, pc.Site), Bounded: pc.Bounded})
	}
	return out
}

func (g *Graph) site(fl *file, s *analyzer.Site) *analyzer.Site {
	if s == nil {
		return nil
	}
	c := *s
	c.Path, c.Abs = fl.rel, fl.path
	return &c
}

// link resolves a file's bases, instances, calls, returns and escapes.
// It changes only the file's own objects, so that files can be linked at
// once; the calls of other files' functions, the calls known by a method
// name alone, and the functions passed as values, are returned for the
// caller to record.
func (g *Graph) link(fl *file) (calls, named []callEdge, escapes []*object) {
	resolve := func(ref string) target { return g.resolve(ref, fl) }
	for i := range fl.sum.Funcs {
		fn := &fl.sum.Funcs[i]
		o := fl.objs[fn.Name]
		for _, r := range fn.RareFacts().Returns {
			if t := resolve(r); t.obj != nil && t.obj.kind == analyzer.ObjectFunction {
				o.returns = append(o.returns, t.obj)
			}
		}
	}
	for i := range fl.sum.Calls {
		c := &fl.sum.Calls[i]
		var caller *object
		if c.Caller != "" {
			caller = fl.objs[c.Caller]
		}
		if c.Callee[0] == '*' {
			named = append(named, callEdge{caller: caller, site: c, file: fl})
			continue
		}
		ref := c.Callee
		if ref[0] == '?' {
			// A name the file's star imports bind, or a method of a
			// class they bind (`?Net.eval`), else a call by the method's
			// name alone.
			head, method, isMethod := strings.Cut(ref[1:], ".")
			if ref = g.star(fl, head); ref == "" {
				if isMethod {
					named = append(named, callEdge{caller: caller, site: c, file: fl})
				}
				continue
			}
			if isMethod {
				ref += "." + method
			}
		}
		t := resolve(ref)
		if !t.found() && !t.cut && strings.Contains(ref, ".") && g.ofProject(ref) {
			named = append(named, callEdge{caller: caller, site: c, file: fl})
			continue
		}
		if t.obj == nil || t.obj.kind != analyzer.ObjectFunction {
			continue
		}
		if caller == t.obj {
			continue // recursion runs in the mode of the outer call
		}
		calls = append(calls, callEdge{caller: caller, callee: t.obj, site: c, file: fl})
	}
	// Each caller's list of callees, in room of the file's.
	fl.callees = spread(fl.callees, [][]callEdge{calls}, func(e callEdge) *object { return e.caller },
		func(o *object) *[]callEdge { return &o.callees })
	for _, r := range fl.sum.Escapes {
		if t := resolve(r); t.obj != nil && t.obj.kind == analyzer.ObjectFunction {
			escapes = append(escapes, t.obj)
		}
	}
	return calls, named, escapes
}

// makeObjects makes the objects of a file's summary in room, which has
// room for all of them, and returns those it made.
func (g *Graph) makeObjects(fl *file, room []object) []object {
	if fl.objs == nil {
		fl.objs = make(map[string]*object, len(room))
	}
	n := 0
	alloc := func(o object) *object {
		p := &room[n]
		*p = o
		n++
		return p
	}
	for i := range fl.sum.Classes {
		c := &fl.sum.Classes[i]
		o := alloc(object{key: objKey{fl, c.Name}, kind: analyzer.ObjectClass, line: c.Line})
		o.fact.Module, o.fact.NoGraph, o.byForward, o.plain = c.Module, c.NoGraph, c.ByForward, c.Plain
		o.paramFree, o.noModeLayers, o.modeLayers = c.ParamFree, c.NoModeLayers, c.ModeLayers
		fl.objs[o.key.name] = o
	}
	for i := range fl.sum.Funcs {
		fn := &fl.sum.Funcs[i]
		o := alloc(object{key: objKey{fl, fn.Name}, kind: analyzer.ObjectFunction, line: fn.Line, fn: fn, escapes: fn.Escapes})
		o.fact.ReturnsGraph = fn.ReturnsGraph
		r := fn.RareFacts()
		o.fact.Forward = g.site(fl, r.Forward)
		if len(r.BackpropAttrs) > 0 || r.EmptyCache != nil || len(r.ParamCalls) > 0 || len(r.Keeps) > 0 ||
			r.HasSteps() || r.ActivationAt != nil {
			m := o.fact.setRare()
			m.BackpropAttrs = r.BackpropAttrs
			m.EmptyCache = g.site(fl, r.EmptyCache)
			m.ParamCalls = g.paramSites(fl, r.ParamCalls)
			m.Keeps = g.paramSites(fl, r.Keeps)
			m.StepSites = r.StepSites
			for _, s := range m.StepFields() {
				*s = g.site(fl, *s)
			}
			m.ActivationAt = g.site(fl, r.ActivationAt)
		}
		o.fact.Activation = fn.Activation
		if fn.GradSet {
			o.fact.Grad, o.fact.GradKnown = fn.Grad, true
		}
		o.fact.Wraps, o.fact.WrapsKnown = fn.Wraps, fn.WrapsSet
		o.fact.Enters, o.fact.EntersKnown = fn.Enters, fn.EntersSet
		fl.objs[o.key.name] = o
	}
	for _, inst := range fl.sum.Instances {
		if fl.objs[inst.Key] == nil {
			o := alloc(object{key: objKey{fl, inst.Key}, kind: analyzer.ObjectInstance})
			fl.objs[o.key.name] = o
		}
	}
	return room[:n]
}

// linkBases resolves the bases of a file's classes and the classes of
// its instances. It changes only the file's own objects.
func (g *Graph) linkBases(fl *file) {
	for i := range fl.sum.Classes {
		c := &fl.sum.Classes[i]
		o := fl.objs[c.Name]
		for _, b := range c.Bases {
			if t := g.resolve(b, fl); t.obj != nil && t.obj.kind == analyzer.ObjectClass && t.obj != o {
				o.bases = append(o.bases, t.obj)
			} else if !analyzer.PlainBase(b) {
				o.byForward = false // a base the project does not have
			}
		}
	}
	for _, inst := range fl.sum.Instances {
		o := fl.objs[inst.Key]
		if o == nil || o.kind != analyzer.ObjectInstance {
			continue
		}
		if t := g.resolve(inst.Value, fl); t.obj != nil && t.obj.kind == analyzer.ObjectClass {
			o.bases = append(o.bases, t.obj)
		}
	}
	// A function's bases: the class whose instance it builds (Makes).
	for i := range fl.sum.Funcs {
		fn := &fl.sum.Funcs[i]
		ref := fn.RareFacts().Makes
		if o := fl.objs[fn.Name]; ref != "" && o != nil && o.kind == analyzer.ObjectFunction && o.fn == fn {
			if t := g.resolve(ref, fl); t.obj != nil && t.obj.kind == analyzer.ObjectClass {
				o.bases = append(o.bases[:0], t.obj)
			}
		}
	}
}

// linkBackprops finds, once the bases are linked, the functions whose
// results a file back-propagates (itself, or through a function it
// passes them to), returned for the caller to mark, and the methods of
// base classes in other files whose back-propagated attributes of self
// each of its own functions (objs) reaches.
func (g *Graph) linkBackprops(fl *file, objs []object) (marked []*object) {
	for _, r := range fl.sum.Backprops {
		if t := g.findObject(r, fl); t != nil && t.kind == analyzer.ObjectFunction {
			marked = append(marked, t)
		}
	}
	for _, v := range fl.sum.BackpropsVia {
		c := g.findObject(v.Callee, fl)
		if c == nil || c.kind != analyzer.ObjectFunction || !slices.Contains(c.fn.RareFacts().BackpropParams, v.Index) {
			continue
		}
		if t := g.findObject(v.Result, fl); t != nil && t.kind == analyzer.ObjectFunction {
			marked = append(marked, t)
		}
	}
	for i := range objs {
		o := &objs[i]
		if o.fn == nil {
			continue
		}
		for _, r := range o.fn.RareFacts().BackpropVia {
			if t := g.findObject(r, fl); t != nil && t.kind == analyzer.ObjectFunction && t != o {
				o.backpropVia = append(o.backpropVia, t)
			}
		}
	}
	return marked
}

// roomFor returns room for n items: room itself when it is large enough.
func roomFor[T any](room []T, n int) []T {
	if cap(room) < n {
		return make([]T, n, n+n/8)
	}
	// What the room held past n is let go: it points into the objects
	// of the solve before.
	clear(room[n:cap(room)])
	return room[:n]
}

// spread gives each object the edges owner gives it (nil: none), in the
// order of lists, as one list of list(o), all held in room: sized first,
// so that no list grows. It returns the room, grown where short.
func spread(room []callEdge, lists [][]callEdge, owner func(callEdge) *object, list func(*object) *[]callEdge) []callEdge {
	n := 0
	for _, l := range lists {
		for _, e := range l {
			if o := owner(e); o != nil {
				o.count++
				n++
			}
		}
	}
	room = roomFor(room, n)
	rest := room
	for _, l := range lists {
		for _, e := range l {
			if o := owner(e); o != nil && o.count > 0 {
				*list(o), rest = rest[:0:o.count], rest[o.count:]
				o.count = 0
			}
		}
	}
	for _, l := range lists {
		for _, e := range l {
			if o := owner(e); o != nil {
				p := list(o)
				*p = append(*p, e)
			}
		}
	}
	return room
}

// byName groups the items of lists by their names, each group in the
// order of lists, all held in room: sized first, so that no group grows.
// It returns the groups and the room, grown where short.
func byName[T any](room []T, lists [][]T, name func(T) string) (map[string][]T, []T) {
	counts := map[string]int{}
	n := 0
	for _, l := range lists {
		for _, x := range l {
			counts[name(x)]++
		}
		n += len(l)
	}
	room = roomFor(room, n)
	rest := room
	groups := make(map[string][]T, len(counts))
	for k, c := range counts {
		groups[k], rest = rest[:0:c], rest[c:]
	}
	for _, l := range lists {
		for _, x := range l {
			k := name(x)
			groups[k] = append(groups[k], x)
		}
	}
	return groups, room
}

// ofProject reports whether a ref names something of the project by its
// first part: a name of the file's own, a relative import, or an import
// of one of its packages.
func (g *Graph) ofProject(ref string) bool {
	if ref[0] == '#' || ref[0] == '.' {
		return true
	}
	head, _, _ := strings.Cut(ref, ".")
	return g.heads[head]
}

// fixModules: a class is a module when a base in any file is; an
// instance when its class is, and records no graph when its class does
// not.
func (g *Graph) fixModules() {
	// A class that its file made a module by its forward alone is none
	// where no base is one as the files show them, before any is made a
	// module through its own bases below (which makes it one again).
	// Its NoGraph stays: it holds again if it is.
	for changed := true; changed; {
		changed = false
		for _, o := range g.objs {
			if o.byForward && o.fact.Module && !slices.ContainsFunc(o.bases, func(b *object) bool { return b.fact.Module }) {
				o.fact.Module, changed = false, true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, o := range g.objs {
			if o.fact.Module || o.kind == analyzer.ObjectFunction {
				continue
			}
			for _, b := range o.bases {
				if b.fact.Module {
					o.fact.Module, changed = true, true
					break
				}
			}
		}
	}
	// A class builds no parameter where its file shows it builds none
	// and each base of the project it counted on, linked, builds none;
	// calling an instance of one that is a module then records no graph.
	// So with the layers that evaluation mode changes.
	// So with the classes of other files whose instances it holds
	// (ClassSummary.ParamFreeHolds), each plain or building none.
	var holds map[*object][]*object
	for _, o := range g.objs {
		if o.kind == analyzer.ObjectClass && (o.paramFree || o.noModeLayers) {
			cs := classSummary(o)
			o.paramFree = o.paramFree && cs != nil && len(o.bases) == cs.ParamFreeBases
			o.noModeLayers = o.noModeLayers && cs != nil && len(o.bases) == cs.ModeLayerBases
			if o.paramFree && len(cs.ParamFreeHolds) > 0 {
				held := make([]*object, 0, len(cs.ParamFreeHolds))
				for _, ref := range cs.ParamFreeHolds {
					t := g.resolve(ref, o.key.file)
					if t.obj == nil || t.obj.kind != analyzer.ObjectClass || t.obj == o {
						o.paramFree = false
						break
					}
					held = append(held, t.obj)
				}
				if o.paramFree {
					if holds == nil {
						holds = map[*object][]*object{}
					}
					holds[o] = held
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, o := range g.objs {
			if o.paramFree && (slices.ContainsFunc(o.bases, func(b *object) bool { return !b.paramFree }) ||
				slices.ContainsFunc(holds[o], func(h *object) bool { return !h.plain && !h.paramFree })) {
				o.paramFree, changed = false, true
			}
			if o.noModeLayers && slices.ContainsFunc(o.bases, func(b *object) bool { return !b.noModeLayers }) {
				o.noModeLayers, changed = false, true
			}
			if !o.modeLayers && o.kind == analyzer.ObjectClass && slices.ContainsFunc(o.bases, func(b *object) bool { return b.modeLayers }) {
				o.modeLayers, changed = true, true
			}
		}
	}
	for _, o := range g.objs {
		if o.paramFree && o.fact.Module {
			o.fact.NoGraph = true
		}
	}
	for _, o := range g.objs {
		if (o.kind == analyzer.ObjectInstance || o.kind == analyzer.ObjectFunction) && len(o.bases) == 1 {
			// What its class records; for a function, what the instances
			// it builds record, where it passes none of the arguments
			// that decide what the class freezes.
			o.fact.NoGraph = o.bases[0].fact.NoGraph && (o.kind != analyzer.ObjectFunction || !passesFreeze(o.fn, o.bases[0]))
		}
	}
}

// classFreezeParams returns the FreezeParams of class c's summary.
func classFreezeParams(c *object) []string {
	if cs := classSummary(c); cs != nil {
		return cs.FreezeParams
	}
	return nil
}

// fixModuleAttrs sets each class's moduleAttrs from its summary's
// AttrClasses: a torch.nn class, or one of the project that is a module.
func (g *Graph) fixModuleAttrs() {
	for _, o := range g.objs {
		if o.kind != analyzer.ObjectClass {
			continue
		}
		o.moduleAttrs = nil
		cs := classSummary(o)
		if cs == nil {
			continue
		}
		for _, p := range cs.AttrClasses {
			if torchModuleClass(p.Value) {
				o.moduleAttrs = append(o.moduleAttrs, p.Key)
				continue
			}
			if t := g.resolve(p.Value, o.key.file); t.obj != nil && t.obj.kind == analyzer.ObjectClass && t.obj.fact.Module {
				o.moduleAttrs = append(o.moduleAttrs, p.Key)
			}
		}
	}
}

// torchModuleClass reports whether ref names a module class of torch.nn
// (`torch.nn.Linear`, `torch.nn.Sequential`), not a function of it or a
// parameter.
func torchModuleClass(ref string) bool {
	name, ok := strings.CutPrefix(ref, "torch.nn.")
	if !ok || strings.Contains(name, ".") && !strings.HasPrefix(name, "modules.") {
		return false
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	return last != "" && last[0] >= 'A' && last[0] <= 'Z' && !strings.HasPrefix(last, "Parameter")
}

// classSummary returns the summary of class c, or nil.
func classSummary(c *object) *analyzer.ClassSummary {
	for i := range c.key.file.sum.Classes {
		if cs := &c.key.file.sum.Classes[i]; cs.Name == c.key.name {
			return cs
		}
	}
	return nil
}

// passesFreeze reports whether the constructions of function fn (Makes)
// pass an argument for a parameter that decides what class c freezes.
func passesFreeze(fn *analyzer.FuncSummary, c *object) bool {
	return fn == nil || analyzer.PassesParams(fn.RareFacts().MakesArgs, classFreezeParams(c))
}

// callOrder lists the project's functions callees first: each after the
// functions it calls, returns the results of, or reaches through
// back-propagated attributes, but where they call one another. The
// fixpoints below reach the same facts in any order; swept in this one
// (or its reverse, for what flows from callers to callees) they settle
// in about two sweeps rather than six.
func (g *Graph) callOrder() []*object {
	order := make([]*object, 0, len(g.objs))
	const (
		unseen = iota
		open
		done
	)
	state := make(map[*object]uint8, len(g.objs))
	type frame struct {
		o    *object
		next int // the next successor to visit
	}
	succ := func(o *object, i int) *object {
		if i < len(o.callees) {
			return o.callees[i].callee
		}
		i -= len(o.callees)
		if i < len(o.returns) {
			return o.returns[i]
		}
		i -= len(o.returns)
		if i < len(o.backpropVia) {
			return o.backpropVia[i]
		}
		return nil
	}
	var stack []frame
	for _, root := range g.objs {
		if root.kind != analyzer.ObjectFunction || state[root] != unseen {
			continue
		}
		state[root] = open
		stack = append(stack[:0], frame{o: root})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if s := succ(top.o, top.next); s != nil {
				top.next++
				if state[s] == unseen && s.kind == analyzer.ObjectFunction {
					state[s] = open
					stack = append(stack, frame{o: s})
				}
				continue
			}
			state[top.o] = done
			order = append(order, top.o)
			stack = stack[:len(stack)-1]
		}
	}
	return order
}

// fixFunctions propagates returned graphs, forward passes, cache
// emptying and what functions do to a step's state from callees to
// callers, sweeping the functions in order (callOrder).
func (g *Graph) fixFunctions(order []*object) {
	// The overrides, found once: of methods whose results are
	// back-propagated, what they return is back-propagated too; of
	// abstract methods (concrete), a call of one (`self.observe(x)` in
	// the base class's `meta_observe`) runs an override, and empties the
	// cache where one does, on objects of its class.
	var overrides, concrete [][2]*object
	backprop := slices.ContainsFunc(g.objs, func(o *object) bool { return o.fact.ResultBackprop })
	abstract := slices.ContainsFunc(g.objs, func(o *object) bool { return o.fn != nil && o.fn.RareFacts().Abstract })
	for _, o := range g.objs {
		if o.kind != analyzer.ObjectFunction || !backprop && !abstract {
			continue
		}
		mayFlush := abstract && (o.fact.rare().EmptyCache != nil || len(o.callees) > 0)
		if !backprop && !mayFlush {
			continue
		}
		if base := g.overridden(o); base != nil {
			if backprop {
				overrides = append(overrides, [2]*object{o, base})
			}
			if mayFlush && base.fn != nil && base.fn.RareFacts().Abstract {
				concrete = append(concrete, [2]*object{o, base})
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, ob := range concrete {
			o, base := ob[0], ob[1]
			if c := o.fact.rare(); base.fact.rare().EmptyCache == nil && c.EmptyCache != nil {
				m := base.fact.setRare()
				m.EmptyCache, m.EmptyCacheBy, changed = c.EmptyCache, c.EmptyCacheBy, true
				if m.EmptyCacheBy == "" {
					m.EmptyCacheBy = o.key.name
				}
			}
		}
		for _, ob := range overrides {
			if o, base := ob[0], ob[1]; !o.fact.ResultBackprop && base.fact.ResultBackprop {
				o.fact.ResultBackprop, changed = true, true
			}
		}
		for _, o := range order {
			if !o.fact.ReturnsGraph {
				for _, r := range o.returns {
					if r.fact.ReturnsGraph {
						o.fact.ReturnsGraph, changed = true, true
						break
					}
				}
			}
			if o.fact.ResultBackprop {
				// What it returns is back-propagated too.
				for _, r := range o.returns {
					if !r.fact.ResultBackprop {
						r.fact.ResultBackprop, changed = true, true
					}
				}
			}
			for _, v := range o.backpropVia {
				for _, a := range v.fact.rare().BackpropAttrs {
					if !slices.Contains(o.fact.rare().BackpropAttrs, a) {
						m := o.fact.setRare()
						m.BackpropAttrs, changed = append(slices.Clip(m.BackpropAttrs), a), true
					}
				}
			}
			// A function that back-propagates itself trains the passes
			// it runs: none of them is its callers' (NeedsGrad).
			set := o.fn != nil && (o.fn.GradSet || o.fn.RareFacts().NeedsGrad)
			for _, e := range o.callees {
				if o.fact.Forward == nil && !set && e.site.Inherit && e.callee.fact.Forward != nil {
					o.fact.Forward, changed = e.callee.fact.Forward, true
				}
				if o.fact.rare().EmptyCache == nil && e.site.Always && e.callee.fact.rare().EmptyCache != nil {
					c := e.callee.fact.rare()
					m := o.fact.setRare()
					m.EmptyCache, m.EmptyCacheBy, changed = c.EmptyCache, c.EmptyCacheBy, true
				}
				if steps := &e.callee.fact.rare().StepSites; steps.HasSteps() && o.fact.setRare().MergeSteps(steps) {
					changed = true
				}
			}
		}
	}
}

// fixGrad works out the grad mode each function runs in from its
// callers: disabled when every call in the project runs with grad
// disabled, unknown when it is passed as a value, enabled otherwise. A
// function with no caller in the project is an entry point: it gets no
// fact, and its file judges it alone. A caller not yet settled counts as
// enabled, and a mode only changes from enabled to disabled as callers
// settle (a function passed as a value is unknown from the start), so
// the iteration ends.
func (g *Graph) fixGrad(order []*object) {
	// What the iteration reads and does not change, worked out once: the
	// functions whose mode is not their own decorator's, and for each
	// one no call in the project sets the mode of, the method it
	// overrides.
	type pending struct {
		o      *object
		called bool    // a call that sets its mode reaches it, or it escapes
		base   *object // for one not called: the method it overrides
		named  string  // for one not called: the name namedMethod gives, if any
	}
	fns := make([]pending, 0, len(order))
	for i := len(order) - 1; i >= 0; i-- { // callers first
		o := order[i]
		if o.fn != nil && o.fn.GradSet {
			continue
		}
		p := pending{o: o, called: o.escapes || slices.ContainsFunc(o.callers, g.setsGrad)}
		if !p.called {
			p.base = g.overridden(o)
			p.named, _ = g.namedMethod(o)
		}
		fns = append(fns, p)
	}
	// The mode of the calls by each method name, from the files that may
	// hold an object of the method's file, worked out once a sweep.
	type namedKey struct {
		name string
		file *file
	}
	namedModes := map[namedKey]analyzer.GradMode{}
	for changed := true; changed; {
		changed = false
		clear(namedModes)
		for _, p := range fns {
			o := p.o
			if !p.called {
				// An override nothing calls by its own name (`validate_step`
				// of a subclass) runs where its base class calls it.
				if base := p.base; base != nil && base.fact.GradKnown {
					if !o.fact.GradKnown || o.fact.Grad != base.fact.Grad {
						o.fact.Grad, o.fact.GradKnown, changed = base.fact.Grad, true, true
					}
				} else if p.named != "" {
					k := namedKey{p.named, o.key.file}
					mode, ok := namedModes[k]
					if !ok {
						mode = g.namedMode(p.named, o.key.file)
						namedModes[k] = mode
					}
					if mode != analyzer.GradUnknown && (!o.fact.GradKnown || o.fact.Grad != mode) {
						o.fact.Grad, o.fact.GradKnown, changed = mode, true, true
					}
				}
				continue
			}
			// As a file judges its own functions: used as a value, the
			// mode is unknown; else disabled when every call disables
			// grad, enabled when any does not. A test's call sets nothing.
			mode := analyzer.GradDisabled
			if o.escapes {
				mode = analyzer.GradUnknown
			} else {
				for _, e := range o.callers {
					if g.setsGrad(e) && e.mode() != analyzer.GradDisabled {
						mode = analyzer.GradEnabled
						break
					}
				}
			}
			if !o.fact.GradKnown || o.fact.Grad != mode {
				o.fact.Grad, o.fact.GradKnown, changed = mode, true, true
			}
		}
	}
	// A mode its own file gives the function alone is no fact: the file
	// works it out the same, and its findings need not wait for others.
	// Where its own file sees no call of it, the fact that callers
	// elsewhere set it is kept apart (CalledElsewhere), for a finding to
	// say that it assumed nothing.
	// Whether those calls run in callers' modes that nothing sets is
	// asked first, of the modes just solved (the loop below forgets the
	// ones a file works out alone).
	assumed, vias := map[*object]int8{}, map[*object]*analyzer.Site{}
	for _, o := range g.objs {
		if o.kind == analyzer.ObjectFunction && o.fact.GradKnown && o.fact.Grad == analyzer.GradEnabled {
			if via := g.callersAssumed(o, assumed); via != nil {
				vias[o] = via
			}
		}
	}
	for _, o := range g.objs {
		if o.kind != analyzer.ObjectFunction {
			continue
		}
		local := analyzer.GradUnknown
		if o.fact.GradKnown {
			local = g.localGrad(o, 0)
		}
		if o.fact.GradKnown && o.fact.Grad == local {
			o.fact.GradKnown = false
			byRef, byName := g.calledElsewhereOnly(o)
			o.fact.CalledElsewhere = o.fact.Grad == analyzer.GradEnabled && (byRef || byName)
			o.fact.CalledByName = o.fact.CalledElsewhere && !byRef
			var off, via *analyzer.Site
			if o.fact.CalledByName {
				off = g.namedOff(o)
			}
			if o.fact.CalledElsewhere {
				via = vias[o]
			}
			if off != nil || o.fact.rare().NamedOff != nil { // rare facts only where there is one, or was one
				o.fact.setRare().NamedOff = off
			}
			if via != nil || o.fact.rare().CallersAssumed != nil {
				o.fact.setRare().CallersAssumed = via
			}
			o.fact.EnabledElsewhere = o.fact.Grad == analyzer.GradEnabled && g.enabledElsewhere(o)
		} else {
			// Its own file's calls disable grad; one elsewhere enables it.
			var by *analyzer.Site
			if o.fact.GradKnown && o.fact.Grad == analyzer.GradEnabled && local == analyzer.GradDisabled {
				by = g.enabledBy(o)
			}
			if by != nil || o.fact.rare().EnabledBy != nil {
				o.fact.setRare().EnabledBy = by
			}
		}
	}
	g.solveRepeated()
	for _, o := range g.objs {
		g.evalCalls(o)
		g.moduleCalls(o)
	}
}

// evalCalls sets EvalCalls of a function every call of which, in code
// with grad enabled, hands the same parameter a module its caller
// switched to evaluation mode: evaluation, whatever the function's name.
// Not for a function used as a value, one whose body sets its own mode,
// or a method that calls of its name on objects of no known class may
// reach.
func (g *Graph) evalCalls(o *object) {
	if o.kind != analyzer.ObjectFunction || o.fn == nil || o.fn.GradSet || o.escapes || len(o.callers) == 0 {
		return
	}
	if i := strings.LastIndexByte(o.key.name, '.'); i >= 0 && len(g.named[o.key.name[i+1:]]) > 0 {
		return // a method that calls of its name may reach
	}
	param := o.callers[0].site.Eval
	if param == 0 {
		return
	}
	var calls []analyzer.ParamCall
	for _, e := range o.callers {
		if e.site.Eval != param || !g.setsGrad(e) || e.mode() != analyzer.GradEnabled || e.file == nil {
			return
		}
		if len(calls) < 3 {
			calls = append(calls, analyzer.ParamCall{Index: param - 1, Site: &analyzer.Site{
				Path: e.file.rel, Abs: e.file.path, Line: e.site.Line, Text: o.key.name}})
		}
	}
	o.fact.setRare().EvalCalls = calls
}

// moduleCalls sets ModuleCalls and FrozenCalls of a function: the
// parameters every call of which, in the project, hands a module its
// caller's code shows to be one (CallSummary's Module), or one frozen
// before the call (Frozen). Not for a function used as a value or a
// method that calls of its name on objects of no known class may reach.
func (g *Graph) moduleCalls(o *object) {
	if o.kind != analyzer.ObjectFunction || o.fn == nil || o.escapes || len(o.callers) == 0 {
		return
	}
	if i := strings.LastIndexByte(o.key.name, '.'); i >= 0 && len(g.named[o.key.name[i+1:]]) > 0 {
		return // a method that calls of its name may reach
	}
	module, frozen := ^uint16(0), ^uint16(0)
	for _, e := range o.callers {
		if e.file == nil {
			return
		}
		module &= e.site.Module
		if !g.setsGrad(e) || e.mode() != analyzer.GradDisabled {
			// A call with grad disabled records nothing, whatever it hands.
			frozen &= e.site.Frozen
		}
	}
	if module == 0 && frozen == 0 {
		return
	}
	rare := o.fact.setRare()
	rare.ModuleCalls = g.paramCalls(o, module, func(s *analyzer.CallSummary) uint16 { return s.Module })
	rare.FrozenCalls = g.paramCalls(o, frozen, func(s *analyzer.CallSummary) uint16 { return s.Frozen })
}

// paramCalls returns, for each parameter whose bit is set in bits, the
// first call of o whose own bits (of) have it.
func (g *Graph) paramCalls(o *object, bits uint16, of func(*analyzer.CallSummary) uint16) []analyzer.ParamCall {
	var calls []analyzer.ParamCall
	for i := 0; bits != 0 && i < 16; i++ {
		if bits&(1<<i) == 0 {
			continue
		}
		for _, e := range o.callers {
			if of(e.site)&(1<<i) != 0 {
				calls = append(calls, analyzer.ParamCall{Index: i, Site: &analyzer.Site{
					Path: e.file.rel, Abs: e.file.path, Line: e.site.Line, Text: o.key.name}})
				break
			}
		}
	}
	return calls
}

// enabledElsewhere reports whether code outside a function's own file
// may run it with grad enabled: a call of it there that does not disable
// grad, a call of its method name on objects of no known class from a
// file that may hold one (namedMode), or a use of it as a value.
func (g *Graph) enabledElsewhere(o *object) bool {
	if o.escapes {
		return true
	}
	for _, e := range o.callers {
		if e.file != o.key.file && g.setsGrad(e) && e.mode() != analyzer.GradDisabled {
			return true
		}
	}
	name, ok := g.namedMethod(o)
	if !ok {
		return false
	}
	for _, e := range g.named[name] {
		if g.setsGrad(e) && e.mode() != analyzer.GradDisabled && (e.file == nil || g.mayReach(e.file, o.key.file)) && !handsOnOwnMode(e, name) {
			return true
		}
	}
	return false
}

// enabledBy returns the first call, in path and line order, of o in
// another file that runs it with grad enabled, or nil.
func (g *Graph) enabledBy(o *object) *analyzer.Site {
	var by *analyzer.Site
	for _, e := range o.callers {
		if e.file == nil || e.file == o.key.file || !g.setsGrad(e) || e.mode() == analyzer.GradDisabled {
			continue
		}
		by = earliest(by, e, strings.TrimPrefix(e.site.Callee, "?")+"(...)")
	}
	return by
}

// earliest returns the site of e's call, shown as text, where it comes
// before by in path and line order (or by is nil); else by.
func earliest(by *analyzer.Site, e callEdge, text string) *analyzer.Site {
	if before(e.file.rel, e.site.Line, by) {
		return &analyzer.Site{Path: e.file.rel, Abs: e.file.path, Line: e.site.Line, Column: 1, Text: text}
	}
	return by
}

// before reports whether line of the file at path comes before site by
// in path and line order, or by is nil.
func before(path string, line int, by *analyzer.Site) bool {
	return by == nil || path < by.Path || path == by.Path && line < by.Line
}

// callsOf returns the calls that run function o: those of its ref, or,
// where none is seen, those of its method name on objects of no known
// class (namedMethod), with that name; nil where there are none.
func (g *Graph) callsOf(o *object) (edges []callEdge, byName string) {
	if len(o.callers) > 0 {
		return o.callers, ""
	}
	name, ok := g.namedMethod(o)
	if !ok {
		return nil, ""
	}
	return g.named[name], name
}

// solveRepeated sets RepeatedBy: for each function, the first call (in
// path and line order) on every iteration of a loop of its caller, with
// grad not disabled there, that runs it, itself or through the functions
// that call it (`main` runs `agent.act(obs)` every step, `act` calls
// `self.cc.get_max_action(obs)`). A function's calls are those of its
// ref, or, where none is seen, of its method name on objects of no known
// class (namedMethod).
func (g *Graph) solveRepeated() {
	by := map[*object]*analyzer.Site{}
	var funcs []*object
	for _, o := range g.objs {
		if o.kind == analyzer.ObjectFunction && o.fn != nil {
			funcs = append(funcs, o)
		}
	}
	// Calls in loops first, then through callers: each round reaches one
	// caller further, and a site, once set, is kept.
	for range 8 {
		changed := false
		for _, o := range funcs {
			if by[o] != nil {
				continue
			}
			if at := g.repeatedBy(o, by); at != nil {
				by[o], changed = at, true
			}
		}
		if !changed {
			break
		}
	}
	for _, o := range funcs {
		if by[o] != nil || o.fact.rare().RepeatedBy != nil { // rare facts only where there is one, or was one
			o.fact.setRare().RepeatedBy = by[o]
		}
	}
}

// repeatedBy is solveRepeated's answer for o, from the calls of o and
// the answers found so far for their callers (by); nil where none is.
func (g *Graph) repeatedBy(o *object, by map[*object]*analyzer.Site) *analyzer.Site {
	edges, byName := g.callsOf(o)
	if analyzer.CommonMethods[byName] {
		// A call of one on an object of no known class, in a loop, says
		// nothing of which of the project's methods of that name runs
		// again and again.
		return nil
	}
	text := o.key.name
	if i := strings.LastIndexByte(text, '.'); i >= 0 {
		text = text[i+1:]
	}
	var at, through *analyzer.Site
	for _, e := range edges {
		// A method that calls its name on the objects it holds (a team's
		// `choose_action` looping over its agents' `choose_action`) runs
		// theirs; only a call of o from o itself says nothing.
		if e.file == nil || !g.setsGrad(e) || e.mode() == analyzer.GradDisabled || e.caller == o {
			continue
		}
		switch {
		case e.site.Loop:
			at = earliest(at, e, text)
		case e.caller != nil && by[e.caller] != nil:
			if s := by[e.caller]; before(s.Path, s.Line, through) {
				through = s
			}
		}
	}
	if at != nil {
		return at
	}
	return through
}

// handsOnOwnMode reports whether a call of method name on an object of no
// known class is made by a method of that name in its own mode (`def
// sample(self): ... dist.sample()`): it hands on that method's mode, not
// its callers'.
func handsOnOwnMode(e callEdge, name string) bool {
	c := e.caller
	return c != nil && e.site.Inherit && (c.key.name == name || strings.HasSuffix(c.key.name, "."+name))
}

// calledElsewhereOnly reports whether the grad mode of a function is set
// by calls in other files while its own file sets none (no decorator, no
// use as a value, no call): byRef where calls of it do, or calls of its
// method name on objects of no known class where no other class of the
// project has a method of that name; byName where such calls do and
// another class has one, which they may be calling instead.
func (g *Graph) calledElsewhereOnly(o *object) (byRef, byName bool) {
	if o.fn == nil || o.fn.GradSet || o.fn.Escapes || slices.ContainsFunc(o.callers, func(e callEdge) bool { return e.file == o.key.file }) {
		return false, false
	}
	if slices.ContainsFunc(o.callers, g.setsGrad) || len(o.callers) == 0 && g.baseCalled(o) {
		return true, false
	}
	name, ok := g.namedMethod(o)
	if !ok || !slices.ContainsFunc(g.named[name], g.setsGrad) {
		return false, false
	}
	g.methodsOnce.Do(g.indexMethods)
	if len(g.methods[name]) > 1 {
		return false, true
	}
	return true, false
}

// baseCalled reports whether an override that nothing calls by its own
// ref overrides a method, of a base class in another file, that calls
// of the project reach: the base class's own code (`self.eval_step(s)`
// in `BaseAgent.eval_episode`) runs the override, in their mode
// (fixGrad).
func (g *Graph) baseCalled(o *object) bool {
	for b, depth := g.overridden(o), 0; b != nil && depth < 8; b, depth = g.overridden(b), depth+1 {
		if b.key.file != o.key.file && slices.ContainsFunc(b.callers, g.setsGrad) {
			return true
		}
		if len(b.callers) > 0 || b.fn == nil || b.fn.GradSet || b.fn.Escapes {
			return false
		}
	}
	return false
}

// namedMethod says whether a method that no call reaches by its own ref
// gets its grad mode from the calls of a method of its name on objects of
// no known class (namedMode), and under which name: not for a function
// that is not a method of a class, for one that runs no forward pass in
// its caller's mode, or for `forward` and the dunder methods, which run
// where the object is called or used.
func (g *Graph) namedMethod(o *object) (string, bool) {
	class, name, ok := strings.Cut(o.key.name, ".")
	if !ok || strings.Contains(name, ".") || name == "forward" || strings.HasPrefix(name, "__") {
		return "", false // `forward` and dunders are called by what calls the object
	}
	if c := o.key.file.objs[class]; c == nil || c.kind != analyzer.ObjectClass {
		return "", false
	}
	if o.fact.Forward == nil && len(o.fact.rare().ParamCalls) == 0 {
		return "", false // no forward pass whose mode its callers set
	}
	return name, true
}

// callersAssumed returns, for a function whose grad mode calls in other
// files set (CalledElsewhere: of its ref, or of its method name on
// objects of no known class), where every such call that runs with grad
// enabled does so in its caller's mode, and the caller's own mode is one
// nothing of the project sets (assumedMode), the first of those calls
// (in path and line order), its Text the caller's name:
// `self.head.inference_model(x)` in a detector's `forward_test`, itself
// run by the module's `forward`, which code out of sight calls (a
// framework's test loop, under no_grad). nil otherwise.
func (g *Graph) callersAssumed(o *object, memo map[*object]int8) *analyzer.Site {
	edges, _ := g.callsOf(o)
	var via *analyzer.Site
	for _, e := range edges {
		if !g.setsGrad(e) || e.mode() == analyzer.GradDisabled {
			continue
		}
		if e.file == nil || !e.site.Inherit || e.caller == nil || !g.assumedMode(e.caller, memo) {
			return nil
		}
		via = earliest(via, e, e.caller.key.name)
	}
	return via
}

// assumedMode reports whether function o runs with grad enabled only
// because nothing of the project sets its mode: no decorator, no use as
// a value, no call of its ref (but calls in their callers' mode from
// functions whose mode is itself assumed), no call of its method name
// on objects of no known class; a module's `forward`, which runs where
// the object is called, counts when no call of it is seen.
func (g *Graph) assumedMode(o *object, memo map[*object]int8) bool {
	// memo: 1 assumed, -1 not, 2 while its callers are asked (a cycle of
	// calls sets no mode of its own: not assumed).
	switch memo[o] {
	case 1:
		return true
	case -1, 2:
		return false
	}
	memo[o] = 2
	ok := g.assumedModeOf(o, memo)
	memo[o] = -1
	if ok {
		memo[o] = 1
	}
	return ok
}

func (g *Graph) assumedModeOf(o *object, memo map[*object]int8) bool {
	if o.fn == nil || o.fn.GradSet || o.fn.Escapes || o.escapes {
		return false
	}
	assumed := func(e callEdge) bool {
		return !g.setsGrad(e) || e.mode() == analyzer.GradDisabled ||
			e.site.Inherit && e.caller != nil && e.caller != o && g.assumedMode(e.caller, memo)
	}
	if !allEdges(o.callers, assumed) {
		return false
	}
	if name, ok := g.namedMethod(o); ok && !allEdges(g.named[name], assumed) {
		return false
	}
	return true
}

// allEdges reports whether ok holds for every edge.
func allEdges(edges []callEdge, ok func(callEdge) bool) bool {
	for _, e := range edges {
		if !ok(e) {
			return false
		}
	}
	return true
}

// namedOff returns, for a method whose grad mode calls of its name on
// objects of no known class set, the first such call (in path and line
// order) that runs with grad disabled; nil where there is none.
func (g *Graph) namedOff(o *object) *analyzer.Site {
	name, ok := g.namedMethod(o)
	if !ok {
		return nil
	}
	var off *analyzer.Site
	text := "." + name + "(...)"
	for _, e := range g.named[name] {
		if !g.setsGrad(e) || e.file == nil || e.mode() != analyzer.GradDisabled {
			continue
		}
		off = earliest(off, e, text)
	}
	return off
}

// namedMode is the grad mode the calls of a method named name on objects
// of no known class run a method of file target in: disabled when there
// are some and every one disables grad, else enabled. A call with grad
// enabled from a file that no program of the project runs together with
// target (mayReach) cannot be given its objects, and is not counted;
// unknown when no call is left but such ones. (One that disables grad
// counts wherever it is: imports the project does not see, a registry's,
// may link the two.)
func (g *Graph) namedMode(name string, target *file) analyzer.GradMode {
	mode, left, skipped := analyzer.GradEnabled, false, false
	for _, e := range g.named[name] {
		if !g.setsGrad(e) {
			continue
		}
		if e.file != nil && target != nil && e.mode() != analyzer.GradDisabled && !g.mayReach(e.file, target) {
			skipped = true
			continue
		}
		left = true
		if handsOnOwnMode(e, name) {
			continue
		}
		if e.mode() != analyzer.GradDisabled {
			return analyzer.GradEnabled
		}
		mode = analyzer.GradDisabled
	}
	if skipped && !left {
		return analyzer.GradUnknown
	}
	return mode
}

// mayReach reports whether a program of the project may run file from
// with file to: to is among the files imported, directly or not, by a
// file that imports from (or by from itself), or shares a folder with
// one of them (a package may load its modules by name), or either is
// apart from the project's imports (to imported by no file, from linked
// to none by an import). An object of
// a class of to can then be handed to code of from; otherwise, a call in
// from of a method of that class's name calls another class's.
func (g *Graph) mayReach(from, to *file) bool {
	if from == to {
		return true
	}
	g.reachMu.Lock()
	defer g.reachMu.Unlock()
	if g.reach == nil {
		g.reach = g.importIndex()
	}
	if len(g.reach.importers[to]) == 0 || len(g.reach.importers[from]) == 0 && len(g.reach.imports[from]) == 0 {
		// A file no file imports (a library's module, one loaded by
		// name), or code that shares no import with the project: how
		// objects reach them is not seen.
		return true
	}
	// The folders of the files run with from: a module of one of them
	// may be loaded by name too (a registry's `importlib.import_module`).
	dirs, ok := g.reach.dirs[from]
	if !ok {
		dirs = map[string]bool{}
		for f := range g.reach.runWith(from) {
			dirs[f.dir] = true
		}
		g.reach.dirs[from] = dirs
	}
	return dirs[to.dir]
}

// reachIndex holds the project's imports, file to file, for mayReach.
type reachIndex struct {
	imports, importers map[*file][]*file
	dirs               map[*file]map[string]bool // by file: the folders of the files run with it
}

// importIndex links each file of the graph to the files of the project
// its imports (its bindings and star imports) resolve to.
func (g *Graph) importIndex() *reachIndex {
	r := &reachIndex{imports: map[*file][]*file{}, importers: map[*file][]*file{}, dirs: map[*file]map[string]bool{}}
	for _, fl := range g.files {
		if fl.sum == nil {
			continue
		}
		seen := map[*file]bool{fl: true}
		add := func(t target) {
			mod := t.module
			if t.obj != nil {
				mod = t.obj.key.file
			}
			if mod != nil && !seen[mod] {
				seen[mod] = true
				r.imports[fl] = append(r.imports[fl], mod)
				r.importers[mod] = append(r.importers[mod], fl)
			}
		}
		for _, b := range fl.sum.Bindings {
			if b.Value != "" && b.Value[0] != '#' {
				add(g.resolve(b.Value, fl))
			}
		}
		for _, s := range fl.sum.Stars {
			add(g.resolve(s, fl))
		}
	}
	return r
}

// runWith returns the files a program may run together with from: those
// imported by from or by any file that imports it, directly or not.
func (r *reachIndex) runWith(from *file) map[*file]bool {
	up := []*file{from}
	inUp := map[*file]bool{from: true}
	for i := 0; i < len(up); i++ {
		for _, p := range r.importers[up[i]] {
			if !inUp[p] {
				inUp[p] = true
				up = append(up, p)
			}
		}
	}
	set := map[*file]bool{}
	queue := append([]*file(nil), up...)
	for _, f := range up {
		set[f] = true
	}
	for i := 0; i < len(queue); i++ {
		for _, m := range r.imports[queue[i]] {
			if !set[m] {
				set[m] = true
				queue = append(queue, m)
			}
		}
	}
	return set
}

// overridden returns the method of a base class, in any file, that a
// method of a module-level class overrides; nil for none.
func (g *Graph) overridden(o *object) *object {
	class, method, ok := strings.Cut(o.key.name, ".")
	if !ok || strings.Contains(method, ".") {
		return nil
	}
	c := o.key.file.objs[class]
	if c == nil || c.kind != analyzer.ObjectClass {
		return nil
	}
	return inherited(c, method)
}

// setsGrad reports whether a call counts in its callee's grad mode: one
// from a test file does not, unless the callee is a test's own helper.
func (g *Graph) setsGrad(e callEdge) bool {
	if e.file != nil && e.file.sum.Foreign {
		return false // another framework's code: its objects are not torch's
	}
	return e.file == nil || !e.file.sum.Test || e.callee != nil && e.callee.key.file.sum.Test
}

// localGrad is the grad mode a function's own file gives it, from its
// decorators and the calls in that file, as the file's model works it
// out without facts: unknown when it is used as a value, disabled when
// every call of it there disables grad, else enabled.
func (g *Graph) localGrad(o *object, depth int) analyzer.GradMode {
	fn := o.fn
	if fn == nil || depth > 32 {
		return analyzer.GradEnabled
	}
	if fn.GradSet {
		return fn.Grad
	}
	if fn.Escapes {
		return analyzer.GradUnknown
	}
	n := 0
	for _, e := range o.callers {
		if e.file != o.key.file {
			continue
		}
		n++
		m := e.site.Grad
		if e.site.Inherit {
			m = analyzer.GradEnabled
			if e.caller != nil {
				m = g.localGrad(e.caller, depth+1)
			}
		}
		if m != analyzer.GradDisabled {
			return analyzer.GradEnabled
		}
	}
	if n == 0 {
		return analyzer.GradEnabled
	}
	return analyzer.GradDisabled
}

// Facts returns what the project knows, as seen from the file at path,
// recording every question and its answer. It needs Solve first; for a
// path outside the graph it answers from the project all the same.
func (g *Graph) Facts(path string) *FileFacts {
	path = filepath.Clean(path)
	fl := g.files[path]
	if fl == nil {
		fl = &file{path: path, dir: filepath.Dir(path), sum: &analyzer.Summary{}}
	}
	return &FileFacts{g: g, file: fl}
}

// FileFacts answers one file's questions about its project (it
// implements analyzer.Facts) and records them, so that the file's
// findings can be reused while the answers stay the same.
type FileFacts struct {
	g    *Graph
	file *file
	// Asked maps each question to the answer it got.
	Asked map[string]string
	// memo holds the object each Lookup question got, by its key in Asked.
	memo map[string]*analyzer.Object
}

// Lookup implements analyzer.Facts. An object the project knows nothing
// of that could change a finding (a class that is not a module, a
// function that returns no graph, runs no forward pass, empties no cache
// and runs in the grad mode its own file would give it) is answered as
// nil, as for a name outside the project: a file's findings then change
// only where its facts do, and only such files are linted again.
func (ff *FileFacts) Lookup(ref string, want analyzer.Want) *analyzer.Object {
	var out *analyzer.Object
	if ff.g != nil && ref != "" && ref[0] != '#' && ref[0] != '.' && ref[0] != '*' && ref[0] != '?' {
		// A ref whose first part names nothing of the project (torch,
		// numpy, os) is answered by that alone, and recorded once.
		if head, _, _ := strings.Cut(ref, "."); !ff.g.heads[head] {
			ff.record("H"+head, "")
			return nil
		}
	}
	q := "L" + strconv.Itoa(int(want)) + " " + ref
	if o, ok := ff.memo[q]; ok {
		// Asked again (rules ask the same of many calls): the answer it
		// got, encoded and recorded once.
		return o
	}
	switch name, any := strings.CutPrefix(ref, "*."); {
	case ff.g == nil || !ff.g.solved:
	case strings.HasPrefix(ref, "?."):
		out = ff.g.namedCalls(strings.TrimPrefix(ref, "?."), ff.file)
	case any:
		switch {
		case want&analyzer.WantGrad != 0:
			out = ff.g.anyMethod(name)
		case want == analyzer.WantHelper:
			out = ff.g.anyHelper(name)
		case want == analyzer.WantSteps:
			out = ff.g.anyTrainSwitch(name)
		case want == analyzer.WantParams:
			out = ff.g.anyBackpropParams(name)
		}
	default:
		if o := ff.g.lookupObject(ref, ff.file); o != nil {
			out = project(o, want)
			if want == analyzer.WantParams && o.kind == analyzer.ObjectFunction {
				out = ff.g.freshParams(o, out)
			}
		}
	}
	ff.record(q, out)
	if ff.memo == nil {
		ff.memo = map[string]*analyzer.Object{}
	}
	ff.memo[q] = out
	return out
}

// Fresh records the summary of a file just summarized, while the graph
// still holds the one it had (its text scan's) until the next solve: a
// question about a function's parameters, which only its own summary
// answers, then gets its final answer from a file linted earlier in the
// same run, and the file that asks it need not be linted again. Safe for
// concurrent use with lookups.
func (g *Graph) Fresh(path string, s *analyzer.Summary) {
	if s != nil {
		g.fresh.Store(filepath.Clean(path), s)
	}
}

// freshParams is project(o, WantParams) from the fresh summary of o's
// file, if there is one; else out.
func (g *Graph) freshParams(o *object, out *analyzer.Object) *analyzer.Object {
	v, ok := g.fresh.Load(o.key.file.path)
	if !ok {
		return out
	}
	s := v.(*analyzer.Summary)
	i := len(s.Funcs) - 1 // the last of a name, as link keeps it
	for i >= 0 && s.Funcs[i].Name != o.key.name {
		i--
	}
	if i < 0 {
		return out
	}
	fs := &s.Funcs[i]
	r := fs.RareFacts()
	fact := &analyzer.Object{Kind: o.kind, Site: o.site(fs.Line)}
	if !setParams(fact, r.GraphParams, r.BackpropParams, r.BackpropAttrs) && !r.DropsArgs && len(r.CutParams) == 0 && len(r.FreezesParams) == 0 {
		return nil
	}
	fact.DropsArgs, fact.CutParams, fact.FreezesParams = r.DropsArgs, r.CutParams, r.FreezesParams
	return fact
}

// lookupObject resolves ref from fl once the graph is solved: an object
// of the project, or a method that a class (`pkg.Trainer.update`)
// inherits from the nearest of its bases that defines it.
func (g *Graph) lookupObject(ref string, fl *file) *object {
	k := resolveKey{dir: fl.dir, ref: ref}
	if strings.HasPrefix(ref, "#") {
		k.dir = fl.path // a name of the file's own
	}
	memo := g.memo.Load()
	if memo != nil {
		if o, ok := memoGet(memo, &memo.objects, k); ok {
			return o
		}
	}
	o := g.findObject(ref, fl)
	if memo != nil {
		memoPut(memo, &memo.objects, k, o)
	}
	return o
}

// findObject is lookupObject without its cache.
func (g *Graph) findObject(ref string, fl *file) *object {
	t := g.resolve(ref, fl)
	if t.obj != nil || t.module != nil {
		return t.obj
	}
	i := strings.LastIndexByte(ref, '.')
	if i <= 0 {
		return nil
	}
	c := g.resolve(ref[:i], fl).obj
	if c == nil || c.kind != analyzer.ObjectClass {
		return nil
	}
	return inherited(c, ref[i+1:])
}

// inherited returns the method of the nearest base class of c (breadth
// first) that defines it, or nil.
func inherited(c *object, method string) *object {
	if len(c.bases) == 0 {
		return nil // most classes: nothing to search, nothing to allocate
	}
	// Hierarchies are shallow: the classes seen are kept in a short list
	// on the stack, and in a map only past it.
	var seenBuf, queueBuf [16]*object
	seen, queue := append(seenBuf[:0], c), append(queueBuf[:0], c.bases...)
	var seenMap map[*object]bool
	var key [128]byte
	for i := 0; i < len(queue); i++ {
		b := queue[i]
		switch {
		case seenMap != nil:
			if seenMap[b] {
				continue
			}
			seenMap[b] = true
		case slices.Contains(seen, b):
			continue
		case len(seen) < len(seenBuf):
			seen = append(seen, b)
		default:
			seenMap = map[*object]bool{b: true}
			for _, o := range seen {
				seenMap[o] = true
			}
		}
		k := append(append(append(key[:0], b.key.name...), '.'), method...)
		if m := b.key.file.objs[string(k)]; m != nil && m.kind == analyzer.ObjectFunction {
			return m
		}
		queue = append(queue, b.bases...)
	}
	return nil
}

// project keeps of an object's facts those want names, or nil when none
// of them holds.
func project(o *object, want analyzer.Want) *analyzer.Object {
	var fact analyzer.Object
	some := want&analyzer.WantKind != 0
	if want&analyzer.WantModule != 0 && o.fact.Module {
		fact.Module, some = true, true
	}
	if want&analyzer.WantModule != 0 && o.kind == analyzer.ObjectClass && len(o.moduleAttrs) > 0 {
		fact.ModuleAttrs, some = o.moduleAttrs, true
	}
	if want&analyzer.WantModule != 0 && o.kind == analyzer.ObjectClass && o.plain && !o.fact.Module {
		fact.Plain, some = true, true
	}
	if want&analyzer.WantLayers != 0 && o.kind == analyzer.ObjectClass && o.paramFree {
		fact.ParamFree, some = true, true
	}
	if want&analyzer.WantLayers != 0 && o.kind == analyzer.ObjectClass && o.noModeLayers {
		fact.NoModeLayers, some = true, true
	}
	if want&analyzer.WantLayers != 0 && o.kind == analyzer.ObjectClass && o.modeLayers {
		fact.ModeLayers, some = true, true
	}
	if want&analyzer.WantNoGraph != 0 && o.fact.NoGraph {
		fact.NoGraph, some = true, true
		if o.kind == analyzer.ObjectClass {
			fact.FreezeParams = classFreezeParams(o)
		}
	} else if want&analyzer.WantNoGraph != 0 && o.kind == analyzer.ObjectClass {
		if cs := classSummary(o); cs != nil && len(cs.FrozenWith) > 0 {
			fact.FrozenWith, fact.FreezeParams, some = cs.FrozenWith, cs.FreezeParams, true
		}
		if cs := classSummary(o); cs != nil && len(cs.NoGraphWith) > 0 {
			fact.NoGraphWith, some = cs.NoGraphWith, true
		}
	}
	if want&analyzer.WantCallers != 0 && o.fact.CalledElsewhere {
		fact.CalledElsewhere, fact.CalledByName, fact.NamedOff, some = true, o.fact.CalledByName, o.fact.rare().NamedOff, true
		fact.CallersAssumed = o.fact.rare().CallersAssumed
	}
	if want&analyzer.WantCallers != 0 && o.fact.EnabledElsewhere {
		fact.EnabledElsewhere, some = true, true
	}
	if by := o.fact.rare().EnabledBy; want&analyzer.WantCallers != 0 && by != nil {
		fact.EnabledBy, some = by, true
	}
	if by := o.fact.rare().RepeatedBy; want&analyzer.WantRepeated != 0 && by != nil {
		fact.RepeatedBy, some = by, true
	}
	summary := o.fn.RareFacts() // a class's or an instance's: none
	if want&analyzer.WantReturns != 0 && o.fact.ReturnsGraph {
		fact.ReturnsGraph, some = true, true
		fact.TupleLen, fact.GraphElems = summary.TupleLen, summary.GraphElems
	}
	if want&analyzer.WantParams != 0 && len(summary.ElemParams) > 0 {
		fact.ElemParams, some = summary.ElemParams, true
	}
	if want&analyzer.WantReturns != 0 && len(summary.BackpropElems) > 0 {
		fact.BackpropElems, some = summary.BackpropElems, true
	}
	if want&analyzer.WantReturns != 0 && summary.StateGraph {
		fact.StateGraph, some = true, true
	}
	more := o.fact.rare()
	if want&analyzer.WantParams != 0 && setParams(&fact, summary.GraphParams, summary.BackpropParams, more.BackpropAttrs) {
		some = true
	}
	if want&analyzer.WantParams != 0 && summary.DropsArgs {
		fact.DropsArgs, some = true, true
	}
	if want&analyzer.WantParams != 0 && len(summary.CutParams) > 0 {
		fact.CutParams, some = summary.CutParams, true
	}
	if want&analyzer.WantEnds != 0 && summary.EndsReturns != "" {
		fact.EndsReturns, some = summary.EndsReturns, true
	}
	if want&analyzer.WantParams != 0 && len(summary.FreezesParams) > 0 {
		fact.FreezesParams, some = summary.FreezesParams, true
	}
	if want&analyzer.WantEvalCalls != 0 && len(more.EvalCalls) > 0 {
		fact.EvalCalls, some = more.EvalCalls, true
	}
	if want&analyzer.WantModuleCalls != 0 && (len(more.ModuleCalls) > 0 || len(more.FrozenCalls) > 0) {
		fact.ModuleCalls, fact.FrozenCalls, some = more.ModuleCalls, more.FrozenCalls, true
	}
	if want&analyzer.WantBackprop != 0 && o.fact.ResultBackprop {
		fact.ResultBackprop, some = true, true
	}
	if want&analyzer.WantGrad != 0 && o.fact.GradKnown {
		fact.Grad, fact.GradKnown, some = o.fact.Grad, true, true
	}
	if want&analyzer.WantGrad != 0 && o.fact.WrapsKnown {
		fact.Wraps, fact.WrapsKnown, some = o.fact.Wraps, true, true
	}
	if want&analyzer.WantGrad != 0 && o.fact.EntersKnown {
		fact.Enters, fact.EntersKnown, some = o.fact.Enters, true, true
	}
	if want&analyzer.WantHelper != 0 && (o.fact.Forward != nil || more.EmptyCache != nil || len(more.ParamCalls) > 0) {
		fact.Forward, fact.EmptyCache, fact.EmptyCacheBy, fact.ParamCalls, some = o.fact.Forward, more.EmptyCache, more.EmptyCacheBy, more.ParamCalls, true
		fact.HandsBack = summary.HandsBack && o.fact.Forward != nil
		fact.HostOnly = summary.HostOnly && o.fact.Forward != nil && summary.Forward != nil &&
			o.fact.Forward.Line == summary.Forward.Line && o.fact.Forward.Column == summary.Forward.Column
	}
	if want&analyzer.WantKeeps != 0 && len(more.Keeps) > 0 {
		fact.Keeps, some = more.Keeps, true
	}
	if want&analyzer.WantSteps != 0 && more.HasSteps() {
		steps := more.StepSites
		if want&analyzer.WantHostRead == 0 {
			steps.HostRead = nil
		}
		if steps.HasSteps() {
			fact.StepSites, some = steps, true
		}
	}
	if want&analyzer.WantActivation != 0 && o.fact.Activation != analyzer.NoActivation {
		fact.Activation, fact.ActivationAt, some = o.fact.Activation, more.ActivationAt, true
	}
	if !some {
		return nil
	}
	fact.Kind, fact.Site = o.kind, o.site(o.line)
	return &fact
}

// setParams sets a function's parameter facts (WantParams) that it has
// on fact, and reports whether it has any.
func setParams(fact *analyzer.Object, graph, backprop []int, attrs []string) (some bool) {
	if len(graph) > 0 {
		fact.GraphParams, some = graph, true
	}
	if len(backprop) > 0 {
		fact.BackpropParams, some = backprop, true
	}
	if len(attrs) > 0 {
		fact.BackpropAttrs, some = attrs, true
	}
	return some
}

// site is where an answer about o says o is, at line.
func (o *object) site(line int) analyzer.Site {
	return analyzer.Site{Path: o.key.file.rel, Abs: o.key.file.path, Line: line, Text: o.key.name}
}

// Star implements analyzer.Facts: the name as the star-imported module
// binds it, made absolute so that it resolves from any file.
func (ff *FileFacts) Star(name string) string {
	if len(ff.file.sum.Stars) == 0 {
		return "" // the file's own text says so: nothing to record
	}
	out := ""
	if ff.g != nil && ff.g.solved {
		out = ff.g.star(ff.file, name)
	}
	ff.record("S"+name, out)
	return out
}

func (g *Graph) star(fl *file, name string) string {
	return g.starDepth(fl, name, 0)
}

// starDepth is star through a chain of star imports (`from utils import
// *` of a package whose __init__ star-imports its modules), depth deep.
func (g *Graph) starDepth(fl *file, name string, depth int) string {
	if depth > 8 {
		return ""
	}
	for _, s := range fl.sum.Stars {
		t := g.resolve(s, fl)
		mod := t.module
		if mod == nil || t.obj != nil || !exported(mod, name) {
			continue
		}
		if r, ok := mod.sum.Bindings.Get(name); ok {
			if strings.HasPrefix(r, ".") || strings.HasPrefix(r, "#") {
				if t := g.resolve(r, mod); t.obj != nil && t.obj.key.file.module != "" {
					return t.obj.key.file.module + "." + t.obj.key.name
				}
				continue
			}
			return r
		}
		// A function, class or instance of the module: one of its objects.
		if mod.objs[name] != nil && mod.module != "" {
			return mod.module + "." + name
		}
		if mod != fl && len(mod.sum.Stars) > 0 {
			if r := g.starDepth(mod, name, depth+1); r != "" {
				return r
			}
		}
	}
	return ""
}

// UseSummary gives the file's own summary to its facts, for a file whose
// summary the graph does not have yet: its star imports and relative
// imports resolve from it.
func (ff *FileFacts) UseSummary(s *analyzer.Summary) {
	cp := *ff.file
	cp.sum = s
	ff.file = &cp
}

func (ff *FileFacts) record(q string, answer any) {
	if ff.Asked == nil {
		ff.Asked = map[string]string{}
	}
	a := answerKey(answer)
	if len(a) > 16 && ff.g != nil {
		if v, ok := ff.g.answers.Load(a); ok {
			a = v.(string)
		} else {
			ff.g.answers.Store(a, a)
			ff.g.nanswers.Add(1)
		}
	}
	ff.Asked[q] = a
}

// answerKey writes an answer as a string that changes when it does; an
// object's is encodeAnswer's, which replayFacts reads back.
func answerKey(a any) string {
	switch v := a.(type) {
	case nil:
		return ""
	case string:
		return v
	case *analyzer.Object:
		return encodeAnswer(v)
	}
	return fmt.Sprint(a)
}

// Questions are a file's questions, as FileFacts records them (Asked),
// and the answers they got: a project holds every target's until its
// facts are solved.
type Questions = analyzer.Pairs

// Stale reports whether any question asked earlier (asked, from a
// FileFacts of an earlier run or pass) gets another answer now.
func (ff *FileFacts) Stale(asked Questions) bool {
	for _, qa := range asked {
		q, was := qa.Key, qa.Value
		var now string
		switch q[0] {
		case 'L':
			w, ref, ok := strings.Cut(q[1:], " ")
			want, err := strconv.Atoi(w)
			if !ok || err != nil {
				return true
			}
			now = answerKey(ff.Lookup(ref, analyzer.Want(want)))
		case 'S':
			now = ff.Star(q[1:])
		case 'H':
			if ff.g != nil && ff.g.heads[q[1:]] {
				now = "1"
			}
		}
		if now != was {
			return true
		}
	}
	return false
}
