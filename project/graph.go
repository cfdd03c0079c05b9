package project

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
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

	objects map[objKey]*object
	solved  bool
}

type file struct {
	path   string
	rel    string // slash-separated, relative to Root, for messages
	module string // dotted module name from the first import root holding it
	sum    *analyzer.Summary
	funcs  map[string]*analyzer.FuncSummary
	class  map[string]*analyzer.ClassSummary
}

type objKey struct {
	file *file
	name string // "f", "Class", "Class.f" or an instance's name
}

type object struct {
	key  objKey
	kind analyzer.ObjectKind
	line int
	fact analyzer.Object
	// For classes: the resolved bases; for instances: the class.
	bases []*object
	// For functions: the calls of it, and what it calls.
	callers []callEdge
	callees []callEdge
	returns []*object
	escapes bool
}

type callEdge struct {
	caller *object // nil at module level
	callee *object
	site   analyzer.CallSummary
	file   *file
}

// NewGraph starts the module graph of the project in root. Absolute
// imports resolve against root, root/src and the extra source folders
// given (Ruff's `src` setting), and against the importing file's own
// folder, which Python puts first on the path of a script it runs.
func NewGraph(root string, src []string) *Graph {
	root = filepath.Clean(root)
	g := &Graph{Root: root, files: map[string]*file{}}
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
	fl := &file{path: path, sum: s, funcs: map[string]*analyzer.FuncSummary{}, class: map[string]*analyzer.ClassSummary{}}
	if rel, err := filepath.Rel(g.Root, path); err == nil {
		fl.rel = filepath.ToSlash(rel)
	} else {
		fl.rel = filepath.ToSlash(path)
	}
	fl.module = g.moduleName(path)
	for i := range s.Funcs {
		fl.funcs[s.Funcs[i].Name] = &s.Funcs[i]
	}
	for i := range s.Classes {
		fl.class[s.Classes[i].Name] = &s.Classes[i]
	}
	g.files[path] = fl
	g.solved = false
}

// moduleName is the dotted name a file is imported by from the first
// import root that holds it.
func (g *Graph) moduleName(path string) string {
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
// under dir.
func (g *Graph) findModule(dir string, parts []string) *file {
	p := filepath.Join(append([]string{dir}, parts...)...)
	if fl := g.files[p+".py"]; fl != nil {
		return fl
	}
	return g.files[filepath.Join(p, "__init__.py")]
}

// target is what a ref resolves to: an object, or a module with no
// attribute left.
type target struct {
	obj    *object
	module *file
}

// resolve finds what ref, written in file from, refers to in the project.
func (g *Graph) resolve(ref string, from *file, depth int) target {
	if depth > 16 || ref == "" {
		return target{}
	}
	if local, ok := strings.CutPrefix(ref, "#"); ok {
		return g.attr(from, strings.Split(local, "."), depth+1)
	}
	var dirs []string
	name := ref
	if strings.HasPrefix(ref, ".") {
		n := len(ref) - len(strings.TrimLeft(ref, "."))
		dir := filepath.Dir(from.path)
		for i := 1; i < n; i++ {
			dir = filepath.Dir(dir)
		}
		dirs = []string{dir}
		name = ref[n:]
	} else {
		dirs = append([]string{filepath.Dir(from.path)}, g.roots...)
	}
	var parts []string
	if name != "" {
		parts = strings.Split(name, ".")
	}
	for _, dir := range dirs {
		for i := len(parts); i >= 0; i-- {
			var mod *file
			if i == 0 {
				if !strings.HasPrefix(ref, ".") {
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
				return target{module: mod}
			}
			if t := g.attr(mod, parts[i:], depth+1); t.obj != nil || t.module != nil {
				return t
			}
		}
	}
	return target{}
}

// attr resolves an attribute chain in a module: a definition, a name it
// imports or aliases (a re-export), an instance, or a name its star
// imports bring in.
func (g *Graph) attr(mod *file, chain []string, depth int) target {
	if len(chain) == 0 {
		return target{module: mod}
	}
	name := chain[0]
	if o := g.objects[objKey{mod, strings.Join(chain, ".")}]; o != nil && len(chain) <= 2 {
		return target{obj: o}
	}
	if o := g.objects[objKey{mod, name}]; o != nil {
		if len(chain) == 1 {
			return target{obj: o}
		}
		return target{} // an attribute of a function or instance
	}
	if r, ok := mod.sum.Bindings[name]; ok {
		return g.resolve(strings.Join(append([]string{r}, chain[1:]...), "."), mod, depth+1)
	}
	for _, star := range mod.sum.Stars {
		if !exported(mod, name) {
			break
		}
		if t := g.resolve(star, mod, depth+1); t.module != nil && t.obj == nil {
			if t := g.attr(t.module, chain, depth+1); t.obj != nil || t.module != nil {
				return t
			}
		}
	}
	// A submodule of a package: `import models` then `models.resnet.Net`.
	if strings.HasSuffix(mod.path, "__init__.py") {
		if sub := g.findModule(filepath.Dir(mod.path), []string{name}); sub != nil {
			return g.attr(sub, chain[1:], depth+1)
		}
	}
	return target{}
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
	g.objects = map[objKey]*object{}
	paths := make([]string, 0, len(g.files))
	for p := range g.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fl := g.files[p]
		for i := range fl.sum.Classes {
			c := &fl.sum.Classes[i]
			o := &object{key: objKey{fl, c.Name}, kind: analyzer.ObjectClass, line: c.Line}
			o.fact.Module = c.Module
			g.objects[o.key] = o
		}
		for i := range fl.sum.Funcs {
			fn := &fl.sum.Funcs[i]
			o := &object{key: objKey{fl, fn.Name}, kind: analyzer.ObjectFunction, line: fn.Line, escapes: fn.Escapes}
			o.fact.ReturnsGraph = fn.ReturnsGraph
			o.fact.Forward = g.site(fl, fn.Forward)
			o.fact.EmptyCache = g.site(fl, fn.EmptyCache)
			if fn.GradSet {
				o.fact.Grad, o.fact.GradKnown = fn.Grad, true
			}
			g.objects[o.key] = o
		}
		for name := range fl.sum.Instances {
			if g.objects[objKey{fl, name}] == nil {
				o := &object{key: objKey{fl, name}, kind: analyzer.ObjectInstance}
				g.objects[o.key] = o
			}
		}
	}
	for _, p := range paths {
		g.link(g.files[p])
	}
	g.fixModules()
	g.fixFunctions()
	g.fixGrad()
	g.solved = true
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
func (g *Graph) link(fl *file) {
	for i := range fl.sum.Classes {
		c := &fl.sum.Classes[i]
		o := g.objects[objKey{fl, c.Name}]
		for _, b := range c.Bases {
			if t := g.resolve(b, fl, 0); t.obj != nil && t.obj.kind == analyzer.ObjectClass && t.obj != o {
				o.bases = append(o.bases, t.obj)
			}
		}
	}
	for name, ref := range fl.sum.Instances {
		o := g.objects[objKey{fl, name}]
		if o == nil || o.kind != analyzer.ObjectInstance {
			continue
		}
		if t := g.resolve(ref, fl, 0); t.obj != nil && t.obj.kind == analyzer.ObjectClass {
			o.bases = append(o.bases, t.obj)
		}
	}
	for i := range fl.sum.Funcs {
		fn := &fl.sum.Funcs[i]
		o := g.objects[objKey{fl, fn.Name}]
		for _, r := range fn.Returns {
			if t := g.resolve(r, fl, 0); t.obj != nil && t.obj.kind == analyzer.ObjectFunction {
				o.returns = append(o.returns, t.obj)
			}
		}
	}
	for _, c := range fl.sum.Calls {
		t := g.resolve(c.Callee, fl, 0)
		if t.obj == nil || t.obj.kind != analyzer.ObjectFunction {
			continue
		}
		var caller *object
		if c.Caller != "" {
			caller = g.objects[objKey{fl, c.Caller}]
		}
		if caller == t.obj {
			continue // recursion runs in the mode of the outer call
		}
		e := callEdge{caller: caller, callee: t.obj, site: c, file: fl}
		t.obj.callers = append(t.obj.callers, e)
		if caller != nil {
			caller.callees = append(caller.callees, e)
		}
	}
	for _, r := range fl.sum.Escapes {
		if t := g.resolve(r, fl, 0); t.obj != nil && t.obj.kind == analyzer.ObjectFunction {
			t.obj.escapes = true
		}
	}
}

// fixModules: a class is a module when a base in any file is; an
// instance when its class is.
func (g *Graph) fixModules() {
	for changed := true; changed; {
		changed = false
		for _, o := range g.objects {
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
}

// fixFunctions propagates returned graphs, forward passes and cache
// emptying from callees to callers.
func (g *Graph) fixFunctions() {
	for changed := true; changed; {
		changed = false
		for _, o := range g.objects {
			if o.kind != analyzer.ObjectFunction {
				continue
			}
			if !o.fact.ReturnsGraph {
				for _, r := range o.returns {
					if r.fact.ReturnsGraph {
						o.fact.ReturnsGraph, changed = true, true
						break
					}
				}
			}
			set := false
			if fn := o.key.file.funcs[o.key.name]; fn != nil {
				set = fn.GradSet
			}
			for _, e := range o.callees {
				if o.fact.Forward == nil && !set && e.site.Inherit && e.callee.fact.Forward != nil {
					o.fact.Forward, changed = e.callee.fact.Forward, true
				}
				if o.fact.EmptyCache == nil && e.site.Always && e.callee.fact.EmptyCache != nil {
					o.fact.EmptyCache, changed = e.callee.fact.EmptyCache, true
				}
			}
		}
	}
}

// fixGrad works out the grad mode each function runs in from its
// callers: disabled when every call in the project runs with grad
// disabled, unknown when it is passed as a value or a caller's mode is
// unknown, enabled otherwise. A function with no caller in the project
// is an entry point: it gets no fact, and its file judges it alone.
// Modes only rise from enabled through unknown to disabled as callers
// are settled, so the iteration ends.
func (g *Graph) fixGrad() {
	rank := func(m analyzer.GradMode) int {
		switch m {
		case analyzer.GradDisabled:
			return 2
		case analyzer.GradUnknown:
			return 1
		}
		return 0
	}
	for changed := true; changed; {
		changed = false
		for _, o := range g.objects {
			if o.kind != analyzer.ObjectFunction || len(o.callers) == 0 && !o.escapes {
				continue
			}
			if fn := o.key.file.funcs[o.key.name]; fn != nil && fn.GradSet {
				continue
			}
			mode := analyzer.GradDisabled
			if o.escapes {
				mode = analyzer.GradUnknown
			}
			for _, e := range o.callers {
				m := e.site.Grad
				if e.site.Inherit && e.caller != nil {
					m = analyzer.GradEnabled
					if e.caller.fact.GradKnown {
						m = e.caller.fact.Grad
					}
				}
				if rank(m) < rank(mode) {
					mode = m
				}
			}
			if !o.fact.GradKnown || o.fact.Grad != mode {
				if o.fact.GradKnown && rank(mode) < rank(o.fact.Grad) {
					continue // monotone: never fall back
				}
				o.fact.Grad, o.fact.GradKnown, changed = mode, true, true
			}
		}
	}
}

// Facts returns what the project knows, as seen from the file at path,
// recording every question and its answer. It needs Solve first; for a
// path outside the graph it answers from the project all the same.
func (g *Graph) Facts(path string) *FileFacts {
	path = filepath.Clean(path)
	fl := g.files[path]
	if fl == nil {
		fl = &file{path: path, sum: &analyzer.Summary{}}
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
}

// Lookup implements analyzer.Facts.
func (ff *FileFacts) Lookup(ref string) *analyzer.Object {
	var out *analyzer.Object
	if ff.g != nil && ff.g.solved {
		if t := ff.g.resolve(ref, ff.file, 0); t.obj != nil {
			o := t.obj
			fact := o.fact
			fact.Kind = o.kind
			fact.Site = analyzer.Site{Path: o.key.file.rel, Abs: o.key.file.path, Line: o.line, Text: o.key.name}
			out = &fact
		}
	}
	ff.record("L"+ref, out)
	return out
}

// Star implements analyzer.Facts: the name as the star-imported module
// binds it, made absolute so that it resolves from any file.
func (ff *FileFacts) Star(name string) string {
	out := ""
	if ff.g != nil && ff.g.solved && len(ff.file.sum.Stars) > 0 {
		out = ff.g.star(ff.file, name)
	}
	ff.record("S"+name, out)
	return out
}

func (g *Graph) star(fl *file, name string) string {
	for _, s := range fl.sum.Stars {
		t := g.resolve(s, fl, 0)
		mod := t.module
		if mod == nil || t.obj != nil || !exported(mod, name) {
			continue
		}
		if r, ok := mod.sum.Bindings[name]; ok {
			if strings.HasPrefix(r, ".") || strings.HasPrefix(r, "#") {
				if t := g.resolve(r, mod, 0); t.obj != nil && t.obj.key.file.module != "" {
					return t.obj.key.file.module + "." + t.obj.key.name
				}
				continue
			}
			return r
		}
		if _, ok := mod.funcs[name]; ok && mod.module != "" {
			return mod.module + "." + name
		}
		if _, ok := mod.class[name]; ok && mod.module != "" {
			return mod.module + "." + name
		}
		if _, ok := mod.sum.Instances[name]; ok && mod.module != "" {
			return mod.module + "." + name
		}
	}
	return ""
}

func (ff *FileFacts) record(q string, answer any) {
	if ff.Asked == nil {
		ff.Asked = map[string]string{}
	}
	ff.Asked[q] = answerKey(answer)
}

// answerKey writes an answer as a string that changes when it does.
func answerKey(a any) string {
	switch v := a.(type) {
	case nil:
		return ""
	case string:
		return v
	case *analyzer.Object:
		if v == nil {
			return ""
		}
		s := fmt.Sprintf("%d %v %v %d %v %v %d", v.Kind, v.Module, v.ReturnsGraph, v.Grad, v.GradKnown, v.Site.Path, v.Site.Line)
		if v.Forward != nil {
			s += fmt.Sprintf(" F%s:%d:%s", v.Forward.Path, v.Forward.Line, v.Forward.Text)
		}
		if v.EmptyCache != nil {
			s += fmt.Sprintf(" E%s:%d", v.EmptyCache.Path, v.EmptyCache.Line)
		}
		return s
	}
	return fmt.Sprint(a)
}

// Stale reports whether any question asked earlier (asked, from a
// FileFacts of an earlier run or pass) gets another answer now.
func (ff *FileFacts) Stale(asked map[string]string) bool {
	for q, was := range asked {
		var now string
		switch q[0] {
		case 'L':
			now = answerKey(ff.Lookup(q[1:]))
		case 'S':
			now = ff.Star(q[1:])
		}
		if now != was {
			return true
		}
	}
	return false
}
