package analyzer

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Model is the semantic model of one file: scopes and bindings, qualified
// names, grad mode, loops and which values carry autograd history. It is
// built once per file, before any rule runs, and answers the rules'
// questions; answers that cost more than a parent walk are memoized.
type Model struct {
	File      *File
	Scopes    []Scope
	scopeOf   []ScopeID
	defScope  map[NodeID]ScopeID
	binds     []Binding // every binding of the file; pointers into it stay valid once built
	bindIndex map[bindKey]bindChain
	// chainIndex holds, for names bound many times in one scope, their
	// bindings sorted by position, built on first lookup.
	chainIndex map[bindKey][]int32

	// filled on demand
	callSites         map[NodeID][]NodeID // function definition → calls of it in this file
	escapes           map[NodeID]bool     // function definition → also used other than by a call
	callbacks         map[NodeID]bool     // function definition → escapes other than as a new thread's or process's target
	programEntries    map[NodeID]int      // function definition → how many command-line libraries run it as the program
	engineHooks       map[NodeID]bool     // function definition → a hook of a torchnet Engine (engineHook)
	classSites        map[NodeID][]NodeID // class definition → calls that construct it in this file
	classEscapes      map[NodeID]bool     // class definition → its name also used other than to call it, outside an annotation
	funcGrad          map[NodeID]GradMode
	uncalled          map[NodeID]bool     // functions whose grad mode is enabled for want of any caller
	switchBusy        map[NodeID]bool     // conditional contexts gradSwitch is reading through a name
	decoGrad          map[NodeID]GradMode // decoratorGrad
	carries           map[NodeID]carryState
	hasGradSwitchCall bool // the file calls set_grad_enabled as a statement
	hasLossScaler     bool // the file names a loss scaler of timm
	hasTorchnet       bool // the file names torchnet
	memo              map[any]any
	// argTruth: while frozenWith judges a class built with one argument
	// other than its default, that argument's truth, by the parameter's
	// node (see defaultTruth).
	argTruth  map[NodeID]bool
	callNames map[NodeID]callName
	localRefs map[NodeID]string       // localRef's answers, shared by the summary's records
	helpers   map[NodeID]helperAnswer // call → Helper's answer, which TL201 and TL301 both ask
	gradAt    []int8                  // memoized GradModeAt per node, -1 unknown
	forwardAt []int8                  // memoized IsForwardCall per node: 0 not asked, 1 no, 2 yes
	resolved  []int32                 // memoized Resolve per node: 0 not asked, -1 nil, else the binding's index + 1
	evidence  *evidence
	facts     Facts // what the rest of the project knows; nil for a file alone
	// factReads counts the project's answers read (see taint.go);
	// evidenceTainted, that gathering the evidence read one.
	factReads       uint64
	evidenceTainted bool
	noNames         bool // callees are judged by evidence alone (WithoutNames)
	// foreignDL: the file imports another deep learning framework
	// (TensorFlow, Keras, JAX, Paddle): a callee's name alone does not
	// say it is a model of torch's.
	foreignDL bool
	exporting bool // what other files are told is worked out (exportedActivation)
}

// NewModel builds the semantic model of f.
func NewModel(f *File) *Model {
	m := &Model{File: f}
	m.buildScopes()
	m.hasGradSwitchCall = bytes.Contains(f.Src, []byte("set_grad_enabled")) || bytes.Contains(f.Src, []byte("enter_context"))
	m.hasLossScaler = bytes.Contains(f.Src, []byte("Scaler"))
	m.hasTorchnet = bytes.Contains(f.Src, []byte("torchnet"))
	m.foreignDL = importsForeignFramework(f)
	return m
}

// foreignFrameworkImport matches an import of another deep learning
// framework's package, with the name `import tensorflow as tf` binds.
var foreignFrameworkImport = regexp.MustCompile(`^(?:import\s+(tensorflow|keras|tf_keras|jax|flax|paddle|mindspore)\b(?:\s+as\s+(\w+))?|from\s+(?:tensorflow|keras|tf_keras|jax|flax|paddle|mindspore)\b)`)

// loggingOnly are the parts of TensorFlow that PyTorch code imports it
// for without running its models: summaries for TensorBoard, file I/O.
var loggingOnly = map[string]bool{"summary": true, "io": true, "gfile": true, "logging": true, "compat": true, "config": true}

// importsForeignFramework reports whether f imports another deep
// learning framework than torch and uses more of it than TensorFlow's
// summaries and file I/O (`tf.summary.FileWriter`, which older PyTorch
// code logs with).
func importsForeignFramework(f *File) bool {
	var aliases map[string]bool
	for i := range f.Nodes {
		k := f.Nodes[i].Kind
		if k != KindImportStatement && k != KindImportFromStatement {
			continue
		}
		// The import statements alone are read: a search of the whole
		// text for the frameworks' names cost more than the walk.
		text := f.Src[f.Nodes[i].Start:f.Nodes[i].End]
		if !mentionsForeignFramework(text) {
			continue
		}
		sub := foreignFrameworkImport.FindSubmatch(text)
		switch {
		case sub == nil:
		case string(sub[1]) == "tensorflow":
			if aliases == nil {
				aliases = map[string]bool{}
			}
			if len(sub[2]) > 0 {
				aliases[string(sub[2])] = true
			} else {
				aliases["tensorflow"] = true
			}
		default:
			return true // Keras, JAX, Paddle, or names taken from one
		}
	}
	if aliases == nil {
		return false
	}
	// TensorFlow imported whole: used for more than logging?
	for i := range f.Nodes {
		if f.Nodes[i].Kind != KindAttribute {
			continue
		}
		obj := f.Field(NodeID(i), FieldObject)
		if f.Kind(obj) == KindIdentifier && aliases[f.Text(obj)] && !loggingOnly[f.Text(f.Field(NodeID(i), FieldAttribute))] {
			return true
		}
	}
	return false
}

// mentionsForeignFramework reports whether text names a framework that
// foreignFrameworkImport matches.
func mentionsForeignFramework(text []byte) bool {
	for _, name := range [...]string{"tensorflow", "keras", "jax", "flax", "paddle", "mindspore"} {
		if bytes.Contains(text, []byte(name)) {
			return true
		}
	}
	return false
}

// IsPytestFile reports whether this file is test code, as pytest and
// unittest see it: it imports pytest, is a conftest.py, defines a
// unittest.TestCase, or is named as pytest collects (test_*.py,
// *_test.py) and defines a test function or class at its top level. A
// name alone says nothing: research code calls its evaluation script
// test.py or test_net.py.
func (m *Model) IsPytestFile() bool {
	return m.Memo(pytestKey{}, func() any { return m.isPytestFile() }).(bool)
}

type pytestKey struct{}

// importSeparators turns the punctuation of an import statement into
// spaces; built once, as every file's imports are read.
var importSeparators = strings.NewReplacer(",", " ", "(", " ", ")", " ")

// importsPytest reports whether an import statement imports pytest or
// one of its modules.
func importsPytest(stmt string) bool {
	words := strings.Fields(importSeparators.Replace(stmt))
	if len(words) < 2 {
		return false
	}
	if words[0] == "from" {
		words = words[1:2]
	}
	for _, w := range words {
		if w == "pytest" || strings.HasPrefix(w, "pytest.") {
			return true
		}
	}
	return false
}

func (m *Model) isPytestFile() bool {
	f := m.File
	base := filepath.Base(f.Path)
	if base == "conftest.py" {
		return true
	}
	collected := strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")
	test := false
	f.Children(Root, func(stmt NodeID) bool {
		def := stmt
		if f.Kind(def) == KindDecoratedDefinition {
			def = f.Field(def, FieldDefinition)
		}
		switch f.Kind(def) {
		case KindImportStatement, KindImportFromStatement:
			test = importsPytest(f.Text(def))
		case KindFunctionDefinition:
			// pytest calls a module's test functions, with fixtures for
			// arguments; a script named test_*.py passes its own
			// (`test(loader, model)` from main). A test run bare from a
			// `__main__` block (`test_batching()`) is still pytest's.
			// One that returns a value is a helper: pytest's tests assert,
			// and it warns of a test that returns anything but None
			// (`test_all_case(net, images)`, called from another file).
			test = collected && strings.HasPrefix(m.FunctionName(def), "test") && !m.calledWithArgs(def) && !m.returnsValue(def)
		case KindClassDefinition:
			name := f.Text(f.Field(def, FieldName))
			test = collected && strings.HasPrefix(name, "Test") ||
				m.ClassInherits(def, func(q string) bool { return q == "unittest.TestCase" })
		}
		return !test
	})
	return test
}

// returnsValue reports whether function def returns a value other than
// None.
func (m *Model) returnsValue(def NodeID) bool {
	f := m.File
	return slices.ContainsFunc(m.ReturnValues(def), func(v NodeID) bool { return f.Kind(f.Unparen(v)) != KindNone })
}

// calledWithArgs reports whether a call of the file, outside def, calls
// function def with arguments.
func (m *Model) calledWithArgs(def NodeID) bool {
	m.indexCalls()
	return slices.ContainsFunc(m.callSites[def], func(c NodeID) bool { return !m.File.Contains(def, c) && len(m.Args(c)) > 0 })
}

// builtins that the rules care about; an unbound use of one of these
// names resolves to the name itself.
var builtinNames = map[string]bool{
	"float": true, "int": true, "bool": true, "len": true, "str": true, "list": true, "dict": true,
	"tuple": true, "set": true, "sum": true, "max": true, "min": true, "abs": true, "round": true,
	"print": true, "isinstance": true, "range": true, "enumerate": true, "zip": true, "map": true,
	"filter": true, "sorted": true, "iter": true, "next": true, "super": true, "type": true,
	"getattr": true, "hasattr": true, "setattr": true, "repr": true, "any": true, "all": true,
	"open": true, "reversed": true, "format": true, "hash": true, "id": true, "object": true,
}

// canonicalNames maps re-exports to the name the rules match.
var canonicalNames = map[string]string{
	"torch.autograd.no_grad":                    "torch.no_grad",
	"torch.autograd.grad_mode.no_grad":          "torch.no_grad",
	"torch.autograd.enable_grad":                "torch.enable_grad",
	"torch.autograd.grad_mode.enable_grad":      "torch.enable_grad",
	"torch.autograd.set_grad_enabled":           "torch.set_grad_enabled",
	"torch.autograd.grad_mode.set_grad_enabled": "torch.set_grad_enabled",
	"torch.autograd.inference_mode":             "torch.inference_mode",
	"torch.autograd.grad_mode.inference_mode":   "torch.inference_mode",
	"torch.cuda.memory.empty_cache":             "torch.cuda.empty_cache",
	"torch.autograd.grad":                       "torch.autograd.grad",
	"torch.autograd.backward":                   "torch.autograd.backward",
}

// QualifiedName resolves an identifier or attribute chain through imports
// and aliases: with `import torch as th`, `th.no_grad` is "torch.no_grad".
// It returns "" for anything not rooted in an import or a builtin, and a
// local definition shadows an import of the same name.
func (m *Model) QualifiedName(expr NodeID) string {
	q := m.qualified(expr, 0)
	if c, ok := canonicalNames[q]; ok {
		return c
	}
	if strings.HasPrefix(q, "torch.nn.modules.") {
		// torch.nn.modules.loss.MSELoss is exported as torch.nn.MSELoss.
		if i := strings.LastIndexByte(q, '.'); i > 0 {
			return "torch.nn" + q[i:]
		}
	}
	return q
}

// importFallback returns, for an import b in the except clause of a
// try (`try: from ._inception import InceptionV3` / `except: from
// inception import InceptionV3`) whose module the project does not have,
// the name that an import of the same name in the try's body binds, from
// a module the project has: the import that runs. "" otherwise.
func (m *Model) importFallback(use NodeID, b *Binding) string {
	f := m.File
	if m.facts == nil {
		return ""
	}
	clause := f.Parent(f.Parent(b.Stmt))
	if f.Kind(clause) != KindExceptClause {
		return ""
	}
	try := f.Parent(clause)
	if f.Kind(try) != KindTryStatement || m.lookup(b.Qualified, WantKind) != nil {
		return ""
	}
	_, c, ok := m.bindingsOf(use)
	if !ok {
		return ""
	}
	body := f.Field(try, FieldBody)
	for i := c.first; i >= 0; i = m.binds[i].next {
		if o := &m.binds[i]; o.Kind == BindImport && f.Parent(o.Stmt) == body && m.lookup(o.Qualified, WantKind) != nil {
			return o.Qualified
		}
	}
	return ""
}

func (m *Model) qualified(expr NodeID, depth int) string {
	f := m.File
	if depth > 8 {
		return ""
	}
	expr = f.Unparen(expr)
	switch f.Kind(expr) {
	case KindIdentifier:
		b := m.Resolve(expr)
		if b == nil {
			name := f.Text(expr)
			if m.facts != nil {
				if q := m.facts.Star(name); q != "" {
					m.readFact()
					return q // bound by `from module import *`
				}
			}
			if builtinNames[name] {
				return name
			}
			return ""
		}
		switch b.Kind {
		case BindImport:
			if q := m.importFallback(expr, b); q != "" {
				return q
			}
			return b.Qualified
		case BindParam:
			// A marimo notebook's cell reads the modules another cell
			// imports as parameters (`def _(torch, nn):`).
			return m.cellImport(b)
		case BindAssign:
			// Module aliases such as `F = torch.nn.functional`.
			if !b.Unpacked && m.scopeOf[b.Stmt] == 0 {
				if k := f.Kind(b.Value); k == KindIdentifier || k == KindAttribute {
					return m.qualified(b.Value, depth+1)
				}
			}
		}
		return ""
	case KindAttribute:
		q := m.qualified(f.Field(expr, FieldObject), depth+1)
		if q == "" {
			return ""
		}
		return q + "." + f.Text(f.Field(expr, FieldAttribute))
	}
	return ""
}

// CallName returns the qualified name of the function a call calls. Every
// rule asks it of the calls it sees, so each answer is computed once.
func (m *Model) CallName(call NodeID) string {
	if m.File.Kind(call) != KindCall {
		return ""
	}
	if c, ok := m.callNames[call]; ok {
		if c.tainted {
			m.readFact()
		}
		return c.q
	}
	if m.callNames == nil {
		m.callNames = make(map[NodeID]callName)
	}
	n := m.factReads
	q := m.QualifiedName(m.File.Field(call, FieldFunction))
	m.callNames[call] = callName{q, m.readsSince(n)}
	return q
}

// MethodName returns the attribute name of a method call `x.name(...)`,
// or "".
func (m *Model) MethodName(call NodeID) string {
	f := m.File
	if f.Kind(call) != KindCall {
		return ""
	}
	fn := f.Field(call, FieldFunction)
	if f.Kind(fn) != KindAttribute {
		return ""
	}
	return f.Name(f.Field(fn, FieldAttribute))
}

// Receiver returns x in a method call `x.name(...)`.
func (m *Model) Receiver(call NodeID) NodeID {
	f := m.File
	fn := f.Field(call, FieldFunction)
	if f.Kind(fn) != KindAttribute {
		return NoNode
	}
	return f.Field(fn, FieldObject)
}

// Args returns the positional arguments of a call.
func (m *Model) Args(call NodeID) []NodeID {
	f := m.File
	var out []NodeID
	f.Children(f.Field(call, FieldArguments), func(c NodeID) bool {
		switch f.Kind(c) {
		case KindKeywordArgument, KindDictionarySplat:
		default:
			out = append(out, c)
		}
		return true
	})
	return out
}

// Keyword returns the value of keyword argument name, or NoNode.
func (m *Model) Keyword(call NodeID, name string) NodeID {
	f := m.File
	r := NoNode
	f.Children(f.Field(call, FieldArguments), func(c NodeID) bool {
		if f.Kind(c) == KindKeywordArgument && f.TextIs(f.Field(c, FieldName), name) {
			r = f.Field(c, FieldValue)
			return false
		}
		return true
	})
	return r
}

// EnclosingFunction returns the innermost function_definition or lambda
// that contains id, or NoNode at module or class level.
func (m *Model) EnclosingFunction(id NodeID) NodeID {
	for s := m.scopeOf[id]; s >= 0; s = m.Scopes[s].Parent {
		switch m.Scopes[s].Kind {
		case ScopeFunction, ScopeLambda:
			return m.Scopes[s].Node
		case ScopeClass, ScopeModule:
			return NoNode
		}
	}
	return NoNode
}

// EnclosingClass returns the class_definition whose method contains id.
func (m *Model) EnclosingClass(id NodeID) NodeID {
	if id < 0 || int(id) >= len(m.scopeOf) {
		return NoNode
	}
	for s := m.scopeOf[id]; s >= 0; s = m.Scopes[s].Parent {
		if m.Scopes[s].Kind == ScopeClass {
			return m.Scopes[s].Node
		}
	}
	return NoNode
}

// FunctionName returns the name of a function definition.
func (m *Model) FunctionName(def NodeID) string {
	return m.File.Text(m.File.Field(def, FieldName))
}

// Decorators returns the decorator expressions of a definition.
func (m *Model) Decorators(def NodeID) []NodeID {
	f := m.File
	p := f.Parent(def)
	if f.Kind(p) != KindDecoratedDefinition {
		return nil
	}
	var out []NodeID
	f.Children(p, func(c NodeID) bool {
		if f.Kind(c) == KindDecorator {
			out = append(out, f.FirstChild(c))
		}
		return true
	})
	return out
}

// ClassBases returns the base class expressions of a class definition.
func (m *Model) ClassBases(class NodeID) []NodeID {
	f := m.File
	var out []NodeID
	f.Children(f.Field(class, FieldSuperclasses), func(c NodeID) bool {
		if f.Kind(c) != KindKeywordArgument {
			out = append(out, c)
		}
		return true
	})
	return out
}

// ClassInherits reports whether class derives, directly or through classes
// defined in this file, from a base whose qualified name satisfies pred.
func (m *Model) ClassInherits(class NodeID, pred func(string) bool) bool {
	return m.derives(class, func(b, _ NodeID) bool {
		q := m.QualifiedName(b)
		return q != "" && pred(q)
	}, map[NodeID]bool{})
}

// subclassOf reports whether class derives, directly or through classes
// of this file, from base, a class of this file.
func (m *Model) subclassOf(class, base NodeID) bool {
	return m.derives(class, func(_, def NodeID) bool { return def == base }, map[NodeID]bool{})
}

// derives reports whether a base of class, or of a class of this file it
// derives from, satisfies match, given the base expression and the class
// of this file it names (NoNode for none). It visits each class once, so
// that cyclic or repeated bases (`class A(B, B)`, `class B(A)`) stay
// linear.
func (m *Model) derives(class NodeID, match func(b, def NodeID) bool, seen map[NodeID]bool) bool {
	if seen[class] {
		return false
	}
	seen[class] = true
	f := m.File
	for _, b := range m.ClassBases(class) {
		def := NoNode
		if f.Kind(b) == KindIdentifier {
			if bd := m.Resolve(b); bd != nil && bd.Kind == BindClass && bd.Stmt != class {
				def = bd.Stmt
			}
		}
		if match(b, def) {
			return true
		}
		if def != NoNode && m.derives(def, match, seen) {
			return true
		}
	}
	return false
}

// Memo returns the value cached under key, computing it on first use. It
// lets a rule compute a per-function answer once per file.
func (m *Model) Memo(key any, compute func() any) any {
	if v, ok := m.memo[key]; ok {
		return m.memoHit(v)
	}
	if m.memo == nil {
		m.memo = make(map[any]any)
	}
	n := m.factReads
	v := compute()
	m.memo[key] = m.memoStore(v, n)
	return v
}

// MemoRecursive is Memo for a computation that may ask its own question
// again (a function calling itself, a class holding itself): the inner
// question gets busy, the answer in the meantime.
func (m *Model) MemoRecursive(key, busy any, compute func() any) any {
	if v, ok := m.memo[key]; ok {
		return m.memoHit(v)
	}
	if m.memo == nil {
		m.memo = make(map[any]any)
	}
	m.memo[key] = busy
	n := m.factReads
	v := compute()
	m.memo[key] = m.memoStore(v, n)
	return v
}

// ImportedAt tells what name would refer to if used at node at: the
// qualified name it was imported as, or "" when it is bound by something
// other than an import; bound is false when the name is not bound there.
func (m *Model) ImportedAt(name string, at NodeID) (qualified string, bound bool) {
	b := m.ResolveName(name, m.scopeOf[at], m.File.N(at).Start)
	if b == nil {
		return "", false
	}
	if b.Kind != BindImport {
		return "", true
	}
	return b.Qualified, true
}

// otherFrameworks are deep-learning frameworks whose code uses the same
// names as PyTorch code (`net(x)`, `loss.backward()`, `model.eval()`).
var otherFrameworks = map[string]bool{
	"mxnet": true, "tensorflow": true, "keras": true, "jax": true, "flax": true, "paddle": true,
	"mindspore": true, "oneflow": true, "chainer": true, "theano": true, "tinygrad": true, "megengine": true, "mlx": true,
	"dynet": true, "cntk": true, "lasagne": true, "caffe": true,
}

// cellImport returns what parameter binding b names where its function
// is a cell of a marimo notebook (decorated `@app.cell`, with or without
// arguments) and another cell imports a module under the parameter's
// name: marimo hands each cell the names the other cells define, and one
// cell alone may define a name. "" otherwise, or where cells import the
// name twice.
func (m *Model) cellImport(b *Binding) string {
	f := m.File
	if !m.marimoCell(m.Scopes[b.Scope].Node) {
		return ""
	}
	imports := m.Memo(cellImportsKey{}, func() any {
		out := map[string]string{}
		for i := range m.binds {
			o := &m.binds[i]
			if o.Kind != BindImport || !m.marimoCell(m.Scopes[o.Scope].Node) {
				continue
			}
			name := f.Text(o.Name)
			if q, seen := out[name]; seen && q != o.Qualified {
				out[name] = "" // two cells define it: not marimo's
				continue
			}
			out[name] = o.Qualified
		}
		return out
	}).(map[string]string)
	return imports[f.Text(b.Name)]
}

type cellImportsKey struct{}

// marimoCell reports whether def is a function definition decorated as
// a marimo cell (`@app.cell`, `@app.cell(hide_code=True)`).
func (m *Model) marimoCell(def NodeID) bool {
	f := m.File
	if f.Kind(def) != KindFunctionDefinition {
		return false
	}
	for _, d := range m.Decorators(def) {
		if f.Kind(d) == KindCall {
			d = f.Field(d, FieldFunction)
		}
		if f.Kind(d) == KindAttribute && f.TextIs(f.Field(d, FieldAttribute), "cell") {
			return true
		}
	}
	return false
}

// OtherFramework reports whether the file imports another deep-learning
// framework (MXNet, TensorFlow, JAX, ...) and nothing of torch: the
// patterns the rules look for mean something else there.
func (m *Model) OtherFramework() bool {
	other := false
	for i := range m.binds {
		b := &m.binds[i]
		if b.Kind != BindImport {
			continue
		}
		root, _, _ := strings.Cut(b.Qualified, ".")
		if root == "torch" || strings.HasPrefix(root, "torch") {
			return false
		}
		other = other || otherFrameworks[root]
	}
	return other
}
