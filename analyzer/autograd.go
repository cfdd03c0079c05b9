package analyzer

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
)

// Callable is what calling a value does, as far as autograd is concerned.
type Callable uint8

// The callables the model tells apart.
const (
	CallableUnknown Callable = iota
	CallableModel            // an nn.Module: calling it runs a forward pass
	CallableLoss             // a loss module or function: its result carries the graph of its inputs
	CallableOther            // anything known not to be a model or loss
)

// modelWords are the trailing words of names conventionally bound to
// models (`model`, `net`, `self.encoder`, `ema_model`, `target_net`).
var modelWords = map[string]bool{
	"model": true, "net": true, "network": true, "encoder": true, "decoder": true,
	"backbone": true, "classifier": true, "generator": true, "discriminator": true,
	"critic": true, "actor": true, "policy": true, "unet": true, "vae": true,
	"transformer": true, "teacher": true, "student": true, "detector": true,
}

// layerWords are the names models give their layers: an attribute so
// named of a model is a submodule.
var layerWords = map[string]bool{
	"fc": true, "linear": true, "embedding": true, "lstm": true, "gru": true, "rnn": true,
	"conv": true, "attention": true, "attn": true, "proj": true, "projection": true, "mlp": true,
}

// lossWords are names conventionally bound to loss modules or functions.
var lossWords = map[string]bool{
	"criterion": true, "loss_fn": true, "loss_func": true, "loss_function": true,
	"lossfn": true, "loss_fct": true, "loss_fcn": true, "loss_module": true,
}

func lastWord(name string) string {
	name = strings.ToLower(strings.TrimLeft(name, "_"))
	if i := strings.LastIndexByte(name, '_'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// verbWords start the names of functions that handle models
// (`unwrap_model`, `load_model`, `build_net`) rather than of models.
var verbWords = map[string]bool{
	"get": true, "load": true, "build": true, "create": true, "unwrap": true, "wrap": true,
	"save": true, "prepare": true, "init": true, "make": true, "setup": true, "convert": true,
	"freeze": true, "export": true, "copy": true, "update": true, "compile": true, "register": true,
	"apply": true, "print": true, "count": true, "check": true, "find": true, "fetch": true,
	"is": true, "has": true, "set": true, "to": true, "from": true, "download": true, "instantiate": true,
	"construct": true, "restore": true, "resume": true, "replace": true, "patch": true, "move": true,
	"offload": true, "cast": true, "quantize": true, "shard": true, "summarize": true, "log": true,
	"extract": true, "add": true, "remove": true, "reset": true, "validate": true, "evaluate": true,
	"learn": true, "train": true, "fit": true, "finetune": true, "pretrain": true, "tune": true,
	// What an environment or a notebook shows (`env.show_policy(table)`).
	"show": true, "plot": true, "render": true, "draw": true, "display": true, "visualize": true,
	"describe": true, "dump": true, "write": true,
}

// modelLikeName reports whether a name reads as a model's.
func modelLikeName(name string) bool {
	trimmed := strings.TrimLeft(name, "_")
	first := strings.ToLower(trimmed)
	if i := strings.IndexByte(first, '_'); i > 0 {
		if verbWords[first[:i]] {
			return false
		}
	}
	// camelCase: `getThreatModel`, `loadNet`.
	if i := strings.IndexFunc(trimmed, unicode.IsUpper); i > 0 && verbWords[trimmed[:i]] {
		return false
	}
	w := lastWord(name)
	if modelWords[w] {
		return true
	}
	l := strings.ToLower(name)
	return strings.HasSuffix(l, "model") || (strings.HasSuffix(l, "net") && len(l) > 3)
}

// lossLikeName reports whether a name reads as a loss module's.
func lossLikeName(name string) bool {
	l := strings.ToLower(strings.TrimLeft(name, "_"))
	return lossWords[l] || strings.HasPrefix(l, "criterion") || strings.HasSuffix(l, "_criterion") ||
		strings.HasSuffix(l, "loss_fn") || strings.HasSuffix(l, "loss_fct")
}

// functionalLosses are torch.nn.functional functions whose result is a loss.
func isFunctionalLoss(q string) bool {
	name, ok := strings.CutPrefix(q, "torch.nn.functional.")
	if !ok {
		return false
	}
	return strings.Contains(name, "loss") || name == "cross_entropy" || name == "binary_cross_entropy" ||
		name == "binary_cross_entropy_with_logits" || name == "kl_div"
}

// IsModuleClass reports whether a class defined in this file is an
// nn.Module: it derives from torch.nn.Module (directly, through a torch.nn
// container, a Lightning or Hugging Face base, or another such class of
// this file), or — when its bases come from elsewhere — it defines
// forward() or derives from a base named like a model (`BaseFairseqModel`,
// `DenseDetector`, `ModelMixin`).
func (m *Model) IsModuleClass(class NodeID) bool {
	// A class met again while it is judged (`class Model(Model)` over an
	// import of that name, two classes that derive from each other) may
	// be one: plainBases gives up on it.
	return m.MemoRecursive(moduleClassKey{class}, true, func() any { return m.isModuleClass(class) }).(bool)
}

type moduleClassKey struct{ class NodeID }

func (m *Model) isModuleClass(class NodeID) bool {
	if m.ClassInherits(class, m.moduleBaseName) {
		return true
	}
	bases := m.ClassBases(class)
	if len(bases) == 0 {
		return false
	}
	for _, b := range bases {
		if foreignFramework(m.QualifiedName(b)) {
			return false // an `mlx.nn.Module`, a `keras.Model`
		}
	}
	if m.autogradOperation(class, 0) {
		// Its `forward` computes on the tensors it is given and holds no
		// parameter.
		return false
	}
	if m.MethodOf(class, "forward") != NoNode {
		// A `forward` makes a module of a class of unknown bases, not
		// of one whose every base is seen to be no module (an attack
		// deriving from the project's `Attacker(ABC)`). `object` alone,
		// Python 2's way to write no base, leaves it to what the class
		// computes: a NumPy layer is none, one that runs torch is.
		if !m.plainBases(bases) {
			return true
		}
		return !slices.ContainsFunc(bases, func(b NodeID) bool { return m.QualifiedName(b) != "object" }) && !m.plainClass(class)
	}
	for _, b := range bases {
		if q := m.QualifiedName(b); strings.HasPrefix(q, "torch.") || builtinNames[q] || q == "object" {
			continue
		}
		if m.projectNonModule(b) {
			continue // a class of the project seen to be no module (`class BaseNet(object)`), whatever its name
		}
		name := lastName(m.File, b)
		if modelLikeName(name) || strings.Contains(name, "Model") || strings.HasSuffix(name, "Module") ||
			strings.HasSuffix(name, "Detector") || strings.HasSuffix(name, "RCNN") || strings.HasSuffix(name, "Layer") ||
			strings.HasSuffix(name, "Block") || strings.HasSuffix(name, "Encoder") || strings.HasSuffix(name, "Decoder") {
			return true
		}
	}
	return false
}

// moduleByForward reports whether a module class of this file is one by
// its forward alone (isModuleClass), every base being `object`,
// `abc.ABC` or a class of the project: where none of these is a
// module, the class is none.
func (m *Model) moduleByForward(class NodeID) bool {
	f := m.File
	if m.MethodOf(class, "forward") == NoNode || m.ClassInherits(class, m.moduleBaseName) {
		return false
	}
	for _, b := range m.ClassBases(class) {
		if f.Kind(b) == KindIdentifier {
			if r := m.Resolve(b); r != nil && r.Kind == BindClass {
				continue
			}
		}
		switch q := m.QualifiedName(b); {
		case PlainBase(q):
		case q == "" || isLibraryName(q) || m.valueRef(f.Unparen(b)) == "":
			return false
		}
	}
	return true
}

// moduleBaseName reports whether a class deriving from the class q names
// is an nn.Module: a ModuleBase, or a module class of another file of the
// project.
func (m *Model) moduleBaseName(q string) bool {
	if ModuleBase(q) {
		return true
	}
	o := m.lookup(q, WantModule)
	return o != nil && o.Kind == ObjectClass && o.Module
}

// PlainBase reports whether q names a base class that makes no module:
// `object`, or `abc.ABC` for an abstract class.
func PlainBase(q string) bool { return q == "object" || q == "abc.ABC" }

// plainBases reports whether every class of bases is seen to be no
// module: `object`, `abc.ABC`, or a class of the project that is none.
func (m *Model) plainBases(bases []NodeID) bool {
	f := m.File
	for _, b := range bases {
		if f.Kind(b) == KindIdentifier {
			if r := m.Resolve(b); r != nil && r.Kind == BindClass {
				if r.Stmt == m.EnclosingClass(b) || m.IsModuleClass(r.Stmt) {
					return false
				}
				continue
			}
		}
		switch q := m.QualifiedName(b); {
		case PlainBase(q):
		case q != "" && !isLibraryName(q):
			if o := m.lookup(q, WantModule); o == nil || o.Kind != ObjectClass || o.Module {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// projectNonModule reports whether base b names a class of the project
// that its own file judges to be no module.
func (m *Model) projectNonModule(b NodeID) bool {
	f := m.File
	if f.Kind(b) == KindIdentifier {
		if r := m.Resolve(b); r != nil && r.Kind == BindClass {
			return r.Stmt != m.EnclosingClass(b) && !m.IsModuleClass(r.Stmt)
		}
	}
	o := m.otherFileClass(b, WantKind|WantModule)
	return o != nil && o.Kind == ObjectClass && !o.Module
}

// otherFileClass answers want of the class that expression class names,
// where it is one of another file of the project (imported, or brought
// by a star import); nil for a class of this file or of a library.
func (m *Model) otherFileClass(class NodeID, want Want) *Object {
	if b := m.Resolve(class); b != nil && b.Kind == BindClass {
		return nil
	}
	q := m.QualifiedName(class)
	if q == "" || isLibraryName(q) {
		return nil
	}
	return m.lookup(q, want)
}

// ModuleBase reports whether a class deriving from the class q names is
// an nn.Module: a torch.nn class, Lightning's LightningModule, or a
// Hugging Face PreTrainedModel.
func ModuleBase(q string) bool {
	return strings.HasPrefix(q, "torch.nn.") || strings.HasSuffix(q, ".LightningModule") ||
		strings.HasPrefix(q, "transformers.") && strings.HasSuffix(q, "PreTrainedModel")
}

// ClassifyCallee says what calling the expression callee does.
func (m *Model) ClassifyCallee(callee NodeID) Callable {
	return m.classifyCallee(callee, 0)
}

func (m *Model) classifyCallee(callee NodeID, depth int) Callable {
	f := m.File
	if depth > 8 {
		return CallableUnknown
	}
	callee = f.Unparen(callee)
	if q := m.QualifiedName(callee); q != "" {
		if isFunctionalLoss(q) {
			return CallableLoss
		}
		if o := m.lookup(q, WantModule); o != nil && o.Kind == ObjectInstance && o.Module {
			return CallableModel // `from models import net`, where models.py has `net = Net()`
		}
		return CallableOther
	}
	switch f.Kind(callee) {
	case KindIdentifier:
		name := f.Text(callee)
		b := m.Resolve(callee)
		if b == nil {
			if c := m.evidenceRole(callee); c != CallableUnknown {
				return c
			}
			return m.nameCallable(name)
		}
		switch b.Kind {
		case BindFunction, BindClass, BindImport:
			return CallableOther
		case BindAssign:
			if !b.Unpacked {
				if c := m.instanceOf(b.Value, depth+1); c != CallableUnknown {
					return c
				}
				if m.functionTableEntry(b.Value) {
					return CallableOther // `gen = GENERATORS[key]`
				}
			}
		case BindParam:
			if c := m.annotatedCallable(b.Stmt); c != CallableUnknown {
				return c
			}
			if m.plainCallableParam(b.Stmt) {
				return CallableOther // `decode: Callable[[list[int]], str]`
			}
			if m.paramGivenModelFunctions(b, 0) {
				return CallableModel // `evaluate_accuracy(test_iter, net)`, net a function over tensors that require grad
			}
			if m.paramGivenFunctions(b, 0) {
				return CallableOther // `policy=lambda s: greedy(qnet, s)` at every call
			}
			if depth < 4 && m.paramGivenModels(b, depth) {
				return CallableModel // `generate(netG, z)` where every call passes a module
			}
			if c := m.paramClass(b, depth); c != NoNode && m.plainClassRef(c) || m.paramGivenPlain(b) {
				return CallableOther // every call passes an instance of a plain class (a NumPy network)
			}
			if m.evalParam(b) {
				return CallableModel // every call passes a module it switched to evaluation mode
			}
			if m.moduleParam(b) != nil {
				return CallableModel // every call of the project passes a module
			}
			if name == "self" {
				return CallableOther
			}
		}
		if c := m.evidenceRole(callee); c != CallableUnknown {
			return c
		}
		return m.nameCallable(name)
	case KindAttribute:
		obj, attr := f.Field(callee, FieldObject), f.Text(f.Field(callee, FieldAttribute))
		if attr == "module" || attr == "_orig_mod" {
			// DataParallel/DDP's .module, torch.compile's _orig_mod.
			if m.classifyCallee(obj, depth+1) == CallableModel {
				return CallableModel
			}
		}
		if f.TextIs(obj, "self") || f.TextIs(obj, "cls") {
			if m.selfMethod(m.EnclosingClass(callee), attr) != NoNode {
				return CallableOther // a method of this class or a base of this file, not a submodule
			}
		}
		if f.TextIs(obj, "self") {
			if v := m.selfAttrValue(callee); v != NoNode {
				if c := m.instanceOf(v, depth+1); c != CallableUnknown {
					return c
				}
			}
		} else if c := m.memberOfKnownClass(obj, attr, depth); c != CallableUnknown {
			return c
		} else if m.projectModuleAttr(obj, attr) {
			return CallableModel // `self.model.encoder(x)`, self.model an instance of a class of another file that makes it a module
		}
		if c := m.evidenceRole(callee); c != CallableUnknown {
			return c
		}
		if m.importedModule(obj) {
			return CallableOther // `mod.Net(...)` with `mod = import_module(...)`: a class or a function of a module
		}
		if layerWords[lastWord(attr)] && !m.noNames && m.classifyCallee(obj, depth+1) == CallableModel &&
			!m.localMethodNamed(attr) && m.lookup("*."+attr, WantHelper) == nil {
			// `decoder.embedding(tokens)`, `decoder.fc(h)`: a layer of a
			// model, called step by step (a beam search), where no class
			// of the file or method of the project has that name.
			return CallableModel
		}
		return m.nameCallable(attr)
	case KindLambda:
		return CallableOther
	case KindSubscript:
		// `self.actors[i](obs)`: an element of a list the file fills
		// with module instances.
		if m.moduleList(f.Unparen(f.Field(callee, FieldValue)), depth+1) {
			return CallableModel
		}
	}
	return CallableUnknown
}

// projectModuleAttr reports whether obj is an instance of a class of
// another file of the project whose methods assign attr, once, an
// instance of a module class (Object.ModuleAttrs).
func (m *Model) projectModuleAttr(obj NodeID, attr string) bool {
	class := m.receiverClass(m.File.Unparen(obj))
	if class == NoNode {
		return false
	}
	if k := m.File.Kind(class); k != KindIdentifier && k != KindAttribute {
		return false
	}
	o := m.otherFileClass(class, WantModule) // a class of this file is memberOfKnownClass's
	return o != nil && slices.Contains(o.ModuleAttrs, attr)
}

// memberOfKnownClass classifies attribute attr of obj, an instance of a
// class of this file (`self.vae.encode` with `self.vae = VAE()`, `net.head`
// with `net = Net()`): a method of the class is no submodule; an
// attribute its class assigns once is what that assignment makes
// (`self.encode = nn.Sequential(...)`).
func (m *Model) memberOfKnownClass(obj NodeID, attr string, depth int) Callable {
	if depth > 6 {
		return CallableUnknown
	}
	class, v := m.knownClassAttr(m.File.Unparen(obj), attr, depth)
	switch {
	case class == NoNode:
		return CallableUnknown
	case m.selfMethod(class, attr) != NoNode:
		return CallableOther
	case v != NoNode:
		return m.instanceOf(m.File.Unparen(v), depth+1)
	}
	return CallableUnknown
}

// heldValue returns the value a name holds by a plain assignment, or an
// attribute of self as selfAttr finds it; NoNode for anything else.
func (m *Model) heldValue(e NodeID, selfAttr func(NodeID) NodeID) NodeID {
	f := m.File
	v := NoNode
	switch f.Kind(e) {
	case KindIdentifier:
		if b := m.Resolve(e); b != nil && b.Kind == BindAssign && !b.Unpacked {
			v = b.Value
		}
	case KindAttribute:
		if f.TextIs(f.Field(e, FieldObject), "self") {
			v = selfAttr(e)
		}
	}
	return f.Unparen(v)
}

// moduleList reports whether a name or an attribute of self holds a
// list of module instances the file shows: a literal list or a list
// comprehension whose elements are, or an `nn.ModuleList` of them.
func (m *Model) moduleList(e NodeID, depth int) bool {
	f := m.File
	v := m.heldValue(e, m.selfAttrValue)
	if f.Kind(v) == KindCall && m.CallName(v) == "torch.nn.ModuleList" {
		args := m.Args(v)
		if len(args) != 1 {
			return false
		}
		v = f.Unparen(args[0])
	}
	return m.listOfModules(v, depth)
}

// listOfModules reports whether v is a literal list or a list
// comprehension whose elements are module instances, or one of them
// repeated (`[Actor(s, a)] * n`).
func (m *Model) listOfModules(v NodeID, depth int) bool {
	f := m.File
	switch f.Kind(v) {
	case KindList:
		all, some := true, false
		f.Children(v, func(c NodeID) bool {
			all, some = m.instanceOf(c, depth) == CallableModel, true
			return all
		})
		return all && some
	case KindListComprehension:
		return m.instanceOf(f.Field(v, FieldBody), depth) == CallableModel
	case KindBinaryOperator:
		if !f.TextIs(f.Field(v, FieldOperator), "*") {
			return false
		}
		for _, side := range [...]NodeID{f.Unparen(f.Field(v, FieldLeft)), f.Unparen(f.Field(v, FieldRight))} {
			if k := f.Kind(side); k == KindList || k == KindListComprehension {
				return m.listOfModules(side, depth)
			}
		}
	}
	return false
}

// paramGivenFunctions reports whether a parameter (its binding) is given
// a function at every call of its function in this file, one call at
// least: a lambda, a function of the file, a name bound to a lambda, or
// a parameter of the caller given one in turn. Calling it runs that
// function, whatever the parameter's name says.
func (m *Model) paramGivenFunctions(b *Binding, depth int) bool {
	if depth > 4 {
		return false
	}
	args, ok := m.paramArgs(b)
	if !ok {
		return false
	}
	for _, a := range args {
		if !m.functionValue(a, depth) {
			return false
		}
	}
	return true
}

// paramGivenModelFunctions reports whether a parameter (its binding) is
// given, at every call of its function in this file, one call at least,
// a model written as a function (parameterFunction), or a parameter of
// the caller given one at every call in turn.
func (m *Model) paramGivenModelFunctions(b *Binding, depth int) bool {
	if depth > 4 {
		return false
	}
	args, ok := m.paramArgs(b)
	if !ok {
		return false
	}
	f := m.File
	for _, a := range args {
		a = f.Unparen(a)
		if m.parameterFunction(a) {
			continue
		}
		if ab := m.Resolve(a); f.Kind(a) != KindIdentifier || ab == nil || ab.Kind != BindParam || ab == b || !m.paramGivenModelFunctions(ab, depth+1) {
			return false
		}
	}
	return true
}

// paramGivenModels reports whether a parameter (its binding) is given a
// module that records a graph at every call of its function in this
// file, one call at least: a torch.load result, an instance of a module
// class, a name bound to one.
func (m *Model) paramGivenModels(b *Binding, depth int) bool {
	args, ok := m.paramArgs(b)
	if !ok {
		return false
	}
	for _, a := range args {
		if m.instanceOf(a, depth+1) != CallableModel || m.NoGraphValue(a) {
			return false // not a module, or one that records no graph
		}
	}
	return true
}

// paramGivenPlain reports whether every call of the parameter's function
// in this file passes an instance of a plain class (plainClassRef), built
// there or bound to a name: `evaluate(Dense(784, 10), X)` with Dense a
// NumPy layer of another file.
func (m *Model) paramGivenPlain(b *Binding) bool {
	f := m.File
	vals, ok := m.ParamValues(b.Name)
	if !ok {
		return false
	}
	for _, v := range vals {
		if v = f.Unparen(v); f.Kind(v) == KindIdentifier {
			v = m.BoundValue(v)
		}
		if v == NoNode {
			return false
		}
		if c := constructed(f, v); c == NoNode || !m.plainClassRef(c) {
			return false
		}
	}
	return true
}

// ParamArgs returns what the calls of the function of use, a parameter
// of a function of this file, pass for it (paramArgs); ok is false where
// use is no parameter.
func (m *Model) ParamArgs(use NodeID) (args []NodeID, ok bool) {
	b := m.Resolve(use)
	if b == nil || b.Kind != BindParam {
		return nil, false
	}
	return m.paramArgs(b)
}

// paramArgs returns what the calls of a parameter's function in this
// file pass for it (b is its binding), by position or by keyword, other
// than the function's calls of itself; ok is false when there is no such
// call, when one passes nothing for it that the file shows (`f(**kw)`),
// or when the function is used where this file cannot see its calls.
func (m *Model) paramArgs(b *Binding) (args []NodeID, ok bool) {
	f := m.File
	def := m.paramFunction(b)
	if def == NoNode {
		return nil, false
	}
	m.indexCalls()
	if m.escapes[def] {
		return nil, false // called from where this file cannot see
	}
	idx := slices.Index(m.positionalParams(def), b.Name)
	name := f.Text(b.Name)
	for _, c := range m.callSites[def] {
		if f.Contains(def, c) {
			continue
		}
		arg, _ := m.argFor(c, idx, name)
		if arg == NoNode {
			return nil, false
		}
		args = append(args, arg)
	}
	return args, len(args) > 0
}

// functionValue reports whether e is a function: a lambda, a function of
// this file, a name bound to a lambda, or a parameter given functions.
func (m *Model) functionValue(e NodeID, depth int) bool {
	f := m.File
	e = f.Unparen(e)
	switch f.Kind(e) {
	case KindLambda:
		return true
	case KindIdentifier:
		b := m.Resolve(e)
		if b == nil {
			return false
		}
		switch b.Kind {
		case BindFunction:
			return true
		case BindAssign:
			return !b.Unpacked && f.Kind(f.Unparen(b.Value)) == KindLambda
		case BindParam:
			return m.paramGivenFunctions(b, depth+1)
		}
	}
	return false
}

// plainCallableParam reports whether a parameter is annotated as a
// function that is no model: a `Callable` whose result is a plain Python
// value (`Callable[[list[int]], str]`), or one whose default is a
// function of this file.
func (m *Model) plainCallableParam(param NodeID) bool {
	f := m.File
	t := paramType(f, param)
	for {
		for f.Kind(t) == KindType {
			t = f.FirstChild(t)
		}
		if f.Kind(t) == KindUnionType {
			t = f.FirstChild(t) // `Callable[...] | None`
			continue
		}
		if f.Kind(t) == KindGenericType && strings.HasSuffix(m.QualifiedName(f.FirstChild(t)), "Optional") {
			t = f.FirstChild(f.ChildList(t)[1]) // `Optional[Callable[...]]`
			continue
		}
		break
	}
	head := t
	if f.Kind(t) == KindGenericType {
		head = f.FirstChild(t)
	}
	// `Callable` of typing, also through `from typing import *`.
	if q := m.QualifiedName(head); q != "typing.Callable" && q != "collections.abc.Callable" &&
		(q != "" || !f.TextIs(head, "Callable") || m.Resolve(head) != nil) {
		return false
	}
	if k := f.Kind(param); k == KindTypedDefaultParameter && m.functionValue(f.Field(param, FieldValue), 0) {
		return true
	}
	if f.Kind(t) != KindGenericType {
		return false
	}
	// Callable, then its arguments and its result.
	parts := f.ChildList(t)
	if len(parts) != 2 {
		return false
	}
	args := f.ChildList(parts[1])
	if len(args) != 2 {
		return false
	}
	ret := f.Unparen(args[1])
	for f.Kind(ret) == KindType || f.Kind(ret) == KindGenericType {
		ret = f.FirstChild(ret) // `str`, `list[str]`
	}
	return builtinPlainTypes[f.Text(ret)]
}

// builtinPlainTypes are the Python types of values that carry no graph.
var builtinPlainTypes = map[string]bool{
	"str": true, "int": true, "float": true, "bool": true, "None": true, "bytes": true,
	"list": true, "dict": true, "tuple": true, "set": true, "List": true, "Dict": true, "Tuple": true,
}

// functionTableEntry reports whether v reads an entry of a dictionary of
// functions of this file (`GENERATORS[key]`, with `GENERATORS = {"a":
// gen_a, ...}` assigned once).
func (m *Model) functionTableEntry(v NodeID) bool {
	f := m.File
	table := subscriptTable(f, v)
	if f.Kind(table) != KindIdentifier {
		return false
	}
	b := m.Resolve(table)
	if b == nil || b.Kind != BindAssign || b.Unpacked || !m.definiteBinding(b, table) {
		return false
	}
	d := f.Unparen(b.Value)
	if f.Kind(d) != KindDictionary {
		return false
	}
	n := 0
	all := true
	f.Children(d, func(p NodeID) bool {
		if f.Kind(p) == KindPair {
			n++
			all = m.functionValue(f.Field(p, FieldValue), 0)
		} else if f.Kind(p) == KindDictionarySplat {
			all = false
		}
		return all
	})
	return all && n > 0
}

// freeLayerTableEntry reports whether callee reads an entry of a
// dictionary of parameter-free layer classes of torch.nn, or names a
// value assigned once from one (`Pool = {1: nn.AvgPool1d, 2:
// nn.AvgPool2d}[dims]`, or through a name bound to the dictionary).
func (m *Model) freeLayerTableEntry(callee NodeID) bool {
	f := m.File
	v := f.Unparen(callee)
	if f.Kind(v) == KindIdentifier {
		b := m.Resolve(v)
		if b == nil || b.Kind != BindAssign || b.Unpacked || !m.definiteBinding(b, v) {
			return false
		}
		v = f.Unparen(b.Value)
	}
	d := subscriptTable(f, v)
	if f.Kind(d) == KindIdentifier {
		b := m.Resolve(d)
		if b == nil || b.Kind != BindAssign || b.Unpacked || !m.definiteBinding(b, d) {
			return false
		}
		d = f.Unparen(b.Value)
	}
	if f.Kind(d) != KindDictionary {
		return false
	}
	n, all := 0, true
	f.Children(d, func(p NodeID) bool {
		switch f.Kind(p) {
		case KindPair:
			n++
			name, ok := strings.CutPrefix(m.QualifiedName(f.Field(p, FieldValue)), "torch.nn.")
			all = ok && parameterFree[name]
		case KindDictionarySplat:
			all = false
		}
		return all
	})
	return all && n > 0
}

// foreignFramework reports whether a qualified name belongs to a
// framework other than PyTorch, whose models record no autograd graph of
// torch's: OpenCV's DNN module, TensorFlow and Keras, JAX, MLX, ONNX
// Runtime and the like.
func foreignFramework(q string) bool {
	root, _, _ := strings.Cut(q, ".")
	switch root {
	case "cv2", "tensorflow", "keras", "tf_keras", "jax", "flax", "haiku", "mlx", "onnxruntime", "sklearn",
		"paddle", "mindspore", "openvino", "tensorrt", "ncnn", "tflite_runtime", "coremltools":
		return true
	}
	return false
}

// nameCallable is what a callee's name says it is, unless the model is
// asked to judge without names (WithoutNames).
func (m *Model) nameCallable(name string) Callable {
	if m.noNames {
		return CallableUnknown
	}
	c := nameCallable(name)
	if c == CallableModel && foreignModelName(name) {
		// `tf_model`, `keras_net`, `flax_model`: named for another
		// framework's model, whatever this file imports.
		return CallableUnknown
	}
	if c != CallableModel || !m.foreignDL {
		return c
	}
	// `tf_model(inputs, training=False)` in a file that imports
	// TensorFlow: the name may be another framework's model.
	return CallableUnknown
}

// foreignPrefixes start the names of other frameworks' models.
var foreignPrefixes = []string{"tf_", "tf2_", "keras_", "flax_", "jax_", "mx_", "paddle_"}

// foreignModelName reports whether name starts with the name of another
// deep-learning framework (`tf_model`).
func foreignModelName(name string) bool {
	name = strings.ToLower(strings.TrimLeft(name, "_"))
	for _, p := range foreignPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func nameCallable(name string) Callable {
	switch {
	case lossLikeName(name):
		return CallableLoss
	case modelLikeName(name):
		return CallableModel
	}
	return CallableUnknown
}

// paramType returns the type annotation of a parameter (`x: Net`), or
// NoNode for a parameter without one.
func paramType(f *File, param NodeID) NodeID {
	if k := f.Kind(param); k != KindTypedParameter && k != KindTypedDefaultParameter {
		return NoNode
	}
	return f.Unparen(f.FirstChild(f.Field(param, FieldType)))
}

// annotatedCallable reads a parameter's type annotation (`model:
// nn.Module`, `net: Classifier` where Classifier is a module class of this
// file or another of the project).
func (m *Model) annotatedCallable(param NodeID) Callable {
	f := m.File
	t := paramType(f, param)
	if t == NoNode {
		return CallableUnknown
	}
	if f.Kind(t) == KindString {
		return CallableUnknown // a forward reference: not resolved
	}
	loss := strings.HasSuffix(f.Text(t), "Loss")
	if f.Kind(t) == KindIdentifier {
		if b := m.Resolve(t); b != nil && b.Kind == BindClass {
			switch {
			case !m.IsModuleClass(b.Stmt):
				return CallableUnknown
			case loss:
				return CallableLoss
			}
			return CallableModel
		}
	}
	q := m.QualifiedName(t)
	switch {
	case q == "":
		return CallableUnknown
	case foreignFramework(q):
		return CallableOther // `net: cv2.dnn.Net`, `model: mlx.nn.Module`
	case strings.HasPrefix(q, "torch.nn.") && strings.HasSuffix(q, "Loss"):
		return CallableLoss
	case q == "torch.nn.Module" && lossLikeName(f.Text(f.FirstChild(param))):
		// `loss_function: nn.Module`: the annotation says a module, the
		// name which one; a loss holds no parameter to record a graph for.
		return CallableLoss
	case strings.HasPrefix(q, "torch.nn.") || strings.HasSuffix(q, ".LightningModule") || strings.HasSuffix(q, "PreTrainedModel"):
		return CallableModel
	}
	if o := m.lookup(q, WantModule); o != nil && o.Kind == ObjectClass && o.Module {
		if loss {
			return CallableLoss
		}
		return CallableModel
	}
	return CallableUnknown
}

// selfAttrValue finds the value last assigned to `self.attr` in the class
// whose method contains attr (usually in __init__).
func (m *Model) selfAttrValue(attr NodeID) NodeID {
	class := m.EnclosingClass(attr)
	if class == NoNode {
		return NoNode
	}
	if v, ok := m.selfAttrs(class).last[m.File.Text(attr)]; ok {
		return v
	}
	return m.inheritedSelfAttr(class, m.File.Text(attr))
}

// SelfAttrOnce finds the value assigned to `self.attr` in the class whose
// method contains attr, when that is its only assignment there.
func (m *Model) SelfAttrOnce(attr NodeID) NodeID {
	class := m.EnclosingClass(attr)
	if class == NoNode {
		return NoNode
	}
	a := m.selfAttrs(class)
	k := m.File.Text(attr)
	switch a.count[k] {
	case 1:
		return a.last[k]
	case a.loaded[k] + 1:
		// `self.model = Net(...)`, and `self.model = torch.load(path)`
		// to restore what it saved: the object of that class.
		return a.made[k]
	}
	return NoNode
}

type selfAttrsKey struct{ class NodeID }

// classAttrs are the `self.x` assigned in a class: the last value
// assigned to each, and how many assignments, augmented ones included,
// bind it.
type classAttrs struct {
	last  map[string]NodeID
	count map[string]int
	// loaded counts the assignments of an object read back by
	// torch.load; made is the last value of the other assignments.
	loaded map[string]int
	made   map[string]NodeID
	// values lists every value assigned to each, in source order.
	values map[string][]NodeID
	// buffers: the names a method registers a buffer under
	// (`self.register_buffer("grid", g)`).
	buffers map[string]bool
	// unpacked: the attributes bound by unpacking what a call returns
	// (`self.net, self.inception, step = load_network(gpus)`), each with
	// the call and its place in the targets. Not counted in count.
	unpacked map[string][]unpackedAttr
}

// unpackedAttr is one binding of an attribute of self by unpacking: the
// call whose result is unpacked and the attribute's place among the
// targets.
type unpackedAttr struct {
	call  NodeID
	index int
}

// assignedOnly returns every value assigned to `self.` + name, where
// plain assignments alone bind it (no `+=`): nil otherwise.
func (a classAttrs) assignedOnly(name string) []NodeID {
	if vs := a.values[name]; len(vs) == a.count[name] {
		return vs
	}
	return nil
}

// selfAttrs finds the `self.x` assigned in class in one walk of it.
func (m *Model) selfAttrs(class NodeID) classAttrs {
	return m.Memo(selfAttrsKey{class}, func() any {
		f := m.File
		out := classAttrs{last: map[string]NodeID{}, count: map[string]int{}, loaded: map[string]int{}, made: map[string]NodeID{},
			values: map[string][]NodeID{}, buffers: map[string]bool{}}
		f.Walk(class, func(id NodeID) {
			if f.Kind(id) == KindCall && m.MethodName(id) == "register_buffer" {
				fn := f.Unparen(f.Field(id, FieldFunction))
				if args := m.Args(id); len(args) > 0 && f.TextIs(f.Field(fn, FieldObject), "self") && f.Kind(args[0]) == KindString {
					out.buffers[strings.Trim(f.Text(args[0]), `"'`)] = true
				}
				return
			}
			if k := f.Kind(id); k != KindAssignment && k != KindAugmentedAssignment {
				return
			}
			left := f.Field(id, FieldLeft)
			if k := f.Kind(left); (k == KindPatternList || k == KindTuplePattern) && f.Kind(id) == KindAssignment {
				if right := f.Unparen(f.Field(id, FieldRight)); f.Kind(right) == KindCall {
					i := 0
					f.Children(left, func(c NodeID) bool {
						if f.Kind(c) == KindAttribute && f.TextIs(f.Field(c, FieldObject), "self") {
							if out.unpacked == nil {
								out.unpacked = map[string][]unpackedAttr{}
							}
							out.unpacked[f.Text(c)] = append(out.unpacked[f.Text(c)], unpackedAttr{call: right, index: i})
						}
						i++
						return true
					})
				}
				return
			}
			if f.Kind(left) != KindAttribute {
				return
			}
			if f.Kind(id) == KindAssignment && f.Field(id, FieldRight) == NoNode {
				return // `self.y: list`: a bare annotation declares the attribute, binds nothing
			}
			if f.Kind(id) == KindAssignment && f.Kind(f.Unparen(f.Field(id, FieldRight))) == KindNone {
				return // `self.model = None` until a method binds the model
			}
			if f.Kind(id) == KindAssignment {
				if src := movedFrom(f, f.Field(id, FieldRight)); src != NoNode && f.Text(src) == f.Text(left) {
					return // `self.gen = self.gen.cuda()`: the same module, moved
				}
			}
			out.count[f.Text(left)]++
			if f.Kind(id) == KindAssignment {
				v := f.Field(id, FieldRight)
				out.last[f.Text(left)] = v
				out.values[f.Text(left)] = append(out.values[f.Text(left)], v)
				if c := f.Unparen(v); f.Kind(c) == KindCall && m.CallName(c) == "torch.load" {
					out.loaded[f.Text(left)]++
				} else {
					out.made[f.Text(left)] = v
				}
			}
		})
		return out
	}).(classAttrs)
}

// instanceOf classifies the value of an expression that builds an object:
// `nn.Linear(4, 2)` is a model, `nn.MSELoss()` a loss, `Net().to(dev)` a
// model.
func (m *Model) instanceOf(value NodeID, depth int) Callable {
	f := m.File
	value = f.Unparen(value)
	switch f.Kind(value) {
	case KindIdentifier, KindAttribute:
		return m.classifyCallee(value, depth+1)
	case KindCall:
	case KindLambda:
		return CallableOther
	case KindConditionalExpression:
		// `nn.BCEWithLogitsLoss() if binary else nn.CrossEntropyLoss()`:
		// what both arms make, where they agree.
		arms := f.ChildList(value) // the value, the test, the other value
		if len(arms) != 3 {
			return CallableUnknown
		}
		if a := m.instanceOf(arms[0], depth+1); a == m.instanceOf(arms[2], depth+1) {
			return a
		}
		return CallableUnknown
	case KindNone:
		// `model = None`, bound to its module later (`self.model =
		// Net()` in a `load()` method, `global model` in a function).
		return CallableUnknown
	case KindString, KindInteger, KindFloat, KindTrue, KindFalse, KindList, KindDictionary, KindTuple:
		return CallableOther
	default:
		return CallableUnknown
	}
	fn := f.Field(value, FieldFunction)
	q := m.QualifiedName(fn)
	last := q[strings.LastIndexByte(q, '.')+1:]
	switch {
	case strings.HasPrefix(q, "torch.nn.") && last != "" && unicode.IsUpper(rune(last[0])):
		switch {
		case strings.HasSuffix(last, "Loss"):
			return CallableLoss
		case strings.HasPrefix(last, "Parameter"), last == "Module" && q != "torch.nn.Module":
			return CallableOther
		}
		return CallableModel
	case strings.HasPrefix(q, "torchvision.models.") && strings.Contains(q, "_Weights"):
		return CallableOther // `ResNet18_Weights.DEFAULT.transforms()`: the weights' preprocessing
	case strings.HasPrefix(q, "torchvision.models.") || q == "timm.create_model":
		return CallableModel
	case q == "torch.compile" || q == "torch.jit.script" || q == "torch.jit.trace":
		if args := m.Args(value); len(args) > 0 {
			return m.instanceOf(args[0], depth+1)
		}
		return CallableUnknown
	case q == "torch.jit.load" || q == "torch.load":
		// A torch.load result that is called is a pickled module.
		return CallableModel
	case q == "torch.hub.load":
		// Whatever a hub repository's entry point returns: most are
		// models, but some are plain objects (a vocoder's mel transform)
		// or wrap their model in their own no_grad (YOLOv5's AutoShape).
		// What the code does with it decides.
		return CallableUnknown
	case foreignFramework(q):
		return CallableOther // `cv2.dnn.readNetFromONNX(path)`: no autograd of torch's
	case q == "transformers.pipeline" || strings.HasPrefix(q, "transformers.") && strings.HasSuffix(q, "Pipeline"):
		return CallableOther // a pipeline runs its model under its own no_grad
	case strings.HasPrefix(q, "ultralytics.") && ultralyticsModels[last]:
		return CallableOther // `YOLO("best.pt")(img)` predicts under ultralytics' own inference mode
	case last == "from_pretrained" && strings.HasPrefix(q, "transformers."):
		return pretrainedCallable(f.Text(f.Field(fn, FieldObject)))
	case q != "":
		if o := m.lookup(q, WantModule); o != nil && o.Kind == ObjectClass && o.Module {
			// A module class of another file of the project.
			if strings.HasSuffix(last, "Loss") {
				return CallableLoss
			}
			return CallableModel
		} else if o != nil && o.Kind == ObjectClass && o.Plain {
			return CallableOther // a plain class of another file (a NumPy network), as of this file
		}
		return CallableUnknown
	}
	switch f.Kind(fn) {
	case KindIdentifier:
		if b := m.Resolve(fn); b != nil && b.Kind == BindFunction && m.returnsFunctions(b.Stmt) {
			return CallableOther // `policy = make_epsilon_greedy(q, eps)`, which returns a closure
		}
		if b := m.Resolve(fn); b != nil && b.Kind == BindParam && ClassName(f.Text(fn)) && m.annotatedCallable(b.Stmt) == CallableModel {
			// `agent = Model(envs)`, with `Model: torch.nn.Module` a
			// parameter named as a class: the module class it is handed,
			// built.
			return CallableModel
		}
		if b := m.Resolve(fn); b != nil && b.Kind == BindClass {
			name := f.Text(fn)
			if strings.HasSuffix(name, "Loss") {
				return CallableLoss
			}
			if m.IsModuleClass(b.Stmt) || len(m.ClassBases(b.Stmt)) > 0 && modelLikeName(name) {
				return CallableModel
			}
			return CallableOther
		}
	case KindAttribute:
		if from := movedFrom(f, value); from != NoNode {
			return m.instanceOf(from, depth+1)
		}
		if f.TextIs(f.Field(fn, FieldAttribute), "from_pretrained") {
			return pretrainedCallable(f.Text(f.Field(fn, FieldObject)))
		}
	}
	return CallableUnknown
}

// importedModule reports whether obj is a name bound, by every binding
// that reaches it, to a module imported at run time
// (`importlib.import_module(name)`, `__import__(name)`).
func (m *Model) importedModule(obj NodeID) bool {
	f := m.File
	obj = f.Unparen(obj)
	if f.Kind(obj) != KindIdentifier {
		return false
	}
	vals, ok := m.assignedValues(obj)
	for _, v := range vals {
		if q := m.CallName(f.Unparen(v)); q != "importlib.import_module" && q != "__import__" {
			return false
		}
	}
	return ok && len(vals) > 0
}

// pretrainedCallable is what `name.from_pretrained(...)` makes: a model,
// but for a pipeline (which runs its own passes under no_grad) and a
// tokenizer, processor, configuration or scheduler.
func pretrainedCallable(name string) Callable {
	if strings.Contains(strings.ToLower(name), "pipeline") {
		return CallableOther
	}
	for _, w := range []string{"Tokenizer", "Processor", "Config", "FeatureExtractor", "Scheduler", "ImageProcessor"} {
		if strings.Contains(name, w) {
			return CallableOther
		}
	}
	return CallableModel
}

// returnsFunctions reports whether every return of def, one at least,
// gives a function that runs no forward pass in its caller's grad mode:
// a closure def defines (`def act(state): ...; return act`) whose own
// passes, if any, run under no_grad or in helpers that do.
func (m *Model) returnsFunctions(def NodeID) bool {
	closures := m.returnedClosures(def)
	for _, c := range closures {
		if h := m.localHelperOf(c, 0); h != nil && h.Forward != nil || m.callsBuiltObject(def, c) {
			return false // a closure that runs a model (`return forward`, over resnet50)
		}
	}
	return len(closures) > 0
}

// callsBuiltObject reports whether closure, a function def defines,
// calls an object def built (`model = resnet50(); self = model`, then
// `self.conv1(x)` in the closure): what it runs is not known to be no
// model.
func (m *Model) callsBuiltObject(def, closure NodeID) bool {
	f := m.File
	found := false
	f.Walk(f.Field(closure, FieldBody), func(id NodeID) {
		if found || f.Kind(id) != KindCall {
			return
		}
		root := f.Unparen(f.Field(id, FieldFunction))
		for f.Kind(root) == KindAttribute {
			root = f.Unparen(f.Field(root, FieldObject))
		}
		for range 4 {
			if f.Kind(root) != KindIdentifier {
				return
			}
			b := m.Resolve(root)
			if b == nil || !f.Contains(def, b.Stmt) || f.Contains(closure, b.Stmt) {
				return
			}
			switch b.Kind {
			case BindFunction:
				found = true // a helper of the factory's own: what it runs is not followed
				return
			case BindParam:
				// `net.layer4(x)` on what the factory is given: a model
				// unless every call gives an instance of a class of the
				// file whose method runs none (`estimator.predict`).
				found = !m.paramMethodRunsNoModel(b, id)
				return
			}
			if b.Kind != BindAssign || b.Unpacked {
				return
			}
			v := f.Unparen(b.Value)
			if f.Kind(v) == KindCall {
				found = true
				return
			}
			root = v
		}
	})
	return found
}

// paramMethodRunsNoModel reports whether call, a method call on the
// parameter b binds (`estimator.predict(s)`), runs a method of the class
// every call of the file passes there, which runs no forward pass in its
// caller's grad mode.
func (m *Model) paramMethodRunsNoModel(b *Binding, call NodeID) bool {
	name := m.MethodName(call)
	class := m.paramClass(b, 0)
	if name == "" || class == NoNode {
		return false
	}
	cb := m.Resolve(class)
	if cb == nil || cb.Kind != BindClass {
		return false
	}
	def := m.MethodOf(cb.Stmt, name)
	if def == NoNode {
		return false
	}
	h := m.localHelperOf(def, 0)
	return h == nil || h.Forward == nil
}

// ValueCallable says what calling the value of expression v does: a
// module built by `Net(...).to(dev)`, a loss built by `nn.MSELoss()`.
func (m *Model) ValueCallable(v NodeID) Callable {
	return m.instanceOf(v, 0)
}

// parameterFree are torch.nn layers without parameters or state: calling
// one records no graph of weights.
var parameterFree = map[string]bool{
	"Identity": true, "Flatten": true, "Unflatten": true, "Dropout": true, "Dropout1d": true, "Dropout2d": true,
	"Dropout3d": true, "AlphaDropout": true, "ReLU": true, "ReLU6": true, "LeakyReLU": true, "ELU": true,
	"SELU": true, "CELU": true, "GELU": true, "SiLU": true, "Mish": true, "Sigmoid": true, "Tanh": true,
	"Softmax": true, "LogSoftmax": true, "Softplus": true, "Softsign": true, "Hardtanh": true, "Hardswish": true,
	"Hardsigmoid": true, "Tanhshrink": true, "Threshold": true, "MaxPool1d": true, "MaxPool2d": true,
	"MaxPool3d": true, "AvgPool1d": true, "AvgPool2d": true, "AvgPool3d": true, "AdaptiveAvgPool1d": true,
	"AdaptiveAvgPool2d": true, "AdaptiveAvgPool3d": true, "AdaptiveMaxPool1d": true, "AdaptiveMaxPool2d": true,
	"AdaptiveMaxPool3d": true, "Upsample": true, "UpsamplingNearest2d": true, "UpsamplingBilinear2d": true,
	"PixelShuffle": true, "PixelUnshuffle": true, "ZeroPad1d": true, "ZeroPad2d": true, "ZeroPad3d": true,
	"ConstantPad1d": true, "ConstantPad2d": true, "ConstantPad3d": true, "ReflectionPad1d": true,
	"ReflectionPad2d": true, "ReflectionPad3d": true, "ReplicationPad1d": true, "ReplicationPad2d": true,
	"ReplicationPad3d": true, "CircularPad1d": true, "CircularPad2d": true, "CircularPad3d": true,
	"Softmin": true, "Softmax2d": true, "LogSigmoid": true, "Hardshrink": true, "Softshrink": true, "GLU": true,
	"LocalResponseNorm": true, "MaxUnpool1d": true, "MaxUnpool2d": true, "MaxUnpool3d": true, "LPPool1d": true,
	"LPPool2d": true, "LPPool3d": true,
	"ChannelShuffle": true, "Fold": true, "Unfold": true, "CosineSimilarity": true, "PairwiseDistance": true,
}

// torchLoss reports whether q names one of torch.nn's losses, which keep
// what they are built with (`weight`, `pos_weight`) as buffers: all but
// the adaptive softmax, which learns.
func torchLoss(q string) bool {
	name, ok := strings.CutPrefix(q, "torch.nn.")
	return ok && !strings.Contains(name, ".") && strings.HasSuffix(name, "Loss") && name != "AdaptiveLogSoftmaxWithLoss"
}

// freeModule reports whether call builds a torch.nn module that a class
// holding it counts as no parameter: a layer without parameters
// (freeLayer) or a loss (torchLoss). What a call of it hands on is
// freeLayer's alone.
func (m *Model) freeModule(call NodeID) bool {
	return m.freeLayer(call) || torchLoss(m.CallName(call))
}

// freeLayer reports whether call builds a torch.nn layer without
// parameters: one of parameterFree, or a normalisation layer built
// without its affine weights (`nn.BatchNorm2d(c, affine=False)`,
// `nn.InstanceNorm2d(c)`, `nn.LayerNorm(d, elementwise_affine=False)`),
// which keeps running statistics at most; an embedding made frozen from
// pretrained weights (`nn.Embedding.from_pretrained(w)`, `freeze=True`
// by default); or a torchaudio or torchvision transform
// (`torchaudio.transforms.MelSpectrogram(...)`).
func (m *Model) freeLayer(call NodeID) bool {
	q := m.CallName(call)
	if transformModule(q) {
		return true
	}
	name, ok := strings.CutPrefix(q, "torch.nn.")
	if !ok {
		return false
	}
	if parameterFree[name] {
		return true
	}
	f := m.File
	if name == "Embedding.from_pretrained" || name == "EmbeddingBag.from_pretrained" {
		// Frozen unless told otherwise (`freeze=True` by default).
		args := m.Args(call)
		return f.Kind(f.Unparen(m.Keyword(call, "freeze"))) != KindFalse && (len(args) < 2 || !f.TextIs(args[1], "False"))
	}
	flag, byDefault := "affine", false
	switch {
	case strings.HasPrefix(name, "InstanceNorm"):
	case strings.HasPrefix(name, "BatchNorm"), name == "SyncBatchNorm", name == "GroupNorm":
		byDefault = true
	case name == "LayerNorm", name == "RMSNorm":
		flag, byDefault = "elementwise_affine", true
	default:
		return false
	}
	switch kw := m.Keyword(call, flag); f.Kind(f.Unparen(kw)) {
	case KindFalse:
		return true
	case KindTrue:
		return false
	default:
		return kw == NoNode && !byDefault
	}
}

// IsModelValue reports whether a callee that calls a module could hold
// trained weights, rather than a layer without parameters
// (`nn.ReplicationPad2d(...)`), a class picked from a registry
// (`cls = MODELS[name]`, `{"a": NetA}[name]`) or a tensor type
// (`Tensor = torch.cuda.FloatTensor`), which a value's uses or name can
// make look like one.
func (m *Model) IsModelValue(callee NodeID) bool {
	f := m.File
	callee = f.Unparen(callee)
	var v NodeID
	switch f.Kind(callee) {
	case KindIdentifier:
		b := m.Resolve(callee)
		if b == nil || b.Kind != BindAssign || b.Unpacked {
			return true
		}
		v = b.Value
		if ClassName(f.Text(callee)) && m.importedTableEntry(v) {
			// `Detector = detector_factory[opt.task]`, a table of another
			// file: a name written as a class's is a class, constructed.
			return false
		}
	case KindAttribute:
		if !f.TextIs(f.Field(callee, FieldObject), "self") {
			return true
		}
		if m.onnxAttr(callee) {
			return false
		}
		v = m.SelfAttrOnce(callee)
	}
	return m.modelValue(v)
}

// ClassName reports whether a name is written as Python's convention
// writes a class's: CapWords, with a lower-case letter and no underscore
// (`Detector`, `ResNet`; not `G`, `G_AB` or `NET`).
func ClassName(name string) bool {
	if len(name) < 2 || name[0] < 'A' || name[0] > 'Z' || strings.ContainsRune(name, '_') {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool { return r >= 'a' && r <= 'z' }) > 0
}

// subscriptTable returns what subscript v indexes (`TABLE` in
// `TABLE[key]`), or NoNode where v is no subscript.
func subscriptTable(f *File, v NodeID) NodeID {
	v = f.Unparen(v)
	if f.Kind(v) != KindSubscript {
		return NoNode
	}
	return f.Unparen(f.Field(v, FieldValue))
}

// importedTableEntry reports whether v reads an entry of a table that
// another module defines (`detector_factory[opt.task]`, with
// `detector_factory` imported).
func (m *Model) importedTableEntry(v NodeID) bool {
	f := m.File
	table := subscriptTable(f, v)
	if f.Kind(table) == KindIdentifier {
		b := m.Resolve(table)
		return b != nil && b.Kind == BindImport
	}
	return f.Kind(table) == KindAttribute && m.QualifiedName(table) != ""
}

// tableOfFunctions reports whether every value of a literal dict, list
// or tuple is a function of this file, one at least.
func (m *Model) tableOfFunctions(t NodeID) bool {
	f := m.File
	all, some := true, false
	f.Children(t, func(c NodeID) bool {
		if f.Kind(c) == KindPair {
			c = f.Field(c, FieldValue)
		}
		b := m.Resolve(f.Unparen(c))
		all = f.Kind(f.Unparen(c)) == KindIdentifier && b != nil && b.Kind == BindFunction
		some = true
		return all
	})
	return all && some
}

// onnxAttr reports whether `self.name` holds what the class's __init__
// takes as a parameter of that name annotated with an ONNX Runtime model
// (`text_encoder: OnnxRuntimeModel`): calling it runs no torch graph.
func (m *Model) onnxAttr(attr NodeID) bool {
	f := m.File
	class := m.EnclosingClass(attr)
	if class == NoNode {
		return false
	}
	init := m.MethodOf(class, "__init__")
	if init == NoNode {
		return false
	}
	name := f.Text(f.Field(attr, FieldAttribute))
	onnx := false
	f.Children(f.Field(init, FieldParameters), func(p NodeID) bool {
		if t := paramType(f, p); t != NoNode && f.TextIs(f.FirstChild(p), name) {
			text := f.Text(t)
			onnx = strings.Contains(text, "Onnx") || strings.Contains(text, "ORT")
		}
		return !onnx
	})
	return onnx
}

func (m *Model) modelValue(v NodeID) bool {
	f := m.File
	v = f.Unparen(v)
	switch f.Kind(v) {
	case KindConditionalExpression:
		// `torch.cuda.FloatTensor if cuda else torch.Tensor`
		model := true
		f.Children(v, func(c NodeID) bool {
			if f.Field(v, FieldCondition) != c && !m.modelValue(c) {
				model = false
			}
			return model
		})
		return model
	case KindCall:
		return !m.freeLayer(v)
	case KindSubscript:
		// A class picked from a literal table of classes; a function
		// picked from a table of functions (`GENERATORS[key]`).
		table := f.Unparen(f.Field(v, FieldValue))
		if f.Kind(table) == KindIdentifier {
			if t := f.Unparen(m.AssignedValue(table)); f.Kind(t) == KindDictionary || f.Kind(t) == KindList || f.Kind(t) == KindTuple {
				if m.tableOfFunctions(t) {
					return false
				}
				table = t
			}
		}
		classes := false
		f.Walk(table, func(id NodeID) {
			if f.Kind(id) == KindIdentifier && f.Parent(id) != NoNode {
				if b := m.Resolve(id); b != nil && b.Kind == BindClass {
					classes = true
				}
			}
		})
		literal := f.Kind(table) == KindDictionary || f.Kind(table) == KindList || f.Kind(table) == KindTuple
		return !classes || !literal
	case KindIdentifier, KindAttribute:
		q := m.QualifiedName(v)
		return !strings.HasPrefix(q, "torch.") || !strings.HasSuffix(q, "Tensor")
	}
	return true
}

// IsForwardCall reports whether call runs a model's forward pass:
// `model(x)`, `self.encoder(x)`, `model.forward(x)`, `model.module(x)`, or
// `self(x)` inside an nn.Module subclass.
func (m *Model) IsForwardCall(call NodeID) bool {
	f := m.File
	if f.Kind(call) != KindCall {
		return false
	}
	// Most rules ask it of the same calls.
	if m.forwardAt == nil {
		m.forwardAt = make([]int8, len(f.Nodes))
	}
	if a := m.forwardAt[call]; a != 0 {
		return marked(m, a, forwardTainted) == 2
	}
	m.forwardAt[call] = 1 // asked again while it is worked out: no
	n := m.factReads
	yes := m.isForwardCall(call)
	a := int8(1)
	if yes {
		a = 2
	}
	m.forwardAt[call] = mark(m, a, forwardTainted, n)
	return yes
}

func (m *Model) isForwardCall(call NodeID) bool {
	f := m.File
	if m.inForeignArm(call) {
		return false // `if self.framework == "tf": self.model(x)`
	}
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldAttribute), "forward") {
		if obj := f.Field(fn, FieldObject); f.TextIs(obj, "self") {
			// The object's own forward: a module's, or one a subclass
			// defines where the class does not.
			class := m.EnclosingClass(call)
			return class != NoNode && (m.IsModuleClass(class) || m.MethodOf(class, "forward") == NoNode) && !m.selfFree(class)
		}
		obj := f.Unparen(f.Field(fn, FieldObject))
		if m.ClassifyCallee(obj) == CallableModel && !m.parameterFree(obj) {
			return true
		}
		// A class of the project that is no module but holds networks
		// its forward runs and returns what they give (`styler.forward(frame)`,
		// a wrapper deriving from object): the pass is the networks'. One
		// that keeps the graph for a method of its own to back-propagate
		// (a saliency map's) and returns it detached is not.
		if o := m.Helper(call); o == nil || o.Forward == nil {
			return false
		}
		ref, def := m.instanceMethod(fn)
		if def != NoNode {
			return m.returnsGraph(def) || m.ev().returnsGraph[def]
		}
		o := m.lookup(ref, WantReturns)
		return ref != "" && o != nil && o.ReturnsGraph
	}
	if f.Kind(fn) == KindAttribute && strings.HasPrefix(f.Text(f.Field(fn, FieldAttribute)), "forward_") {
		// `self.syncnet.forward_lip(x)`, `backbone.forward_features(x)`:
		// a forward of a module whose class is outside the project, by
		// the convention of the name. A class of the project says what
		// its method does (Helper).
		obj := f.Unparen(f.Field(fn, FieldObject))
		if f.TextIs(obj, "self") || m.ClassifyCallee(obj) != CallableModel || m.parameterFree(obj) || m.NoGraphValue(obj) {
			return false
		}
		if ref, def := m.instanceMethod(fn); def != NoNode || ref != "" && !strings.HasPrefix(ref, "#") && m.lookup(ref, WantKind) != nil {
			return false
		}
		return m.builtOutside(obj, 0) && len(m.Args(call)) > 0 && !m.OnlyLiteralArgs(call)
	}
	if f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldAttribute), "__call__") && f.TextIs(f.Field(fn, FieldObject), "self") &&
		m.Resolve(f.Field(fn, FieldObject)) != nil {
		// `self.__call__(x)`: `self(x)` spelled out.
		class := m.EnclosingClass(call)
		return class != NoNode && m.IsModuleClass(class) && m.MethodOf(class, "__call__") == NoNode && !m.selfFree(class)
	}
	if name, super := m.selfCall(call); f.TextIs(fn, "self") || super && name == "__call__" {
		// `self(x)`, or `super().__call__(x)` in an override of __call__.
		class := m.EnclosingClass(call)
		return class != NoNode && m.IsModuleClass(class) && (!f.TextIs(fn, "self") || m.Resolve(fn) != nil) && !m.selfFree(class)
	}
	if f.Kind(fn) == KindAttribute && m.plainLibraryObject(f.Unparen(f.Field(fn, FieldObject))) {
		return false // `lib = ctypes.CDLL(...)`: `lib.load_model(...)` is C
	}
	if m.HeldLibraryClass(fn) != "" {
		return false // `self.distribution = torch.distributions.Normal`: calling it makes a distribution
	}
	if f.Kind(fn) == KindIdentifier && m.Resolve(fn) == nil && m.QualifiedName(fn) == "" && ClassName(f.Text(fn)) {
		// `Model(inputs=x, outputs=y)` with `Model` bound nowhere (a
		// Keras import the file lacks): a class's name, so a
		// construction, whatever the class.
		return false
	}
	if f.Kind(fn) == KindIdentifier {
		if b := m.Resolve(fn); b != nil && b.Kind == BindFunction && m.scopeOf[b.Stmt] == 0 && len(m.Args(call)) > 0 && m.readsParameters(b.Stmt) {
			// A model written as a function over tensors that require
			// grad; called with nothing, it reads them (`std()`).
			return true
		}
	}
	if m.givenParameters(call) {
		return true
	}
	if m.parameterFree(fn) {
		return false // an augmentation written as a module: nothing to record
	}
	if f.Kind(fn) == KindAttribute && f.FirstChild(f.Field(call, FieldArguments)) == NoNode && m.receiverClass(fn) == NoNode &&
		(!f.TextIs(f.Field(fn, FieldObject), "self") || m.selfAttrValue(fn) == NoNode) {
		// Called with nothing, where the file shows no module instance
		// held under that name (`box.model()`, `attack.getThreatModel()`):
		// a getter or a method, whatever its name; a forward pass takes
		// an input.
		return false
	}
	return m.ClassifyCallee(fn) == CallableModel && m.IsModelValue(fn) && !m.Constructs(call) && !m.methodRunsNoForward(call)
}

// HeldLibraryClass returns the qualified name of the library class that
// attr, an attribute of self, holds rather than an instance of it
// (`self.distribution = torch.distributions.Normal`, set where its class
// is), or "": calling it makes an object, and runs no forward pass.
func (m *Model) HeldLibraryClass(attr NodeID) string {
	f := m.File
	if f.Kind(attr) != KindAttribute || !f.TextIs(f.Field(attr, FieldObject), "self") {
		return ""
	}
	v := f.Unparen(m.selfAttrValue(attr))
	if k := f.Kind(v); k != KindIdentifier && k != KindAttribute {
		return ""
	}
	q := m.QualifiedName(v)
	if !strings.Contains(q, ".") || !ClassName(q[strings.LastIndexByte(q, '.')+1:]) || !isLibraryName(q) {
		return ""
	}
	return q
}

// givenParameters reports whether call runs a function, of the project
// or of a module outside torch, on tensors its scope made require grad
// (`net(X, w, b)` with `w = nn.Parameter(...)`, d2l's `linreg`): a model
// written as a function, its parameters handed in. A call whose result is
// dropped (an update of them, `sgd(w, b, lr)`) is not one.
func (m *Model) givenParameters(call NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if k := f.Kind(fn); k != KindIdentifier && k != KindAttribute || f.Kind(f.Parent(call)) == KindExpressionStatement {
		return false
	}
	if q := m.QualifiedName(fn); q == "" && f.Kind(fn) == KindAttribute || strings.HasPrefix(q, "torch.") || isLibraryName(q) {
		return false
	}
	if b := m.Resolve(fn); f.Kind(fn) == KindIdentifier && (b == nil || b.Kind == BindClass || builtinNames[f.Text(fn)] ||
		b.Kind == BindAssign && !b.Unpacked && f.Kind(f.Unparen(b.Value)) == KindCall) {
		return false // an instance (`loss_f = nn.NLLLoss()`): its class says what calling it does
	}
	if m.IsLossCall(call) {
		return false
	}
	for _, a := range m.Args(call) {
		if a = f.Unparen(a); f.Kind(a) != KindIdentifier {
			continue
		}
		b := m.Resolve(a)
		if b == nil || b.Kind != BindAssign || b.Unpacked || m.EnclosingLoop(b.Stmt) != NoNode {
			continue
		}
		if m.parameterLeaf(b.Value) || m.scopeOf[b.Name] == 0 && m.globalLeaves()[f.Text(a)] {
			return true
		}
	}
	return false
}

// parameterLeaf reports whether v makes a parameter: an nn.Parameter, or
// a tensor a torch factory makes afresh with requires_grad=True
// (`torch.zeros(n, requires_grad=True)`, `torch.randn(k, n).requires_grad_()`).
// An input made to require grad (`Variable(x, requires_grad=True)`, an
// attack's `x.clone().requires_grad_()`) is none.
func (m *Model) parameterLeaf(v NodeID) bool {
	f := m.File
	v = f.Unparen(v)
	if f.Kind(v) != KindCall {
		return false
	}
	switch q := m.CallName(v); {
	case q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter":
		return true
	case freshFactories[q]:
		return m.leafCall(v)
	}
	if m.MethodName(v) == "requires_grad_" && m.leafCall(v) {
		inner := f.Unparen(m.Receiver(v))
		return f.Kind(inner) == KindCall && freshFactories[m.CallName(inner)]
	}
	return false
}

// freshFactories make a tensor of new values, not of data given.
var freshFactories = map[string]bool{
	"torch.zeros": true, "torch.ones": true, "torch.randn": true, "torch.rand": true, "torch.normal": true,
	"torch.empty": true, "torch.full": true, "torch.eye": true, "torch.randint": true,
}

// builtOutside reports whether the object e names was made by a callable
// no file of the project defines: a library's factory or class
// (`timm.create_model(...)`), or a name a star import of a module outside
// the project binds (`S(...)` after `from SyncNetModel import *`), maybe
// moved or switched (`.cuda()`, `.eval()`).
func (m *Model) builtOutside(e NodeID, depth int) bool {
	f := m.File
	if depth > 4 {
		return false
	}
	e = f.Unparen(e)
	var v NodeID
	switch {
	case f.Kind(e) == KindAttribute && f.TextIs(f.Field(e, FieldObject), "self"):
		v = m.selfAttrValue(e)
	case f.Kind(e) == KindIdentifier:
		if b := m.Resolve(e); b != nil && b.Kind == BindAssign && !b.Unpacked {
			v = b.Value
		}
	}
	if v == NoNode {
		return false
	}
	if inner := movedFrom(f, v); inner != NoNode {
		if f.Kind(inner) == KindCall {
			v = inner
		} else {
			return m.builtOutside(inner, depth+1)
		}
	}
	callee := constructed(f, v)
	if callee == NoNode {
		return false
	}
	if q := m.QualifiedName(callee); q != "" {
		return m.lookup(q, WantKind) == nil && !strings.HasPrefix(q, "torch.")
	}
	if f.Kind(callee) == KindIdentifier && m.Resolve(callee) == nil && !builtinNames[f.Text(callee)] && bytes.Contains(f.Src, []byte("import *")) {
		// Bound by a star import of a module outside the project.
		if m.facts != nil {
			m.readFact()
			return m.facts.Star(f.Text(callee)) == ""
		}
		return true
	}
	return false
}

// OnlyLiteralArgs reports whether call is given positional arguments,
// all of them literals (`make_noise(4, 8)`, `trainer.eval_model("prior")`):
// a forward pass takes an input.
func (m *Model) OnlyLiteralArgs(call NodeID) bool {
	f := m.File
	args := m.Args(call)
	for _, a := range args {
		if !ScalarLiteral(f, a) {
			return false
		}
	}
	return len(args) > 0
}

// methodRunsNoForward reports whether call calls a method of a model,
// other than its forward, that the project shows runs no forward pass in
// its caller's grad mode: `net.fuse_model()`, which rewires modules, or
// a `predict` that runs the network under its own no_grad.
func (m *Model) methodRunsNoForward(call NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	ref, def, method := "", NoNode, ""
	if f.Kind(fn) == KindAttribute {
		switch name := f.Text(f.Field(fn, FieldAttribute)); name {
		case "forward", "__call__":
		default:
			method = name
			ref, def = m.instanceMethod(fn)
		}
	}
	if ref == "" {
		// An object made by one class or another (`model = DirVAE(...)`
		// in one branch, `S2S(...)` in the other; `self.attacker =
		// FGSM(...)` or `PGD(...)`): the method of each, or what calling
		// an instance of each runs.
		if method != "" {
			if classes := m.candidateClasses(f.Unparen(f.Field(fn, FieldObject))); len(classes) > 1 {
				return !slices.ContainsFunc(classes, func(class NodeID) bool {
					return !m.methodRunsNoForwardOf(m.classMethod(class, method))
				})
			}
		}
		if classes := m.candidateClasses(fn); len(classes) > 1 {
			return !slices.ContainsFunc(classes, func(class NodeID) bool {
				return !m.methodRunsNoForwardOf(m.callOfClass(class))
			})
		}
		// `model(x)` of an instance whose class the project shows:
		// its __call__, or a module's forward.
		ref, def = m.callOfInstance(fn)
	}
	switch {
	case def != NoNode || ref != "" && !strings.HasPrefix(ref, "#"):
		return m.methodRunsNoForwardOf(ref, def)
	case f.Kind(fn) == KindAttribute && f.Kind(f.Unparen(f.Field(fn, FieldObject))) != KindCall && !f.TextIs(f.Field(fn, FieldObject), "self"):
		// An object whose class is not known (a parameter): a method
		// that every class of the project defining it runs with grad
		// disabled (`@torch.no_grad() def sample(self, n)`), or with
		// its forward passes under its own `no_grad`, runs no forward
		// pass in its caller's mode.
		switch name := f.Text(f.Field(fn, FieldAttribute)); name {
		case "forward", "__call__":
		default:
			o := m.lookup("*."+name, WantGrad)
			return o != nil && o.GradKnown && o.Grad != GradEnabled
		}
	}
	return false
}

// candidateClasses returns the classes a callee bound more than once is
// made by (`model = A()` or `model = B()`, `self.attacker = FGSM(...)` or
// `PGD(...)`), where every binding makes one; nil otherwise.
func (m *Model) candidateClasses(fn NodeID) []NodeID {
	f := m.File
	switch f.Kind(fn) {
	case KindIdentifier:
		return m.boundClasses(fn, 0)
	case KindAttribute:
		if !f.TextIs(f.Field(fn, FieldObject), "self") {
			return nil
		}
		values := m.selfAttrs(m.EnclosingClass(fn)).assignedOnly(f.Text(fn))
		if len(values) < 2 {
			return nil
		}
		classes := make([]NodeID, 0, len(values))
		for _, v := range values {
			c := constructed(f, v)
			if c == NoNode {
				return nil
			}
			classes = append(classes, c)
		}
		return classes
	}
	return nil
}

// methodRunsNoForwardOf reports whether a method, def of this file or
// ref of another, is seen to run no forward pass in its caller's grad
// mode.
func (m *Model) methodRunsNoForwardOf(ref string, def NodeID) bool {
	switch {
	case def != NoNode:
		return m.localHelperOf(def, 0).runsNoForward()
	case ref != "" && !strings.HasPrefix(ref, "#"):
		if m.lookup(ref, WantKind) == nil {
			return false
		}
		// What the project knows of it for its callers: no forward pass
		// in their mode, itself or through what it is given (one that
		// back-propagates its own, guided back-propagation's __call__).
		o := m.lookup(ref, WantHelper)
		return o == nil || o.Forward == nil && len(o.ParamCalls) == 0
	}
	return false
}

// callOfInstance returns the method that calling fn, an instance of a
// known class (`model(x)`, `model.forward(x)`), runs: the class's forward
// for a module class (as far as the project shows), else its __call__.
func (m *Model) callOfInstance(fn NodeID) (ref string, def NodeID) {
	f := m.File
	recv := fn
	if f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldAttribute), "forward") {
		recv = f.Unparen(f.Field(fn, FieldObject))
	}
	return m.callOfClass(m.receiverClass(recv))
}

// callOfClass is callOfInstance for an instance of class.
func (m *Model) callOfClass(class NodeID) (ref string, def NodeID) {
	f := m.File
	if class == NoNode {
		return "", NoNode
	}
	// A module's forward is not judged by the forward passes it shows:
	// layers run from a ModuleList, or parameters used directly, record
	// a graph too (parameterFree judges the module instead).
	if cb := m.Resolve(class); f.Kind(class) == KindIdentifier && cb != nil && cb.Kind == BindClass {
		if m.IsModuleClass(cb.Stmt) {
			if def := m.MethodOf(cb.Stmt, "__call__"); def != NoNode && m.scopeOf[cb.Stmt] == 0 {
				// A module that overrides __call__ (ultralytics' `Model`
				// runs `predict`): what calling it runs.
				return m.localRef(def), def
			}
			if def := m.MethodOf(cb.Stmt, "forward"); def != NoNode && (m.returnsUnderNoGrad(def) || m.returnsNoValue(def)) {
				// `with torch.no_grad(): return ...`: its whole result; or
				// a forward that returns nothing (it keeps statistics):
				// judged by the forward passes it runs.
				return m.localRef(def), def
			}
			return "", NoNode
		}
	} else if q := m.QualifiedName(class); q != "" && !isLibraryName(q) {
		if o := m.lookup(q, WantModule); o != nil && o.Module {
			if m.lookup(q+".__call__", WantKind) != nil {
				return q + ".__call__", NoNode // it, or a base of the project, overrides __call__
			}
			return "", NoNode
		}
	}
	return m.classMethod(class, "__call__")
}

// ultralyticsModels are ultralytics' model front-ends: calling one runs
// its predictor, under inference mode.
var ultralyticsModels = map[string]bool{"YOLO": true, "YOLOWorld": true, "YOLOE": true, "RTDETR": true, "SAM": true, "FastSAM": true, "NAS": true}

// plainClassRef reports whether c, the callee of a construction, names a
// plain class: of this file (plainClass), or of another file of the
// project (ClassSummary.Plain).
func (m *Model) plainClassRef(c NodeID) bool {
	if cb := m.Resolve(c); cb != nil && cb.Kind == BindClass {
		return m.plainClass(cb.Stmt)
	}
	return m.plainElsewhere(m.QualifiedName(c))
}

// plainInstance reports whether c, the callee of a construction, names a
// class whose instances hold no parameter: a plain class (plainClassRef)
// or a custom autograd operation, of this file or of the project (whose
// ClassSummary.Plain counts both).
func (m *Model) plainInstance(c NodeID) bool {
	if cb := m.Resolve(c); cb != nil && cb.Kind == BindClass && m.autogradOperation(cb.Stmt, 0) {
		return true
	}
	return m.plainClassRef(c)
}

// plainCallee reports whether fn, called in a method of class, is known
// to run no model the class holds: a method of the class, a function,
// class or builtin this file binds, a library's function, or a method of
// a value (`x.dot(w)`); not a callable the class keeps or is given
// (`self.net(x)`, `layer(x)` over `self.layers`, `self.layers[i](x)`).
func (m *Model) plainCallee(class, fn NodeID) bool {
	f := m.File
	switch f.Kind(fn) {
	case KindIdentifier:
		if q := m.QualifiedName(fn); q != "" {
			return true
		}
		b := m.Resolve(fn)
		return b != nil && (b.Kind == BindFunction || b.Kind == BindClass || b.Kind == BindImport)
	case KindAttribute:
		obj := f.Unparen(f.Field(fn, FieldObject))
		if f.TextIs(obj, "self") {
			return m.MethodOf(class, f.Text(f.Field(fn, FieldAttribute))) != NoNode
		}
		if m.QualifiedName(fn) != "" {
			return true // `np.exp(x)`
		}
		// A method of a value: of one the class holds (`self.net.head(x)`)
		// it may be a model's.
		for done := false; !done; {
			switch f.Kind(obj) {
			case KindAttribute:
				obj = f.Unparen(f.Field(obj, FieldObject))
			case KindSubscript:
				obj = f.Unparen(f.Field(obj, FieldValue))
			case KindCall:
				obj = f.Unparen(f.Field(obj, FieldFunction))
			default:
				done = true
			}
		}
		return !f.TextIs(obj, "self")
	}
	return false
}

// plainClass reports whether a class of this file computes nothing with
// torch: it has no base but `object` or `abc.ABC`, names nothing of torch, and calls no callable
// it holds other than its own methods (`self.forward_fn(X, self.params)`
// may be anything it is handed). A network written in NumPy is one; a
// model written with bare tensors (d2l's `RNNModelScratch`) is not.
func (m *Model) plainClass(class NodeID) bool {
	f := m.File
	if slices.ContainsFunc(m.ClassBases(class), func(b NodeID) bool { return !PlainBase(m.QualifiedName(b)) }) {
		return false
	}
	plain := true
	f.Walk(f.Field(class, FieldBody), func(id NodeID) {
		if !plain {
			return
		}
		switch f.Kind(id) {
		case KindIdentifier, KindAttribute:
			if q := m.QualifiedName(id); q == "torch" || strings.HasPrefix(q, "torch.") {
				plain = false
			}
		case KindCall:
			plain = m.plainCallee(class, f.Unparen(f.Field(id, FieldFunction)))
		}
	})
	return plain
}

// freeClass reports whether callee names a parameter-free module class
// of this file other than class.
func (m *Model) freeClass(callee, class NodeID) bool {
	b := m.Resolve(callee)
	return b != nil && b.Kind == BindClass && b.Stmt != class && m.parameterFreeClass(b.Stmt)
}

// projectClassRef returns the ref of name, a name an import binds to
// something of the project that may be a class (not a library's), or "".
func (m *Model) projectClassRef(name NodeID) string {
	b := m.Resolve(name)
	if b == nil || b.Kind != BindImport {
		return ""
	}
	if q := m.QualifiedName(name); q == "" || isLibraryName(q) {
		return ""
	}
	return m.valueRef(name)
}

// freeSubmodule reports whether `self.x` (callee) of class is assigned
// once, to an instance of a parameter-free module class of this file.
func (m *Model) freeSubmodule(class, callee NodeID) bool {
	refs, ok := m.submoduleHolds(class, callee)
	return ok && refs == nil
}

// submoduleHolds is freeSubmodule where a value may also be an instance
// of a class of another file (`self.func = PoolFunction(scale)`): ok when
// each value holds no parameter or is such an instance, with the refs of
// those classes, for the project to judge.
func (m *Model) submoduleHolds(class, callee NodeID) (refs []string, ok bool) {
	f := m.File
	if !f.TextIs(f.Field(callee, FieldObject), "self") {
		return nil, false
	}
	attrs := m.selfAttrs(class)
	if attrs.count[f.Text(callee)] == 0 {
		if m.selfAttrs(class).buffers[f.Text(f.Field(callee, FieldAttribute))] {
			return nil, true // a tensor: `self.register_buffer("grid", g)`
		}
		// Set by a base: free where the base is a transform of
		// torchaudio's or torchvision's (`self.mel_scale` of a
		// MelSpectrogram's subclass).
		return nil, slices.ContainsFunc(m.ClassBases(class), func(b NodeID) bool { return transformModule(m.QualifiedName(b)) })
	}
	values := attrs.assignedOnly(f.Text(callee))
	if values == nil {
		return nil, false // augmented too
	}
	// Each value it may hold is free: a lambda's body is judged by
	// the walk of the class (`self._norm = lambda x: self.z(x)` in one
	// branch, a transform in another).
	for _, v := range values {
		v = f.Unparen(v)
		if f.Kind(v) == KindLambda || m.freeValue(class, v) {
			continue
		}
		ref := ""
		if c := f.Unparen(f.Field(v, FieldFunction)); f.Kind(v) == KindCall && f.Kind(c) == KindIdentifier {
			ref = m.projectClassRef(c)
		}
		if ref == "" {
			return nil, false
		}
		refs = append(refs, ref)
	}
	return refs, true
}

// boundMethodAlias reports whether name, a name a method of class binds
// once, is assigned a method of self (`fn = self.shifted`): one class
// defines, or, where inherits, one the class does not assign (its
// base's).
func (m *Model) boundMethodAlias(class, name NodeID, inherits bool) bool {
	f := m.File
	b := m.Resolve(name)
	if b == nil || b.Kind != BindAssign || b.Unpacked || !m.definiteBinding(b, name) {
		return false
	}
	v := f.Unparen(b.Value)
	if f.Kind(v) != KindAttribute || !f.TextIs(f.Field(v, FieldObject), "self") {
		return false
	}
	if def := m.MethodOf(class, f.Text(f.Field(v, FieldAttribute))); def != NoNode {
		return !m.isProperty(def) // a property's value may be a module it holds
	}
	return inherits && m.selfAttrs(class).count[f.Text(v)] == 0
}

// isProperty reports whether def is decorated as a property.
func (m *Model) isProperty(def NodeID) bool {
	for _, d := range m.Decorators(def) {
		if t := m.File.Text(d); t == "property" || strings.HasSuffix(t, ".getter") || t == "functools.cached_property" || t == "cached_property" {
			return true
		}
	}
	return false
}

// tensorOps are torch functions that compute a tensor from others: what
// they return is no module and no parameter.
var tensorOps = map[string]bool{
	"cat": true, "concat": true, "concatenate": true, "stack": true, "hstack": true, "vstack": true, "where": true,
	"exp": true, "log": true, "sqrt": true, "matmul": true, "mm": true, "bmm": true, "einsum": true, "clamp": true,
	"flatten": true, "reshape": true, "gather": true, "index_select": true, "masked_select": true, "outer": true,
}

// tensorFunction reports whether q names a function of a library that
// computes on tensors and builds no module: torchvision's operators
// (`torchvision.ops.batched_nms`), whose classes (`FeaturePyramidNetwork`)
// are left out.
func tensorFunction(q string) bool {
	name, ok := strings.CutPrefix(q, "torchvision.ops.")
	if !ok {
		return false
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name != "" && name[0] >= 'a' && name[0] <= 'z'
}

// moduleContainers are torch.nn's containers of modules.
var moduleContainers = map[string]bool{"torch.nn.ModuleList": true, "torch.nn.ModuleDict": true, "torch.nn.Sequential": true}

// containerAdds are the methods that add a module to a container.
var containerAdds = map[string]bool{"append": true, "extend": true, "insert": true, "add_module": true, "update": true}

// madeHere reports whether every value that args (an argument list, or
// an expression) holds is a call made in place, through lists, tuples,
// dictionaries, comprehensions and splats of them: what a container is
// given is built where a walk of the code sees it, not handed in. Strings
// and numbers (a name, a position) are no module.
func (m *Model) madeHere(args NodeID) bool {
	ok := true
	m.eachValue(args, func(v NodeID) {
		ok = ok && (m.constructs(v) || ScalarLiteral(m.File, v))
	})
	return ok
}

// constructs reports whether v is a call that makes a new object: of a
// class or function by its name (`Grid(s)`, `nn.Linear(4, 4)`), moved
// maybe (`.to(dev)`), not a copy or a move of one that exists
// (`copy.deepcopy(layer)`, `layer.to(dev)`).
func (m *Model) constructs(v NodeID) bool {
	f := m.File
	for f.Kind(v) == KindCall && SelfReturning[m.MethodName(v)] && m.CallName(v) == "" {
		v = f.Unparen(m.Receiver(v)) // `torch.hann_window(n).to(dev)`, `Grid(s).cuda()`
	}
	if f.Kind(v) != KindCall {
		return false
	}
	callee := f.Unparen(f.Field(v, FieldFunction))
	switch q := m.QualifiedName(callee); {
	case q == "copy.deepcopy" || q == "copy.copy":
		return false
	case f.Kind(callee) == KindIdentifier:
		return true
	default:
		return q != "" // a module's function or class, not a method of a value
	}
}

// eachMade calls fn with each call that args holds (see madeHere).
func (m *Model) eachMade(args NodeID, fn func(NodeID)) {
	m.eachValue(args, func(v NodeID) {
		if m.constructs(v) {
			fn(v)
		}
	})
}

// eachValue calls fn with each value args holds (see madeHere).
func (m *Model) eachValue(e NodeID, fn func(NodeID)) {
	f := m.File
	e = f.Unparen(e)
	switch f.Kind(e) {
	case KindArgumentList, KindList, KindTuple, KindExpressionList, KindDictionary:
		f.Children(e, func(c NodeID) bool {
			if f.N(c).Kind != KindToken && f.Kind(c) != KindComment {
				m.eachValue(c, fn)
			}
			return true
		})
	case KindKeywordArgument:
		m.eachValue(f.Field(e, FieldValue), fn)
	case KindPair:
		m.eachValue(f.Field(e, FieldValue), fn)
	case KindListSplat, KindDictionarySplat:
		m.eachValue(f.FirstChild(e), fn)
	case KindListComprehension, KindGeneratorExpression:
		m.eachValue(f.Field(e, FieldBody), fn)
	case KindDictionaryComprehension:
		m.eachValue(f.Field(f.Field(e, FieldBody), FieldValue), fn)
	default:
		fn(e)
	}
}

// heldElement reports whether name, a loop variable, iterates over a
// container of modules class holds that holds no parameter (`for layer
// in self.layers`, `for x, layer in zip(xs, self.layers)`, `for i, layer
// in enumerate(self.layers)`, in a loop or a comprehension).
func (m *Model) heldElement(class, name NodeID) bool {
	f := m.File
	b := m.Resolve(name)
	if b == nil || b.Kind != BindLoopTarget {
		return false
	}
	it := f.Unparen(b.Value)
	if f.Kind(it) == KindCall {
		var args []NodeID
		switch m.CallName(it) {
		case "zip":
			args = m.Args(it)
		case "enumerate":
			if a := m.Args(it); len(a) > 0 {
				args = []NodeID{NoNode, a[0]}
			}
		default:
			return false
		}
		if b.Index < 0 || b.Index >= len(args) || args[b.Index] == NoNode {
			return false
		}
		it = f.Unparen(args[b.Index])
	} else if b.Unpacked && b.Index != -1 {
		return false
	}
	return f.Kind(it) == KindAttribute && f.TextIs(f.Field(it, FieldObject), "self") && m.freeSubmodule(class, it)
}

// freeValue reports whether v, a value a module class assigns to one of
// its attributes, holds no parameter: a parameter-free layer, a plain
// tensor, a distribution, an instance of a parameter-free class of this
// file.
func (m *Model) freeValue(class, v NodeID) bool {
	f := m.File
	if f.Kind(v) == KindAttribute && f.TextIs(f.Field(v, FieldObject), "self") {
		// `self.decode = self.batched_decode`: a method of its own, whose
		// body the walk of the class judges (a property's value is not).
		def := m.MethodOf(class, f.Text(f.Field(v, FieldAttribute)))
		return def != NoNode && !m.isProperty(def)
	}
	if f.Kind(v) != KindCall {
		return false
	}
	if strings.HasPrefix(m.CallName(v), "torch.distributions.") {
		return true // `self._dist = Uniform(a, b)`: tensors, no module
	}
	if m.freeModule(v) || m.freeLayerTableEntry(f.Field(v, FieldFunction)) {
		// `self.pool = nn.MaxPool2d(2)`, `Pool(2)` with `Pool = {2:
		// nn.MaxPool2d}[dims]`, `self.bce = nn.BCEWithLogitsLoss(pos_weight=w)`
		return true
	}
	if moduleContainers[m.CallName(v)] && m.madeHere(f.Field(v, FieldArguments)) {
		// `nn.ModuleList([Grid(s) for s in sizes])`: each module it is
		// made with holds none, and so does each one added to it later
		// (classHoldsNoParameters judges the additions).
		free := true
		m.eachMade(f.Field(v, FieldArguments), func(c NodeID) {
			free = free && m.freeValue(class, c)
		})
		return free
	}
	if m.plainTensor(v) {
		return true // `self.ones = torch.eye(n).cuda()`: its methods are a tensor's
	}
	if tensorOps[strings.TrimPrefix(m.CallName(constructorCall(f, v)), "torch.")] && m.Keyword(v, "requires_grad") == NoNode {
		return true // `self.anchors = torch.cat([grid, wh], -1)`: a tensor computed from others
	}
	c := constructed(f, v)
	if c == f.Unparen(f.Field(v, FieldFunction)) && m.plainInstance(c) {
		return true // `self.func = PoolFunction(scale)`: an operation's or a plain class's instance
	}
	cb := m.Resolve(c)
	if cb != nil && cb.Kind == BindImport && c == f.Unparen(f.Field(v, FieldFunction)) {
		// `self.grid = AnchorGrid(...)`, a class of another file.
		q := m.QualifiedName(c)
		return m.paramFreeElsewhere(q) && m.NoGraphValue(v)
	}
	if f.Kind(c) != KindIdentifier || cb == nil || cb.Kind != BindClass || cb.Stmt == class {
		return false
	}
	return m.parameterFreeClass(cb.Stmt)
}

// paramFreeElsewhere reports whether q, a qualified name, names a module
// class of another file of the project that builds no parameter
// (ClassSummary.ParamFree).
func (m *Model) paramFreeElsewhere(q string) bool {
	if q == "" || isLibraryName(q) {
		return false
	}
	o := m.lookup(q, WantLayers)
	return o != nil && o.Kind == ObjectClass && o.ParamFree
}

// plainTensor reports whether v makes a tensor that requires no grad: a
// torch function that creates one (`torch.eye(n)`, `torch.arange(k)`),
// moved or cast, with no `requires_grad`.
func (m *Model) plainTensor(v NodeID) bool {
	f := m.File
	for i := 0; i < 4; i++ {
		inner := movedFrom(f, v)
		if inner == NoNode {
			break
		}
		if m.MethodName(v) == "requires_grad_" {
			return false
		}
		v = inner
	}
	if f.Kind(v) != KindCall || m.Keyword(v, "requires_grad") != NoNode {
		return false
	}
	switch strings.TrimPrefix(m.CallName(v), "torch.sparse.") {
	case "torch.eye", "torch.arange", "torch.zeros", "torch.ones", "torch.full", "torch.linspace", "torch.tensor",
		"torch.Tensor", "torch.FloatTensor", "torch.LongTensor", "torch.from_numpy", "torch.as_tensor", "torch.empty",
		"torch.randn", "torch.rand", "torch.randperm", "torch.tril", "torch.triu":
		return true
	}
	return false
}

// returnsNoValue reports whether def returns nothing: no return
// statement has a value, and it yields none.
func (m *Model) returnsNoValue(def NodeID) bool {
	f := m.File
	for _, v := range m.ReturnValues(def) {
		if v != NoNode && f.Kind(f.Unparen(v)) != KindNone {
			return false
		}
	}
	yields := false
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if f.Kind(id) == KindYield && m.EnclosingFunction(id) == def {
			yields = true
		}
	})
	return !yields
}

// returnsUnderNoGrad reports whether every return of def, one at least,
// is made with grad disabled, or is what a method of its class returns
// that way (`return self.sample(mels)`, sample computing under no_grad).
func (m *Model) returnsUnderNoGrad(def NodeID) bool {
	return m.returnsUnderNoGradDepth(def, 0)
}

func (m *Model) returnsUnderNoGradDepth(def NodeID, depth int) bool {
	vals := m.ReturnValues(def)
	for _, v := range vals {
		if v == NoNode || m.GradModeAt(v) != GradDisabled && !m.boundUnderNoGrad(v) && !m.ownMethodUnderNoGrad(def, v, depth) {
			return false
		}
	}
	return len(vals) > 0
}

// ownMethodUnderNoGrad reports whether v, a value def returns, is a call
// of a method of def's class (`self.sample(mels)`) every return of which
// is made with grad disabled.
func (m *Model) ownMethodUnderNoGrad(def, v NodeID, depth int) bool {
	f := m.File
	v = f.Unparen(v)
	if depth > 4 || f.Kind(v) != KindCall {
		return false
	}
	fn := f.Unparen(f.Field(v, FieldFunction))
	if f.Kind(fn) != KindAttribute || !f.TextIs(f.Field(fn, FieldObject), "self") {
		return false
	}
	class := m.EnclosingClass(def)
	if class == NoNode {
		return false
	}
	method := m.MethodOf(class, f.Text(f.Field(fn, FieldAttribute)))
	return method != NoNode && method != def && m.returnsUnderNoGradDepth(method, depth+1)
}

// boundUnderNoGrad reports whether v is a name that every binding
// reaching it assigns under no_grad (`with torch.no_grad(): y =
// self.fc(x)`, then `return y`): what it holds was computed without a
// graph.
func (m *Model) boundUnderNoGrad(v NodeID) bool {
	f := m.File
	v = f.Unparen(v)
	if f.Kind(v) != KindIdentifier {
		return false
	}
	bs := m.ReachingBindings(v)
	for _, b := range bs {
		if b.Kind != BindAssign || b.Value == NoNode || m.GradModeAt(b.Value) != GradDisabled {
			return false
		}
	}
	return len(bs) > 0
}

// parameterFree reports whether fn is an instance of a module class of
// this file that defines forward and holds no parameters and no
// submodules: every call in its
// body is a torch function or method on a value (not on `self.x`), a
// builtin, or `super().__init__()`.
func (m *Model) parameterFree(fn NodeID) bool {
	f := m.File
	c := m.receiverClass(fn)
	if f.Kind(c) != KindIdentifier {
		return false
	}
	cb := m.Resolve(c)
	return cb != nil && cb.Kind == BindClass && m.parameterFreeClass(cb.Stmt)
}

// transformModule reports whether q names a signal or image transform of
// torchaudio's or torchvision's: a module with buffers (windows, filter
// banks) and no parameters.
func transformModule(q string) bool {
	return strings.HasPrefix(q, "torchaudio.transforms.") || strings.HasPrefix(q, "torchvision.transforms.")
}

// parameterFreeClass is parameterFree for a class of this file.
func (m *Model) parameterFreeClass(class NodeID) bool {
	return m.MemoRecursive(paramFreeClassKey{class}, false, func() any { return m.parameterFreeClassOnce(class) }).(bool)
}

type paramFreeClassKey struct{ class NodeID }

func (m *Model) parameterFreeClassOnce(class NodeID) bool {
	if !m.IsModuleClass(class) {
		return false
	}
	if m.abstractForward(class) {
		return false // a base whose subclasses define the layers and the pass
	}
	if m.MethodOf(class, "forward") == NoNode && !slices.ContainsFunc(m.ClassBases(class), func(b NodeID) bool {
		// Its forward, where it has one, is the base's.
		if r := m.Resolve(b); m.File.Kind(b) == KindIdentifier && r != nil && r.Kind == BindClass {
			return r.Stmt != class && m.parameterFreeClass(r.Stmt)
		}
		return m.paramFreeElsewhere(m.QualifiedName(b))
	}) {
		return false // a stub (`class Gen(nn.Module): pass`) stands for a model
	}
	// A class that holds itself is not known free.
	return m.classHoldsNoParameters(class)
}

// classHoldsNoParameters reports whether a module class of this file,
// and its bases, build no layer and no parameter: its bases are
// torch.nn.Module, abc.ABC or such classes of the file (an abstract
// `Embedding(nn.Module, ABC)` whose subclass computes sines) or, as the
// project shows them, of other files.
func (m *Model) classHoldsNoParameters(class NodeID) bool {
	own := m.ownParamFree(class)
	return own.free && !slices.ContainsFunc(own.pending, func(q string) bool { return !m.paramFreeElsewhere(q) }) &&
		!slices.ContainsFunc(own.holds, func(q string) bool { return !m.paramFreeElsewhere(q) && !m.plainElsewhere(q) })
}

// plainElsewhere reports whether q, a qualified name, names a class of
// another file of the project that is plain or a custom autograd
// operation (ClassSummary.Plain).
func (m *Model) plainElsewhere(q string) bool {
	if q == "" || isLibraryName(q) {
		return false
	}
	o := m.lookup(q, WantModule)
	return o != nil && o.Kind == ObjectClass && o.Plain
}

// paramFreeness is what ownParamFree finds of a class.
type paramFreeness struct {
	free bool
	// pending: the bases of other files it counted as building no
	// parameter, its own and its bases' in this file.
	pending []string
	// bases: how many of its own bases it counted on, of this file or of
	// another (ClassSummary.ParamFreeBases).
	bases int
	// holds: the classes of other files whose instances it counted as
	// holding no parameter, its own and its bases' in this file
	// (ClassSummary.ParamFreeHolds).
	holds []string
}

// ownParamFree reports whether class, a module class of this file, and
// its bases in this file build no layer and no parameter, where its
// bases of other files (pending) build none either.
func (m *Model) ownParamFree(class NodeID) paramFreeness {
	f := m.File
	return m.MemoRecursive(parameterFreeKey{class}, paramFreeness{}, func() any {
		var out paramFreeness
		// inherits: a base of the project, whose methods (`self.wrap(x)`)
		// build no parameter either.
		inherits := false
		for _, b := range m.ClassBases(class) {
			switch q := m.QualifiedName(b); {
			case q == "torch.nn.Module" || q == "abc.ABC" || transformModule(q):
			case q == "" && f.Kind(b) == KindIdentifier:
				r := m.Resolve(b)
				if r == nil || r.Kind != BindClass {
					return paramFreeness{}
				}
				sub := m.ownParamFree(r.Stmt)
				if !sub.free {
					return paramFreeness{}
				}
				out.pending = append(out.pending, sub.pending...)
				out.holds = append(out.holds, sub.holds...)
				inherits, out.bases = true, out.bases+1
			case q != "" && !isLibraryName(q) && m.importedName(b):
				// A class of another file, of the project where it says so.
				out.pending = append(out.pending, q)
				inherits, out.bases = true, out.bases+1
			default:
				return paramFreeness{} // a layer's subclass, or a class that may hold some
			}
		}
		free := true
		f.Walk(f.Field(class, FieldBody), func(id NodeID) {
			if free && f.Kind(id) == KindAssignment {
				// `self.layers[i] = layer`: a slot of a container given a
				// module made elsewhere.
				if left := f.Unparen(f.Field(id, FieldLeft)); f.Kind(left) == KindSubscript &&
					strings.HasPrefix(f.Text(left), "self.") && !m.madeHere(f.Field(id, FieldRight)) {
					free = false
				}
			}
			if !free || f.Kind(id) != KindCall {
				return
			}
			callee := f.Unparen(f.Field(id, FieldFunction))
			switch q := m.QualifiedName(callee); {
			case moduleContainers[q] && m.madeHere(f.Field(id, FieldArguments)):
				// `nn.ModuleList([Grid(s) for s in sizes])`: what it holds
				// is judged by this walk.
			case q == "torch.nn.Parameter" || strings.HasPrefix(q, "torch.nn.") && !strings.HasPrefix(q, "torch.nn.functional.") &&
				!strings.HasPrefix(q, "torch.nn.init.") && q != "torch.nn.Buffer" && !m.freeModule(id):
				free = false // a layer or a parameter
			case strings.HasPrefix(q, "torch.") || builtinPlain[q] || hostLibrary(q) || transformModule(q) || tensorFunction(q):
			case f.Kind(callee) == KindAttribute:
				obj := f.Unparen(f.Field(callee, FieldObject))
				sub := callee // `self.x` of `self.x.y.f()`: the submodule that is called or read
				for f.Kind(obj) == KindAttribute || f.Kind(obj) == KindSubscript {
					if f.Kind(obj) == KindAttribute {
						sub = obj
					}
					obj = f.Unparen(f.FirstChild(obj))
				}
				switch f.Kind(obj) {
				case KindIdentifier:
					method := f.Text(f.Field(callee, FieldAttribute))
					own := f.TextIs(obj, "self") && (m.MethodOf(class, method) != NoNode || moduleUses[method] || moduleMoves[method] ||
						inherits && sub == callee && m.selfAttrs(class).count[f.Text(callee)] == 0)
					// `self.grid.view(...)`: a tensor's method, on what is a
					// tensor (a module's `.to()` or `.type()` builds nothing)
					// that no assignment makes require grad.
					tensorCall := sub != callee && (tensorMethod(method) || detachingMethods[method] || method == "type") &&
						f.TextIs(obj, "self") && m.attrNoGradTensor(class, sub)
					if f.TextIs(obj, "self") && !own && !tensorCall {
						// `self.func(x)`, with `self.func = PoolFunction(s)` of
						// another file: free where the project shows that class
						// holds no parameter.
						if refs, ok := m.submoduleHolds(class, sub); ok {
							out.holds = append(out.holds, refs...)
						} else {
							free = false // `self.layer(x)`
						}
					}
					if m.Resolve(obj) == nil {
						free = false // a name this file does not bind
					}
					if containerAdds[method] && f.TextIs(obj, "self") && !m.madeHere(f.Field(id, FieldArguments)) {
						free = false // `self.layers.append(layer)`: a module made elsewhere
					}
				case KindCall:
					// A method of what a call returns (`super().__init__()`,
					// `torch.cat(xs).view(...)`, `self.iou(a, b).max(-1)`):
					// the inner call is judged on its own by this walk.
				}
			case f.Kind(callee) == KindIdentifier && m.buildsNoLayer(callee):
			case f.Kind(callee) == KindIdentifier && m.freeClass(callee, class):
			case f.Kind(callee) == KindIdentifier && m.plainInstance(callee):
				// `PoolFunction(scale)`: an old-style autograd operation's
				// instance, or a plain class's, holds no parameter.
			case f.Kind(callee) == KindIdentifier && m.projectClassRef(callee) != "":
				// A class of another file: free where the project shows it
				// is plain or builds no parameter.
				out.holds = append(out.holds, m.projectClassRef(callee))
			case m.builtinException(callee), m.freeLayerTableEntry(callee):
			case f.Kind(callee) == KindIdentifier && m.heldElement(class, callee):
				// `for layer in self.layers: x = layer(x)`
			case f.Kind(callee) == KindIdentifier && m.boundMethodAlias(class, callee, inherits):
				// `fn = self.shifted_gaussian`, then `fn(x)`.
			case f.Kind(callee) == KindIdentifier && m.torchAlias(callee):
				// `FloatTensor = torch.cuda.FloatTensor if x.is_cuda else
				// torch.FloatTensor`, then `FloatTensor(shape)`.
			case f.Kind(callee) == KindIdentifier && m.autogradApply(callee):
				// `pool = _Pooling.apply`, then `pool(x, rois)`: an operation
				// on the tensors it is given.
			case f.Kind(callee) == KindCall:
				// `JaggedMax()(values, offsets)`: what a call returns, called;
				// the inner call is judged on its own by this walk.
			case f.TextIs(callee, "self") && m.Resolve(callee) != nil && m.Resolve(callee).Kind == BindParam &&
				(inherits || m.MethodOf(class, "__init__") != NoNode):
				// `self(x)`: a pass of this module, which adds no parameter,
				// where a constructor shows what the module holds (a class
				// with a forward alone that calls itself stands for a model).
			default:
				free = false // a function or class of the project: may build layers
			}
		})
		out.free = free
		return out
	}).(paramFreeness)
}

// attrNoGradTensor reports whether every value class assigns to the
// attribute attr (`self.grid`) is made without asking for grad: no
// `requires_grad=` argument and no `.requires_grad_()` in it. Nil values
// (an augmented assignment) say nothing.
func (m *Model) attrNoGradTensor(class, attr NodeID) bool {
	f := m.File
	values := m.selfAttrs(class).assignedOnly(f.Text(attr))
	if values == nil {
		return false
	}
	for _, v := range values {
		asks := false
		f.Walk(v, func(id NodeID) {
			asks = asks || f.Kind(id) == KindCall && (m.MethodName(id) == "requires_grad_" || m.Keyword(id, "requires_grad") != NoNode)
		})
		if asks {
			return false
		}
	}
	return true
}

// torchAlias reports whether name is bound, by every binding of it that
// reaches it, to a function or class of torch's other than its layers
// (`torch.cuda.FloatTensor`), or to a choice between two of them.
func (m *Model) torchAlias(name NodeID) bool {
	f := m.File
	bs := m.ReachingBindings(name)
	if len(bs) == 0 {
		return false
	}
	plain := func(v NodeID) bool {
		q := m.QualifiedName(f.Unparen(v))
		return strings.HasPrefix(q, "torch.") && !strings.HasPrefix(q, "torch.nn.")
	}
	for _, b := range bs {
		if b.Kind != BindAssign || b.Unpacked || b.Value == NoNode {
			return false
		}
		v := f.Unparen(b.Value)
		if f.Kind(v) == KindConditionalExpression {
			kids := f.ChildList(v)
			if len(kids) != 3 || !plain(kids[0]) || !plain(kids[2]) {
				return false
			}
			continue
		}
		if !plain(v) {
			return false
		}
	}
	return true
}

// importedName reports whether e, a name or an attribute, starts with a
// name an import binds (`BaseKernel`, `kernels.BaseKernel`), or a name
// this file does not bind that a star import brings.
func (m *Model) importedName(e NodeID) bool {
	f := m.File
	e = f.Unparen(e)
	for f.Kind(e) == KindAttribute {
		e = f.Unparen(f.Field(e, FieldObject))
	}
	if f.Kind(e) != KindIdentifier {
		return false
	}
	if b := m.Resolve(e); b != nil {
		return b.Kind == BindImport
	}
	if m.facts == nil || m.facts.Star(f.Text(e)) == "" {
		return false
	}
	m.readFact()
	return true
}

type parameterFreeKey struct{ class NodeID }

// hostLibraries are libraries that compute on the host and build no
// module of torch's: what a class calls of them (`librosa.filters.mel`
// for a mel filter bank it registers as a buffer) adds no parameter.
var hostLibraries = map[string]bool{
	"numpy": true, "scipy": true, "librosa": true, "math": true, "sklearn": true, "pandas": true, "cv2": true,
	"PIL": true, "soundfile": true, "os": true, "sys": true, "json": true, "pickle": true, "random": true,
	"re": true, "time": true, "logging": true, "warnings": true, "collections": true, "itertools": true,
	"functools": true, "copy": true, "pathlib": true, "typing": true, "yaml": true, "h5py": true, "skimage": true,
	"imageio": true,
}

// hostLibrary reports whether q, a qualified name, is of one of the
// hostLibraries.
func hostLibrary(q string) bool {
	root, _, _ := strings.Cut(q, ".")
	return q != "" && hostLibraries[root]
}

// buildsNoLayer reports whether callee is a function of this file that
// builds no layer with parameters (`adjust_brightness(img, f)`, a masked
// softmax that makes an `nn.Softmax()`), nor calls a function of the
// file that does.
func (m *Model) buildsNoLayer(callee NodeID) bool {
	b := m.Resolve(callee)
	return b != nil && b.Kind == BindFunction && m.defBuildsNoLayer(b.Stmt)
}

type noLayerKey struct{ def NodeID }

// defBuildsNoLayer is buildsNoLayer for a function definition. A call of
// itself builds nothing more; functions that call each other are not
// known to build nothing.
func (m *Model) defBuildsNoLayer(def NodeID) bool {
	return m.MemoRecursive(noLayerKey{def}, false, func() any {
		f := m.File
		none := true
		f.Walk(def, func(id NodeID) {
			if !none || f.Kind(id) != KindCall {
				return
			}
			q := m.QualifiedName(f.Unparen(f.Field(id, FieldFunction)))
			if strings.HasPrefix(q, "torch.nn.") && !strings.HasPrefix(q, "torch.nn.functional.") && !m.freeModule(id) {
				none = false // a layer, or a parameter
			} else if local := m.LocalCallee(id); local != NoNode && local != def {
				none = f.Kind(local) == KindFunctionDefinition && m.defBuildsNoLayer(local)
			}
		})
		return none
	}).(bool)
}

// autogradApply reports whether callee is a name bound, once, at module
// level, to the `apply` of a class of this file that derives from
// torch.autograd.Function (`dcn_pooling = _DCNPooling.apply`).
func (m *Model) autogradApply(callee NodeID) bool {
	f := m.File
	b := m.Resolve(callee)
	if b == nil || b.Kind != BindAssign || b.Unpacked || m.scopeOf[b.Stmt] != 0 || len(m.AssignmentsIn(Root)[f.Text(callee)]) != 1 {
		return false
	}
	v := f.Unparen(b.Value)
	if f.Kind(v) != KindAttribute || !f.TextIs(f.Field(v, FieldAttribute), "apply") {
		return false
	}
	c := m.Resolve(f.Unparen(f.Field(v, FieldObject)))
	return c != nil && c.Kind == BindClass && m.autogradOperation(c.Stmt, 0)
}

// builtinPlain are builtins that build no module.
var builtinPlain = map[string]bool{"super": true, "range": true, "len": true, "float": true, "int": true, "bool": true,
	"isinstance": true, "min": true, "max": true, "abs": true, "tuple": true, "list": true, "dict": true, "zip": true,
	"enumerate": true, "round": true, "print": true, "str": true, "getattr": true, "hasattr": true, "setattr": true,
	"set": true, "sum": true, "any": true, "all": true, "sorted": true, "reversed": true, "iter": true, "next": true,
	"repr": true, "format": true, "hash": true, "id": true, "open": true, "map": true, "filter": true}

// builtinException reports whether callee is a name this file does not
// bind that Python defines as an exception or a warning (`ValueError`,
// `NotImplementedError`, `UserWarning`): raising one builds no module.
func (m *Model) builtinException(callee NodeID) bool {
	f := m.File
	if f.Kind(callee) != KindIdentifier || m.Resolve(callee) != nil || m.QualifiedName(callee) != "" {
		return false
	}
	name := f.Text(callee)
	return name == "Exception" || strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Warning") || name == "StopIteration"
}

// autogradOperation reports whether class is a custom autograd
// operation: a subclass of torch.autograd.Function, directly or through
// classes of this file.
func (m *Model) autogradOperation(class NodeID, depth int) bool {
	if depth > 8 {
		return false
	}
	return slices.ContainsFunc(m.ClassBases(class), func(base NodeID) bool {
		if autogradFunctions[m.QualifiedName(base)] {
			return true
		}
		b := m.Resolve(base)
		return m.File.Kind(base) == KindIdentifier && b != nil && b.Kind == BindClass && m.autogradOperation(b.Stmt, depth+1)
	})
}

// autogradFunctions are the bases of custom autograd operations.
var autogradFunctions = map[string]bool{
	"torch.autograd.Function": true, "torch.autograd.function.Function": true,
	"torch.autograd.function.InplaceFunction": true, "torch.autograd.function.NestedIOFunction": true,
}

// moduleUses are methods whose call on a value shows it is a module,
// not a tensor.
var moduleUses = map[string]bool{
	"eval": true, "train": true, "parameters": true, "named_parameters": true, "load_state_dict": true,
	"state_dict": true, "apply": true, "modules": true, "named_modules": true, "children": true,
}

// moduleMoves are methods of nn.Module that move or cast it, or add a
// buffer, and add no parameter.
var moduleMoves = map[string]bool{"to": true, "cuda": true, "cpu": true, "half": true, "float": true, "double": true,
	"register_buffer": true, "requires_grad_": true, "zero_grad": true}

// constructorVerbs start the names of functions that build and return a
// model (`get_model`, `build_net`).
var constructorVerbs = map[string]bool{
	"get": true, "build": true, "create": true, "make": true, "init": true, "setup": true,
	"construct": true, "instantiate": true, "new": true,
}

// Constructs reports whether a call of a value taken for a module builds
// a module instead: its result is used as a module (`D = Discriminator(d);
// D.eval()`, `G(z)`, `Model(cfg).eval()`), or returned by a function that
// builds one (`def get_model(...): return model(n_classes)`), also after
// the moves that return the module itself (`net = Model(envs).to(device);
// net.load_state_dict(...)`). The value called is a class held in a
// variable or a parameter.
func (m *Model) Constructs(call NodeID) bool {
	f := m.File
	for {
		attr := f.Parent(call)
		if f.Kind(attr) != KindAttribute || f.Field(attr, FieldObject) != call {
			break
		}
		c := f.Parent(attr)
		if f.Kind(c) != KindCall || f.Field(c, FieldFunction) != attr {
			break
		}
		name := f.Text(f.Field(attr, FieldAttribute))
		if moduleUses[name] {
			return true // a module's own method, called on the result
		}
		if !moduleSelfMethods[name] {
			break
		}
		call = c // a tensor's moves return a tensor, a module's the module
	}
	p := f.Parent(call)
	switch f.Kind(p) {
	case KindReturnStatement:
		// `def get_emb(self, x): return self.encoder(x)`: a getter of a
		// value, not of a model, where what it calls is a module its
		// class made, an instance rather than a class.
		return m.buildsModels(m.ScopeNode(call)) && !m.callsMadeModule(call)
	case KindAssignment:
		left := f.Field(p, FieldLeft)
		if f.Field(p, FieldRight) != call || f.Kind(left) != KindIdentifier {
			return false
		}
		return m.Memo(constructsKey{call}, func() any {
			for _, id := range m.UsesOf(left) {
				up := f.Parent(id)
				switch f.Kind(up) {
				case KindAttribute:
					if c := f.Parent(up); f.Kind(c) == KindCall && f.Field(c, FieldFunction) == up && moduleUses[f.Text(f.Field(up, FieldAttribute))] {
						return true
					}
				case KindCall:
					if f.Field(up, FieldFunction) == id {
						return true // the result is called: a module
					}
				case KindReturnStatement:
					if m.buildsModels(m.ScopeNode(id)) {
						return true
					}
				}
			}
			return false
		}).(bool)
	}
	return false
}

type constructsKey struct{ call NodeID }

// callsMadeModule reports whether call calls `self.attr`, where the class
// assigns attr a module it constructs (`self.encoder = Encoder(...)`).
func (m *Model) callsMadeModule(call NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindAttribute || !f.TextIs(f.Field(fn, FieldObject), "self") {
		return false
	}
	v := f.Unparen(m.selfAttrValue(fn))
	return v != NoNode && f.Kind(v) == KindCall && m.instanceOf(v, 0) == CallableModel
}

// buildsModels reports whether function fn is named as one that builds
// and returns a model (`get_model`, `build_net`, `create_generator`).
func (m *Model) buildsModels(fn NodeID) bool {
	if fn == Root {
		return false
	}
	name := strings.ToLower(strings.TrimLeft(m.FunctionName(fn), "_"))
	first, _, _ := strings.Cut(name, "_")
	return constructorVerbs[first] && name != first
}

// IsLossCall reports whether call computes a loss.
func (m *Model) IsLossCall(call NodeID) bool {
	f := m.File
	return f.Kind(call) == KindCall && m.ClassifyCallee(f.Field(call, FieldFunction)) == CallableLoss
}

// readsParameters reports whether a module-level function of this file
// computes with module-level tensors that require grad: leaves made with
// `requires_grad=True`, `.requires_grad_()` or `nn.Parameter`, directly
// or by a function of the file that returns one (`W = xavier([784,
// 128])`). Such a function is a model written over raw tensors.
func (m *Model) readsParameters(def NodeID) bool {
	return m.Memo(readsParamsKey{def}, func() any {
		f := m.File
		reads := false
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if reads || f.Kind(id) != KindIdentifier {
				return
			}
			if b := m.Resolve(id); b != nil && b.Kind == BindAssign && m.scopeOf[b.Name] == 0 && b.Value != NoNode {
				reads = m.makesLeaf(b.Value, 0) || m.globalLeaves()[f.Text(id)]
			}
		})
		return reads
	}).(bool)
}

type readsParamsKey struct{ def NodeID }

type globalLeavesKey struct{}

// globalLeaves are the module-level names that module-level code makes
// tensors that require grad after binding them (`W = torch.randn(n, k)`,
// then `W.requires_grad_(requires_grad=True)` or `W.requires_grad = True`).
func (m *Model) globalLeaves() map[string]bool {
	return m.Memo(globalLeavesKey{}, func() any {
		f := m.File
		out := map[string]bool{}
		f.Children(Root, func(stmt NodeID) bool {
			if f.Kind(stmt) != KindExpressionStatement {
				return true
			}
			switch e := f.FirstChild(stmt); f.Kind(e) {
			case KindCall:
				if recv := f.Unparen(m.Receiver(e)); f.Kind(recv) == KindIdentifier && m.MethodName(e) == "requires_grad_" && m.leafCall(e) {
					out[f.Text(recv)] = true
				}
			case KindAssignment:
				left := f.Field(e, FieldLeft)
				if f.Kind(left) == KindAttribute && f.TextIs(f.Field(left, FieldAttribute), "requires_grad") &&
					f.Kind(f.Field(e, FieldRight)) == KindTrue && f.Kind(f.Field(left, FieldObject)) == KindIdentifier {
					out[f.Text(f.Field(left, FieldObject))] = true
				}
			}
			return true
		})
		return out
	}).(map[string]bool)
}

// leafCall reports whether call makes a tensor that requires grad: a
// factory given `requires_grad=True`, `.requires_grad_()` or an
// nn.Parameter.
func (m *Model) leafCall(call NodeID) bool {
	f := m.File
	args := m.Args(call)
	return m.MethodName(call) == "requires_grad_" && (len(args) == 0 || f.TextIs(args[0], "True")) ||
		f.Kind(m.Keyword(call, "requires_grad")) == KindTrue ||
		m.CallName(call) == "torch.nn.Parameter" || m.CallName(call) == "torch.nn.parameter.Parameter"
}

// makesLeaf reports whether an expression makes a tensor that requires
// grad (any part of it, for a tuple of them).
func (m *Model) makesLeaf(e NodeID, depth int) bool {
	f := m.File
	if depth > 4 {
		return false
	}
	found := false
	f.Walk(e, func(id NodeID) {
		if found || f.Kind(id) != KindCall {
			return
		}
		switch {
		case m.leafCall(id):
			found = true
		default:
			if def := m.LocalCallee(id); def != NoNode && def != e {
				for _, v := range m.ReturnValues(def) {
					if m.makesLeaf(v, depth+1) {
						found = true
						return
					}
				}
			}
		}
	})
	return found
}

// abstractForward reports whether class's own forward is left to its
// subclasses (abstractMethod).
func (m *Model) abstractForward(class NodeID) bool {
	fwd := m.MethodOf(class, "forward")
	return fwd != NoNode && m.abstractMethod(fwd)
}

// abstractMethod reports whether def is left to subclasses: decorated
// with `abstractmethod`, or a body (past its docstring) of `pass`, `...`
// or `raise NotImplementedError`.
func (m *Model) abstractMethod(def NodeID) bool {
	f := m.File
	for _, d := range m.Decorators(def) {
		if strings.HasSuffix(f.Text(d), "abstractmethod") {
			return true
		}
	}
	abstract, first := true, true
	f.Children(f.Field(def, FieldBody), func(st NodeID) bool {
		t := strings.TrimSpace(f.Text(st))
		doc := first && f.Kind(st) == KindExpressionStatement && f.Kind(f.FirstChild(st)) == KindString
		first = false
		abstract = doc || t == "pass" || t == "..." || strings.HasPrefix(t, "raise NotImplementedError")
		return abstract
	})
	return abstract
}

// selfFree reports whether calling self in a method of class, a module
// class of this file, records no graph: the class holds no parameter
// (parameterFreeClass), and neither does any class of this file that
// derives from it, whose instance self may be.
func (m *Model) selfFree(class NodeID) bool {
	return m.MemoRecursive(selfFreeKey{class}, false, func() any { return m.selfFreeOnce(class) }).(bool)
}

type selfFreeKey struct{ class NodeID }

func (m *Model) selfFreeOnce(class NodeID) bool {
	if !m.parameterFreeClass(class) {
		return false
	}
	f := m.File
	free := true
	for i := range f.Nodes {
		if f.Nodes[i].Kind != KindClassDefinition || NodeID(i) == class {
			continue
		}
		for _, b := range m.ClassBases(NodeID(i)) {
			if r := m.Resolve(b); f.Kind(b) == KindIdentifier && r != nil && r.Kind == BindClass && r.Stmt == class && !m.selfFree(NodeID(i)) {
				free = false
			}
		}
		if !free {
			break
		}
	}
	return free
}

// hasMethods reports whether class defines a method of its own.
func (m *Model) hasMethods(class NodeID) bool {
	f := m.File
	some := false
	f.Children(f.Field(class, FieldBody), func(c NodeID) bool {
		if f.Kind(c) == KindDecoratedDefinition {
			c = f.Field(c, FieldDefinition)
		}
		some = f.Kind(c) == KindFunctionDefinition
		return !some
	})
	return some
}

// foreignFrameworkTags are the strings code compares a framework setting
// with to pick another framework's branch (`if self.framework == "tf":`).
var foreignFrameworkTags = map[string]bool{"tf": true, "tensorflow": true, "jax": true, "flax": true, "keras": true, "mxnet": true, "paddle": true}

// inForeignArm reports whether node runs only in the branch of an if that
// tests a setting for another framework (`if self.framework == "tf":`,
// `elif framework == "flax":`): that branch runs that framework's code.
func (m *Model) inForeignArm(node NodeID) bool {
	arms := m.Memo(foreignArmsKey{}, func() any { return m.foreignArms() }).([]NodeID)
	for _, a := range arms {
		if m.File.Contains(a, node) {
			return true
		}
	}
	return false
}

type foreignArmsKey struct{}

// foreignArms lists the bodies of the ifs and elifs of the file whose
// condition compares something with one of foreignFrameworkTags, equal.
func (m *Model) foreignArms() []NodeID {
	f := m.File
	quoted := false
	for tag := range foreignFrameworkTags {
		if bytes.Contains(f.Src, []byte(`"`+tag+`"`)) || bytes.Contains(f.Src, []byte(`'`+tag+`'`)) {
			quoted = true
			break
		}
	}
	if !quoted {
		return nil // most files: no framework named in a string
	}
	var arms []NodeID
	for i := range f.Nodes {
		k := f.Nodes[i].Kind
		if k != KindIfStatement && k != KindElifClause {
			continue
		}
		id := NodeID(i)
		cond := f.Unparen(f.Field(id, FieldCondition))
		if f.Kind(cond) != KindComparisonOperator {
			continue
		}
		ops := f.Field(cond, FieldOperators)
		if ops == NoNode || !f.TextIs(ops, "==") {
			continue
		}
		foreign := false
		f.Children(cond, func(c NodeID) bool {
			if f.Kind(c) == KindString {
				t := strings.Trim(f.Text(c), `"'`)
				foreign = foreignFrameworkTags[strings.ToLower(t)]
			}
			return !foreign
		})
		if foreign {
			arms = append(arms, f.Field(id, FieldConsequence))
		}
	}
	return arms
}
