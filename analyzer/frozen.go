package analyzer

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// NoGraphClass reports whether calling an instance of class, a module
// class of this file built with its default arguments, records no
// autograd graph for inputs that need none: it holds no parameters
// (an augmentation written as a module), its constructor takes every
// parameter it holds out of autograd (a frozen feature extractor for a
// metric), or its forward returns what it computes under `no_grad`.
func (m *Model) NoGraphClass(class NodeID) bool {
	if !m.IsModuleClass(class) {
		return m.frozenWrapper(class)
	}
	return m.MemoRecursive(noGraphKey{class}, false, func() any {
		if m.parameterFreeClass(class) || m.frozenClass(class) {
			return true
		}
		return m.forwardUnderNoGrad(class, true)
	}).(bool)
}

// forwardUnderNoGrad reports whether class's forward returns what it
// computes under `no_grad` (or, with noValue, returns nothing), and runs
// no forward pass in its caller's mode.
func (m *Model) forwardUnderNoGrad(class NodeID, noValue bool) bool {
	def := m.MethodOf(class, "forward")
	return def != NoNode && (m.returnsUnderNoGrad(def) || noValue && m.returnsNoValue(def)) && m.localHelperOf(def, 0).runsNoForward()
}

type noGraphKey struct{ class NodeID }

// frozenWrapper reports whether class, a class of this file that is no
// module and derives from nothing, with a `__call__` or a `forward`,
// holds only modules its constructor takes out of autograd, built with
// its default arguments (a text encoder that wraps a frozen model):
// calling an instance records no graph for inputs that need none.
func (m *Model) frozenWrapper(class NodeID) bool {
	if !m.plainBasesOnly(class) {
		return false
	}
	call := m.MethodOf(class, "__call__")
	if call == NoNode {
		call = m.MethodOf(class, "forward")
	}
	if call == NoNode {
		return false
	}
	return m.MemoRecursive(noGraphKey{class}, false, func() any {
		if m.forwardUnderNoGrad(class, false) {
			return true // as a module's may
		}
		init := m.MethodOf(class, "__init__")
		if init == NoNode {
			return false
		}
		// What the call runs that the class holds (`self.model(ids)`,
		// `self.tokenizer(texts)`): each one frozen by the constructor,
		// or no model (a tokenizer); one frozen module at least.
		f := m.File
		frozen := m.initFreezes(init)
		ok, some := true, false
		f.Walk(f.Field(call, FieldBody), func(id NodeID) {
			if !ok || f.Kind(id) != KindCall {
				return
			}
			fn := f.Unparen(f.Field(id, FieldFunction))
			if f.Kind(fn) != KindAttribute || !f.TextIs(f.Field(fn, FieldObject), "self") {
				return
			}
			key := f.Text(fn)
			switch {
			case m.MethodOf(class, f.Text(f.Field(fn, FieldAttribute))) != NoNode:
				ok = false // a method of its own: not followed
			case frozen[key]:
				some = true
			default:
				// No model: a tokenizer, by what makes it or by its name.
				c := m.ClassifyCallee(fn)
				ok = c != CallableModel && c != CallableLoss
			}
		})
		return ok && some
	}).(bool)
}

// plainBasesOnly reports whether class derives from nothing, or from
// `object` or `abc.ABC` alone.
func (m *Model) plainBasesOnly(class NodeID) bool {
	for _, b := range m.ClassBases(class) {
		if !PlainBase(m.QualifiedName(b)) && !m.File.TextIs(b, "object") {
			return false
		}
	}
	return true
}

// noGraphInstance reports whether fn, a callee (`model`, `self.metric`,
// `model.forward`), is an instance of a module class that records no
// graph (NoGraphClass), of this file or, as the project shows, of
// another.
func (m *Model) noGraphInstance(fn NodeID) bool {
	f := m.File
	fn = f.Unparen(fn)
	if f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldAttribute), "forward") {
		fn = f.Unparen(f.Field(fn, FieldObject))
	}
	if class := m.receiverClass(fn); class != NoNode {
		return m.noGraphClassOf(class)
	}
	// A module-level instance of another file (`from nets import flow`).
	if q := m.QualifiedName(fn); f.Kind(fn) == KindIdentifier && q != "" && !isLibraryName(q) {
		if b := m.Resolve(fn); b != nil && b.Kind == BindImport {
			o := m.lookup(q, WantNoGraph)
			return o != nil && o.Kind == ObjectInstance && o.NoGraph
		}
	}
	return false
}

// unpackedNoGraph reports whether fn, an attribute of self bound only by
// unpacking what a function of this file returns (`self.netG,
// self.inception = load_network(gpus)`), is at its place in every tuple
// that function returns a module that records no graph.
func (m *Model) unpackedNoGraph(fn NodeID, depth int) bool {
	f := m.File
	if depth > 6 || f.Kind(fn) != KindAttribute || !f.TextIs(f.Field(fn, FieldObject), "self") {
		return false
	}
	class := m.EnclosingClass(fn)
	if class == NoNode {
		return false
	}
	a := m.selfAttrs(class)
	us := a.unpacked[f.Text(fn)]
	if len(us) == 0 || a.count[f.Text(fn)] > 0 {
		return false
	}
	for _, u := range us {
		def := m.LocalCallee(u.call)
		if def == NoNode || f.Kind(def) != KindFunctionDefinition {
			return false
		}
		// Every return a tuple with an element at that place.
		elems := m.elementValues(def, u.index)
		if len(elems) == 0 || len(elems) != len(m.ReturnValues(def)) {
			return false
		}
		for _, e := range elems {
			if !m.noGraphValueAt(e, depth+1) {
				return false
			}
		}
	}
	return true
}

// noGraphClassOf reports whether class, the callee of a constructor
// (`InceptionV3`, `metrics.FID`), names a module class that records no
// graph, of this file or, as the project shows, of another.
func (m *Model) noGraphClassOf(class NodeID) bool {
	f := m.File
	if class == NoNode {
		return false
	}
	if b := m.Resolve(class); f.Kind(class) == KindIdentifier && b != nil && b.Kind == BindClass {
		return m.NoGraphClass(b.Stmt)
	}
	q := m.QualifiedName(class)
	if q == "" || isLibraryName(q) {
		return false
	}
	o := m.lookup(q, WantNoGraph)
	return o != nil && o.NoGraph
}

// frozenClass reports whether the constructor of class, run with its
// default arguments, takes every parameter the class holds out of
// autograd: `self.requires_grad_(False)`, `p.requires_grad = False` for
// each of `self.parameters()`, or the same for each attribute of self
// that holds a layer; an attribute that holds a frozen module of this
// file needs no freezing of its own.
func (m *Model) frozenClass(class NodeID) bool {
	f := m.File
	init := m.MethodOf(class, "__init__")
	if init == NoNode {
		return false
	}
	frozen := m.initFreezes(init)
	if frozen["self"] {
		return true
	}
	for _, b := range m.ClassBases(class) {
		if m.QualifiedName(b) != "torch.nn.Module" {
			return false // a base may hold parameters of its own
		}
	}
	// Something it holds is frozen, and nothing else it holds has
	// parameters.
	ok, held := true, len(frozen) > 0
	f.Walk(f.Field(class, FieldBody), func(id NodeID) {
		if !ok {
			return
		}
		switch f.Kind(id) {
		case KindCall:
			switch m.MethodName(id) {
			case "register_parameter", "register_module", "add_module":
				ok = false
			}
			switch m.QualifiedName(f.Unparen(f.Field(id, FieldFunction))) {
			case "torch.nn.Parameter", "setattr":
				ok = false
			}
		case KindAssignment, KindAugmentedAssignment:
			left := f.Field(id, FieldLeft)
			if f.Kind(left) != KindAttribute || !f.TextIs(f.Field(left, FieldObject), "self") || frozen[f.Text(left)] {
				return
			}
			v := f.Field(id, FieldRight)
			if f.Kind(id) == KindAugmentedAssignment || !m.holdsNoParameters(init, v) && !m.readOnlyIn(class, init, f.Text(left)) {
				ok = false
			}
			if c := constructed(f, v); c != NoNode {
				if b := m.Resolve(c); b != nil && b.Kind == BindClass && !m.parameterFreeClass(b.Stmt) {
					held = true // a frozen module of this file
				}
			}
		}
	})
	return ok && held
}

// readOnlyIn reports whether attr, an attribute of self that class
// assigns ("self.laplacian"), is read only in init, the constructor
// (a filter bank it builds its frozen layers' weights from): whatever
// it holds, no pass of the module runs it.
func (m *Model) readOnlyIn(class, init NodeID, attr string) bool {
	f := m.File
	only := true
	f.Walk(f.Field(class, FieldBody), func(id NodeID) {
		if only && f.Kind(id) == KindAttribute && !f.Contains(init, id) && f.Text(id) == attr {
			only = false
		}
	})
	return only
}

type freezeParamsKey struct{ class NodeID }

// freezeParams returns the parameters of class's constructor that decide
// what it freezes: those its freezing statements (`p.requires_grad =
// requires_grad`, `self.requires_grad_(not train)`) read, or the tests
// around them (`if freeze:`) read; "name@i" for the i-th positional one,
// "name" for a keyword-only one, sorted, as ClassSummary keeps them.
// NoGraphClass judges the class built with their defaults; a call that
// passes one of them builds something else.
func (m *Model) freezeParams(class NodeID) []string {
	return m.Memo(freezeParamsKey{class}, func() any {
		f := m.File
		init := m.MethodOf(class, "__init__")
		if init == NoNode {
			return []string(nil)
		}
		names := m.paramSpecs(init)
		var out []string
		read := func(e NodeID) {
			f.Walk(e, func(id NodeID) {
				if p := names[f.Text(id)]; f.Kind(id) == KindIdentifier && p != "" && !slices.Contains(out, p) {
					out = append(out, p)
				}
			})
		}
		f.Walk(f.Field(init, FieldBody), func(id NodeID) {
			switch f.Kind(id) {
			case KindCall:
				if m.MethodName(id) != "requires_grad_" {
					return
				}
				read(f.Field(id, FieldArguments))
			case KindAssignment:
				if left := f.Field(id, FieldLeft); f.Kind(left) != KindAttribute || !f.TextIs(f.Field(left, FieldAttribute), "requires_grad") {
					return
				}
				read(f.Field(id, FieldRight))
			default:
				return
			}
			for p := f.Parent(id); p != NoNode && p != init; p = f.Parent(p) {
				switch f.Kind(p) {
				case KindIfStatement, KindElifClause, KindWhileStatement:
					read(f.Field(p, FieldCondition))
				case KindForStatement:
					read(f.Field(p, FieldRight))
				}
			}
		})
		slices.Sort(out)
		return out
	}).([]string)
}

type frozenWithKey struct{ class NodeID }

// paramSpecs names the parameters of def as ClassSummary keeps them:
// "name@i" for the i-th positional one, "name" for a keyword-only one.
func (m *Model) paramSpecs(def NodeID) map[string]string {
	f := m.File
	specs := map[string]string{}
	for i, p := range m.positionalParams(def) {
		specs[f.Text(p)] = f.Text(p) + "@" + strconv.Itoa(i)
	}
	f.Children(f.Field(def, FieldParameters), func(c NodeID) bool {
		if k := f.Kind(c); k == KindDefaultParameter || k == KindTypedDefaultParameter {
			if n := f.Text(f.Field(c, FieldName)); specs[n] == "" {
				specs[n] = n // keyword-only
			}
		}
		return true
	})
	return specs
}

// specArg returns what call passes for a parameter paramSpecs names;
// known is false where a splat may pass it.
func (m *Model) specArg(call NodeID, spec string) (arg NodeID, known bool) {
	name, at, positional := strings.Cut(spec, "@")
	i, err := strconv.Atoi(at)
	if !positional || err != nil {
		i = -1
	}
	return m.argFor(call, i, name)
}

// FrozenWith returns the arguments with which the constructor of class,
// a module class of this file that its defaults leave trainable, takes
// every parameter the class holds out of autograd: "name@i=False" for
// the i-th positional parameter passed False (`VGG16(requires_grad=False)`
// with `for p in self.parameters(): p.requires_grad = requires_grad`),
// "name=True" for a keyword-only one; one argument at a time, the others
// left to their defaults (freezeParams).
func (m *Model) FrozenWith(class NodeID) []string {
	return m.Memo(frozenWithKey{class}, func() any {
		f := m.File
		init := m.MethodOf(class, "__init__")
		if init == NoNode || !m.IsModuleClass(class) || m.NoGraphClass(class) {
			return []string(nil)
		}
		var out []string
		for _, spec := range m.freezeParams(class) {
			name, _, _ := strings.Cut(spec, "@")
			param := NoNode
			f.Children(f.Field(init, FieldParameters), func(c NodeID) bool {
				if k := f.Kind(c); (k == KindDefaultParameter || k == KindTypedDefaultParameter) && f.TextIs(f.Field(c, FieldName), name) {
					param = c
				}
				return param == NoNode
			})
			if param == NoNode {
				continue
			}
			def, known := m.defaultTruth(NoNode, f.Field(param, FieldValue))
			if !known {
				continue
			}
			m.argTruth = map[NodeID]bool{param: !def}
			frozen := m.frozenClass(class)
			m.argTruth = nil
			if frozen && def {
				out = append(out, spec+"=False")
			} else if frozen {
				out = append(out, spec+"=True")
			}
		}
		return out
	}).([]string)
}

// builtFrozen reports whether call, a construction of a class, passes
// one of the arguments frozenWith lists (FrozenWith: "name@i=False") as
// that literal, and no other argument of freezeParams; and no splat,
// which may pass any.
func (m *Model) builtFrozen(call NodeID, frozenWith, freezeParams []string) bool {
	f := m.File
	if len(frozenWith) == 0 || slices.Contains(argKinds(f, call), "*") {
		return false
	}
	arg := func(spec string) NodeID {
		a, _ := m.specArg(call, spec)
		return a
	}
	for _, fw := range frozenWith {
		spec, val, _ := strings.Cut(fw, "=")
		a := f.Unparen(arg(spec))
		if a == NoNode || (val == "False") != (f.Kind(a) == KindFalse) || (val == "True") != (f.Kind(a) == KindTrue) {
			continue
		}
		if !slices.ContainsFunc(freezeParams, func(p string) bool { return p != spec && arg(p) != NoNode }) {
			return true
		}
	}
	return false
}

// constructorCall returns the call that builds what v holds, past the
// calls that return their receiver (`Net(...).to(dev).eval()`).
func constructorCall(f *File, v NodeID) NodeID {
	v = f.Unparen(v)
	for inner := movedFrom(f, v); inner != NoNode && f.Kind(f.Unparen(inner)) == KindCall; inner = movedFrom(f, v) {
		v = f.Unparen(inner)
	}
	return v
}

// argKinds lists what call passes: "#" for each positional argument, the
// name of each keyword one, "*" for a splat.
func argKinds(f *File, call NodeID) []string {
	var out []string
	f.Children(f.Field(call, FieldArguments), func(a NodeID) bool {
		switch f.Kind(a) {
		case KindKeywordArgument:
			out = append(out, f.Text(f.Field(a, FieldName)))
		case KindListSplat, KindDictionarySplat:
			out = append(out, "*")
		case KindComment:
		default:
			if f.N(a).Kind != KindToken {
				out = append(out, "#")
			}
		}
		return true
	})
	return out
}

// compactArgs turns the "#" of each positional argument into one "#n"
// and drops repeated names, sorted.
func compactArgs(args []string) []string {
	n := 0
	var out []string
	for _, a := range args {
		if a == "#" {
			n++
		} else if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	if n > 0 {
		out = append(out, "#"+strconv.Itoa(n))
	}
	slices.Sort(out)
	return out
}

// PassesParams reports whether arguments args (as compactArgs gives
// them: "#n", names, "*") fill one of params ("name@i" for the i-th
// positional parameter, "name" for a keyword-only one), or may.
func PassesParams(args, params []string) bool {
	if len(params) == 0 {
		return false
	}
	for _, a := range args {
		if a == "*" {
			return true
		}
		if n, ok := strings.CutPrefix(a, "#"); ok {
			positional, _ := strconv.Atoi(n)
			for _, p := range params {
				if _, at, ok := strings.Cut(p, "@"); ok {
					if i, _ := strconv.Atoi(at); i < positional {
						return true
					}
				}
			}
			continue
		}
		if slices.ContainsFunc(params, func(p string) bool { name, _, _ := strings.Cut(p, "@"); return name == a }) {
			return true
		}
	}
	return false
}

// passesFreezeParam reports whether call, a construction of class,
// passes an argument for a parameter that decides what the class
// freezes (freezeParams).
func (m *Model) passesFreezeParam(call, class NodeID) bool {
	return PassesParams(compactArgs(argKinds(m.File, call)), m.freezeParams(class))
}

// holdsNoParameters reports whether v, assigned to an attribute of self,
// is a value that holds no parameters: a literal, a flag of the
// constructor, a tensor, a layer without parameters, or an instance of a
// module class of this file that records no graph.
func (m *Model) holdsNoParameters(init, v NodeID) bool {
	f := m.File
	v = f.Unparen(v)
	if ScalarLiteral(f, v) {
		return true
	}
	switch f.Kind(v) {
	case KindIdentifier:
		b := m.Resolve(v)
		if b == nil || b.Kind != BindParam || m.ScopeNode(b.Name) != init {
			return false
		}
		switch k := f.Kind(b.Stmt); k {
		case KindDefaultParameter, KindTypedDefaultParameter:
			switch d := f.Unparen(f.Field(b.Stmt, FieldValue)); f.Kind(d) {
			case KindInteger, KindFloat, KindString, KindTrue, KindFalse:
				return true // `self.as_loss = as_loss`
			case KindAttribute:
				// `self.dtype = dtype` with `dtype=torch.bfloat16`
				q := m.QualifiedName(d)
				last := q[strings.LastIndexByte(q, '.')+1:]
				return strings.HasPrefix(q, "torch.") && strings.Count(q, ".") == 1 && last != "" && last == strings.ToLower(last)
			}
		}
		return false
	case KindCall:
		if inner := movedFrom(f, v); inner != NoNode {
			return m.holdsNoParameters(init, inner)
		}
		q := m.QualifiedName(f.Unparen(f.Field(v, FieldFunction)))
		switch {
		case m.freeLayer(v):
			return true
		case strings.HasPrefix(q, "torch.nn."):
			return false
		case strings.HasPrefix(q, "torch."):
			return m.Keyword(v, "requires_grad") == NoNode // a buffer-like tensor
		}
		b := m.Resolve(f.Unparen(f.Field(v, FieldFunction)))
		return b != nil && b.Kind == BindClass && m.NoGraphClass(b.Stmt)
	}
	return false
}

// initFreezes returns the texts of what constructor init freezes when
// it runs with its default arguments ("self", "self.features").
func (m *Model) initFreezes(init NodeID) map[string]bool {
	f := m.File
	out := map[string]bool{}
	// `self.conv.weight.requires_grad = False`: the layer's weight, and
	// its bias where it has one.
	tensors := map[string]bool{}
	// `for p in layer.parameters(): p.requires_grad = False`, then
	// `self.conv = layer`: a layer frozen under a local name.
	locals := map[string]bool{}
	add := func(target NodeID, at NodeID) {
		target = f.Unparen(target)
		if !m.runsByDefault(init, at) {
			return
		}
		switch k := f.Text(target); {
		case k == "self" || f.Kind(target) == KindAttribute && strings.HasPrefix(k, "self.") && strings.Count(k, ".") == 1:
			out[k] = true
		case f.Kind(target) == KindIdentifier:
			locals[k] = true
		case f.Kind(target) == KindAttribute && strings.HasPrefix(k, "self.") && strings.Count(k, ".") == 2:
			tensors[k] = true
		}
	}
	f.Walk(f.Field(init, FieldBody), func(id NodeID) {
		switch f.Kind(id) {
		case KindCall, KindAssignment:
			if f.Kind(id) == KindCall && m.ScopeNode(id) == init {
				// `self.fix_network(self.vit)`, a helper of this file
				// that freezes what it is given.
				args := m.Args(id)
				for _, i := range m.paramFreezes(m.LocalCallee(id)) {
					if i < len(args) && f.Kind(args[i]) != KindKeywordArgument && !slices.ContainsFunc(args[:i], func(a NodeID) bool {
						return f.Kind(a) == KindListSplat || f.Kind(a) == KindKeywordArgument
					}) {
						add(args[i], id)
					}
				}
			}
			r := m.freezesIn(init, id)
			if r == NoNode {
				return
			}
			add(r, id)
			if f.Kind(id) == KindCall {
				if t := f.BoundTo(id); t != NoNode {
					add(t, id) // `self.net = Net().requires_grad_(False)`
				}
			}
		case KindForStatement:
			// `for p in self.features.parameters(): p.requires_grad = False`,
			// `for name, p in self.named_parameters(): ...`
			iter := f.Unparen(f.Field(id, FieldRight))
			target := f.Field(id, FieldLeft)
			if f.Kind(iter) != KindCall {
				return
			}
			switch m.MethodName(iter) {
			case "parameters":
			case "named_parameters":
				if vars := f.ChildList(target); len(vars) == 2 {
					target = vars[1]
				}
			default:
				return
			}
			if f.Kind(target) != KindIdentifier {
				return
			}
			f.Walk(f.Field(id, FieldBody), func(n NodeID) {
				if r := m.freezesIn(init, n); r != NoNode && f.TextIs(r, f.Text(target)) {
					add(m.Receiver(iter), n)
				}
			})
		}
	})
	if len(locals) > 0 {
		// `backbone.requires_grad_(True)` later: the local is trainable again.
		f.Walk(f.Field(init, FieldBody), func(id NodeID) {
			if f.Kind(id) == KindCall && m.MethodName(id) == "requires_grad_" && m.freezesIn(init, id) == NoNode {
				if r := f.Unparen(m.Receiver(id)); f.Kind(r) == KindIdentifier {
					delete(locals, f.Text(r))
				}
			}
		})
		assigned := m.AssignmentsIn(init)
		for k, vals := range assigned {
			// `self.model = shard_fn(self.model)`: the module wrapped
			// again, its parameters as frozen as they were.
			vals = slices.DeleteFunc(slices.Clone(vals), func(v NodeID) bool {
				v = f.Unparen(v)
				return f.Kind(v) == KindCall && slices.ContainsFunc(m.Args(v), func(a NodeID) bool { return f.TextIs(f.Unparen(a), k) })
			})
			if len(vals) == 0 {
				continue
			}
			v := f.Unparen(vals[0])
			for inner := movedFrom(f, v); inner != NoNode && m.MethodName(v) != "requires_grad_"; inner = movedFrom(f, v) {
				v = inner // `self.model = model.to(device)`: moved, still frozen
			}
			if len(vals) == 1 && strings.HasPrefix(k, "self.") && strings.Count(k, ".") == 1 &&
				f.Kind(v) == KindIdentifier && locals[f.Text(v)] && len(assigned[f.Text(v)]) == 1 {
				out[k] = true
			}
		}
	}
	for k := range tensors {
		layer, name, _ := strings.Cut(k[len("self."):], ".")
		if name != "weight" {
			continue
		}
		if tensors["self."+layer+".bias"] || m.builtWithoutBias(init, "self."+layer) {
			out["self."+layer] = true
		}
	}
	return out
}

// paramFreezes returns the positional parameters (past self) of def, a
// function of this file, whose every parameter def takes out of autograd
// each time it runs with its default arguments: `for p in
// model.parameters(): p.requires_grad = False`, `model.requires_grad_(False)`.
func (m *Model) paramFreezes(def NodeID) []int {
	f := m.File
	if def == NoNode || f.Kind(def) != KindFunctionDefinition {
		return nil
	}
	if n := f.N(def); !bytes.Contains(f.Src[n.Start:n.End], []byte("requires_grad")) && !bytes.Contains(f.Src[n.Start:n.End], []byte("detach_")) {
		return nil // no freeze a body without the words can make (freezesIn); every summary asks
	}
	return m.Memo(paramFreezesKey{def}, func() any {
		var out []int
		for i, p := range m.positionalParams(def) {
			name := f.Text(p)
			frozen := false
			f.Walk(f.Field(def, FieldBody), func(id NodeID) {
				if frozen || m.ScopeNode(id) != def {
					return
				}
				switch f.Kind(id) {
				case KindCall:
					frozen = f.TextIs(m.freezesIn(def, id), name) && m.runsByDefault(def, id)
				case KindForStatement:
					iter, target := f.Unparen(f.Field(id, FieldRight)), f.Field(id, FieldLeft)
					if f.Kind(iter) != KindCall || m.MethodName(iter) != "parameters" || !f.TextIs(f.Unparen(m.Receiver(iter)), name) ||
						f.Kind(target) != KindIdentifier {
						return
					}
					f.Walk(f.Field(id, FieldBody), func(n NodeID) {
						if r := m.freezesIn(def, n); r != NoNode && f.TextIs(r, f.Text(target)) && m.runsByDefault(def, n) {
							frozen = true
						}
					})
				}
			})
			if frozen && len(m.AssignmentsIn(def)[name]) == 0 {
				out = append(out, i)
			}
		}
		return out
	}).([]int)
}

type paramFreezesKey struct{ def NodeID }

// builtWithoutBias reports whether init assigns attr once, a layer built
// with `bias=False`.
func (m *Model) builtWithoutBias(init NodeID, attr string) bool {
	f := m.File
	values := m.AssignmentsIn(init)[attr]
	if len(values) != 1 {
		return false
	}
	v := f.Unparen(values[0])
	return f.Kind(v) == KindCall && f.Kind(f.Unparen(m.Keyword(v, "bias"))) == KindFalse
}

// Freezes returns what node n takes out of autograd: x for
// `x.requires_grad_(False)`, `x.eval().requires_grad_(False)`,
// `x.requires_grad = False` or `x.detach_()`; else NoNode.
func (m *Model) Freezes(n NodeID) NodeID {
	return m.freezesIn(NoNode, n)
}

// freezesIn is Freezes, where a flag of def whose default is False
// counts as False (`param.requires_grad = requires_grad`).
func (m *Model) freezesIn(def, n NodeID) NodeID {
	f := m.File
	switch f.Kind(n) {
	case KindCall:
		if args := m.Args(n); m.MethodName(n) == "requires_grad_" && len(args) == 1 && m.falseByDefault(def, args[0]) {
			// `model.eval().requires_grad_(False)`: the module the chain
			// starts from, each call returning it.
			r := f.Unparen(m.Receiver(n))
			for inner := movedFrom(f, r); inner != NoNode; inner = movedFrom(f, r) {
				r = inner
			}
			return r
		}
		if m.MethodName(n) == "detach_" && len(m.Args(n)) == 0 {
			// `p.detach_()` of a parameter (mean teacher's EMA model):
			// a leaf detached in place no longer requires grad.
			return f.Unparen(m.Receiver(n))
		}
	case KindAssignment:
		left := f.Field(n, FieldLeft)
		if f.Kind(left) == KindAttribute && f.TextIs(f.Field(left, FieldAttribute), "requires_grad") &&
			m.falseByDefault(def, f.Field(n, FieldRight)) {
			return f.Unparen(f.Field(left, FieldObject))
		}
	}
	return NoNode
}

// falseByDefault reports whether v is False, or a parameter of def whose
// default is False.
func (m *Model) falseByDefault(def, v NodeID) bool {
	val, known := m.defaultTruth(def, v)
	return known && !val
}

// defaultTruth evaluates a condition made of literals, `not` and
// parameters of def with a literal True or False default, as it is
// when def runs with its default arguments.
func (m *Model) defaultTruth(def, v NodeID) (val, known bool) {
	f := m.File
	v = f.Unparen(v)
	switch f.Kind(v) {
	case KindTrue:
		return true, true
	case KindFalse:
		return false, true
	case KindNotOperator:
		val, known = m.defaultTruth(def, f.Field(v, FieldArgument))
		return !val, known
	case KindIdentifier:
		if def == NoNode {
			return false, false
		}
		b := m.Resolve(v)
		if b == nil || b.Kind != BindParam || m.ScopeNode(b.Name) != def {
			return false, false
		}
		if t, ok := m.argTruth[b.Stmt]; ok {
			return t, true
		}
		if k := f.Kind(b.Stmt); k == KindDefaultParameter || k == KindTypedDefaultParameter {
			return m.defaultTruth(NoNode, f.Field(b.Stmt, FieldValue))
		}
	}
	return false, false
}

// runsByDefault reports whether statement n of def's body runs whenever
// def runs with its default arguments: the conditions of the ifs around
// it hold for them.
func (m *Model) runsByDefault(def, n NodeID) bool {
	return m.runsWhen(def, n, func(cond NodeID) (bool, bool) { return m.defaultTruth(def, cond) })
}

// RunsWith reports whether statement n of def's body runs whenever call,
// a call of def, runs it: the conditions of the ifs around it hold for
// the arguments call passes, or for def's defaults (`create_model(ema=True)`
// with `if ema:` around the freeze).
func (m *Model) RunsWith(call, def, n NodeID) bool {
	return m.runsWhen(def, n, func(cond NodeID) (bool, bool) { return m.testAt(call, def, cond) })
}

// runsWhen is runsByDefault and RunsWith, with truth evaluating an if's
// condition.
func (m *Model) runsWhen(def, n NodeID, truth func(cond NodeID) (val, known bool)) bool {
	f := m.File
	child := n
	for p := f.Parent(n); p != NoNode && p != def; child, p = p, f.Parent(p) {
		switch f.Kind(p) {
		case KindFunctionDefinition, KindLambda, KindClassDefinition, KindElifClause, KindWhileStatement, KindTryStatement:
			return false
		case KindIfStatement:
			val, known := truth(f.Field(p, FieldCondition))
			switch {
			case !known:
				return false
			case child == f.Field(p, FieldConsequence):
				if !val {
					return false
				}
			case f.Kind(child) == KindElseClause:
				elif := false
				f.Children(p, func(c NodeID) bool {
					elif = elif || f.Kind(c) == KindElifClause
					return !elif
				})
				if val || elif {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// BoundTo returns the name or attribute an assignment binds to call's
// result, through methods chained on it (`.to(device)`, `.eval()`), or
// NoNode.
func (f *File) BoundTo(call NodeID) NodeID {
	top := call
	for {
		p := f.Parent(top)
		if f.Kind(p) == KindParenthesizedExpression {
			top = p
			continue
		}
		if f.Kind(p) != KindAttribute || f.Field(p, FieldObject) != top || f.Kind(f.Parent(p)) != KindCall {
			break
		}
		top = f.Parent(p)
	}
	a := f.Parent(top)
	if f.Kind(a) != KindAssignment || f.Field(a, FieldRight) != top {
		return NoNode
	}
	switch t := f.Field(a, FieldLeft); f.Kind(t) {
	case KindIdentifier, KindAttribute:
		return t
	}
	return NoNode
}

// NoGraphParam reports whether param, a parameter of a function of this
// file, is given a module that records no graph (NoGraphValue) by
// every call of the function in this file, directly or through the
// callers' own parameters (`get_activations(files, model)` called with
// `InceptionV3([idx])`, whose constructor freezes it). Where other files
// call the function too, it is as their summaries and this file's tell:
// every call hands a module frozen before it (Object.FrozenCalls, from
// FrozenAtCall).
func (m *Model) NoGraphParam(param NodeID) bool {
	return m.noGraphParam(param, 0)
}

func (m *Model) noGraphParam(param NodeID, depth int) bool {
	f := m.File
	param = f.Unparen(param)
	if depth > 4 || f.Kind(param) != KindIdentifier {
		return false
	}
	b := m.Resolve(param)
	if b == nil || b.Kind != BindParam {
		return false
	}
	args, ok := m.paramArgs(b)
	for _, a := range args {
		ok = ok && (m.NoGraphValue(a) || m.noGraphParam(a, depth+1))
	}
	if ok || len(args) > 0 && depth > 0 {
		return ok
	}
	// Called from other files (`utils.preprocess(extractor, data)` after
	// `extractor.requires_grad_(False)` in a script): as the project's
	// calls tell, asked last.
	if def := m.paramFunction(b); def != NoNode && m.CalledElsewhere(def) {
		return m.FrozenParamCall(param) != nil
	}
	return false
}

// BuildsNoParameter reports whether v, a call, builds a module with no
// parameter to train: a layer of torch's without parameters
// (`nn.Identity()`), or a module that records no graph (NoGraphValue).
func (m *Model) BuildsNoParameter(v NodeID) bool {
	return m.freeLayer(v) || m.NoGraphValue(v)
}

// NoGraphValue reports whether v is a module that records no graph: an
// instance noGraphInstance names, one built in place
// (`InceptionV3([idx]).to(dev)`), one wrapped in DataParallel, or a name
// every binding reaching v binds to one of these.
func (m *Model) NoGraphValue(v NodeID) bool {
	return m.noGraphValueAt(v, 0)
}

func (m *Model) noGraphValueAt(v NodeID, depth int) bool {
	f := m.File
	v = f.Unparen(v)
	if depth > 6 {
		return false
	}
	switch f.Kind(v) {
	case KindCall:
		if inner := movedFrom(f, v); inner != NoNode {
			return m.noGraphValueAt(inner, depth+1) // `net.cuda()`
		}
		switch m.CallName(v) {
		case "torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.DistributedDataParallel":
			args := m.Args(v)
			return len(args) > 0 && m.noGraphValueAt(args[0], depth+1)
		}
		if m.freeLayer(v) {
			return true // `nn.CosineSimilarity(dim=1)`: a layer of torch's without parameters
		}
		c := constructed(f, v)
		if b := m.Resolve(c); f.Kind(c) == KindIdentifier && b != nil && b.Kind == BindClass {
			if m.builtFrozen(constructorCall(f, v), m.FrozenWith(b.Stmt), m.freezeParams(b.Stmt)) {
				return true // `VGG16(requires_grad=False)`: its constructor freezes it
			}
			if m.passesFreezeParam(constructorCall(f, v), b.Stmt) {
				return false // `Extractor(freeze=False)`: not built as NoGraphClass judges it
			}
		}
		if q := m.QualifiedName(c); q != "" && !isLibraryName(q) {
			// A class of another file: the same, by what its summary
			// says decides its freezing.
			if o := m.lookup(q, WantNoGraph); o != nil && o.Kind == ObjectClass {
				if o.NoGraph && PassesParams(compactArgs(argKinds(f, constructorCall(f, v))), o.FreezeParams) {
					return false
				}
				if !o.NoGraph {
					return m.builtFrozen(constructorCall(f, v), o.FrozenWith, o.FreezeParams)
				}
			}
		}
		return m.noGraphClassOf(c)
	case KindIdentifier:
		if b := m.Resolve(v); b == nil || b.Kind != BindAssign {
			return m.noGraphInstance(v)
		}
		vals, ok := m.assignedValues(v)
		return ok && len(vals) > 0 && !slices.ContainsFunc(vals, func(a NodeID) bool { return !m.noGraphValueAt(a, depth+1) })
	case KindAttribute:
		if f.TextIs(f.Field(v, FieldAttribute), "forward") {
			return m.noGraphValueAt(f.Field(v, FieldObject), depth+1) // `OneHot(depth).forward`
		}
		if m.unpackedNoGraph(v, depth) {
			return true
		}
	}
	return m.noGraphInstance(v)
}

// FrozenArgs returns the arguments a call of a function of another file
// hands, by position, to parameters whose every parameter that function
// freezes, as the project shows it (FreezesParams: `freeze_model(net)`,
// freeze_model in utils). A function of this file is TL201's own
// reading (freezeCallers).
func (m *Model) FrozenArgs(call NodeID) []NodeID {
	f := m.File
	ref := m.calleeRef(call)
	if ref == "" || strings.HasPrefix(ref, "#") || m.LocalCallee(call) != NoNode {
		return nil
	}
	o := m.lookup(ref, WantParams)
	if o == nil || o.Kind != ObjectFunction || len(o.FreezesParams) == 0 {
		return nil
	}
	idx := o.FreezesParams
	var positional []NodeID
	for _, a := range m.Args(call) {
		switch f.Kind(a) {
		case KindKeywordArgument, KindListSplat, KindDictionarySplat:
			return nil // what lands where is not plain to see
		}
		positional = append(positional, a)
	}
	var out []NodeID
	for _, i := range idx {
		if i < len(positional) {
			out = append(out, f.Unparen(positional[i]))
		}
	}
	return out
}

type noGraphWithKey struct{ class NodeID }

// NoGraphWith returns the literal arguments with which a call of an
// instance of class, a module class of this file that records a graph
// otherwise, takes only arms of its forward that compute under
// `no_grad` what they return and run no forward pass in the caller's
// mode: "mode@1=inference" for `forward(self, data, mode)` whose
// `elif mode == 'inference':` arm returns what it computes under
// `torch.no_grad()` (a GAN's forward that dispatches on a mode string),
// "name=inference" for a keyword-only parameter. Each is a comparison of
// a parameter the forward never rebinds with a string, in an if or an
// elif of its own.
func (m *Model) NoGraphWith(class NodeID) []string {
	return m.Memo(noGraphWithKey{class}, func() any {
		f := m.File
		def := m.MethodOf(class, "forward")
		if def == NoNode || !m.IsModuleClass(class) || m.NoGraphClass(class) {
			return []string(nil)
		}
		specs := m.paramSpecs(def)
		var out []string
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if k := f.Kind(id); k != KindIfStatement && k != KindElifClause || m.EnclosingFunction(id) != def {
				return
			}
			name, lit, eq, ok := nameComparison(f, f.Unparen(f.Field(id, FieldCondition)))
			if !ok || !eq {
				return
			}
			val, isStr := stringLiteral(f, lit)
			spec := specs[f.Text(name)]
			if !isStr || spec == "" || len(m.AssignmentsIn(def)[f.Text(name)]) > 0 {
				return
			}
			if spec += "=" + val; !slices.Contains(out, spec) && m.armRecordsNoGraph(class, def, f.Text(name), val) {
				out = append(out, spec)
			}
		})
		slices.Sort(out)
		return out
	}).([]string)
}

// armRecordsNoGraph reports whether forward, class's, run with its
// parameter param equal to the string val, returns only what it computes
// under `no_grad` (one value at least), and runs no forward pass in its
// caller's mode: no model, no method of class that runs one, no
// attribute of self that is no method of class, outside `no_grad` in a
// branch the value does not rule out.
func (m *Model) armRecordsNoGraph(class, forward NodeID, param, val string) bool {
	f := m.File
	truth := func(cond NodeID) (bool, bool) {
		name, lit, eq, ok := nameComparison(f, f.Unparen(cond))
		if !ok || !f.TextIs(name, param) {
			return false, false
		}
		got, ok := stringLiteral(f, lit)
		if !ok {
			return false, false
		}
		return (got == val) == eq, true
	}
	skipped := func(id NodeID) bool {
		return m.branchSkipped(forward, id, truth) || afterTakenExit(f, forward, id, truth)
	}
	returns := 0
	for _, v := range m.ReturnValues(forward) {
		switch {
		case v != NoNode && skipped(v):
		case v == NoNode || f.Kind(f.Unparen(v)) == KindNone:
		case m.GradModeAt(v) == GradDisabled || m.boundUnderNoGrad(v):
			returns++
		default:
			return false
		}
	}
	ok := returns > 0
	f.Walk(f.Field(forward, FieldBody), func(id NodeID) {
		if !ok || m.EnclosingFunction(id) != forward {
			return
		}
		switch f.Kind(id) {
		case KindYield:
			ok = false
		case KindCall:
			if g, decided := m.localGradMode(id); decided && g == GradDisabled || skipped(id) {
				return
			}
			fn := f.Unparen(f.Field(id, FieldFunction))
			if f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldObject), "self") {
				method := m.MethodOf(class, f.Text(f.Field(fn, FieldAttribute)))
				ok = method != NoNode && m.localHelperOf(method, 0).runsNoForward()
				return
			}
			if m.IsForwardCall(id) {
				ok = false
			} else if h := m.Helper(id); h != nil && h.Forward != nil {
				ok = false
			}
		}
	})
	return ok
}

// NoGraphCall reports whether call, of a module instance (`model(data,
// mode='inference')`), passes a literal argument with which its class's
// forward records no graph (NoGraphWith), a class of this file or, as
// the project shows, of another.
func (m *Model) NoGraphCall(call NodeID) bool {
	f := m.File
	str := false
	f.Children(f.Field(call, FieldArguments), func(a NodeID) bool {
		if f.Kind(a) == KindKeywordArgument {
			a = f.Field(a, FieldValue)
		}
		_, str = stringLiteral(f, a)
		return !str
	})
	if !str {
		return false // the cheap test first
	}
	fn := f.Unparen(f.Field(call, FieldFunction))
	class := m.receiverClass(fn)
	if class == NoNode {
		return false
	}
	var specs []string
	if b := m.Resolve(class); f.Kind(class) == KindIdentifier && b != nil && b.Kind == BindClass {
		specs = m.NoGraphWith(b.Stmt)
	} else if q := m.QualifiedName(class); q != "" && !isLibraryName(q) {
		if o := m.lookup(q, WantNoGraph); o != nil && o.Kind == ObjectClass && !o.NoGraph {
			specs = o.NoGraphWith
		}
	}
	for _, s := range specs {
		spec, val, _ := strings.Cut(s, "=")
		a, known := m.specArg(call, spec)
		if got, ok := stringLiteral(f, f.Unparen(a)); known && ok && got == val {
			return true
		}
	}
	return false
}

// afterTakenExit reports whether node id of def comes after an if, in a
// block around it, whose arm that truth takes leaves the function
// (`if mode == 'inference': ...; return fake` before the training
// path): with that truth, id does not run.
func afterTakenExit(f *File, def, id NodeID, truth func(cond NodeID) (bool, bool)) bool {
	for x := id; x != def && x != NoNode; x = f.Parent(x) {
		for s := f.FirstChild(f.Parent(x)); s != NoNode && s != x; s = f.N(s).NextSibling {
			if f.Kind(s) == KindIfStatement && takenArmExits(f, s, truth) {
				return true
			}
		}
	}
	return false
}

// takenArmExits reports whether truth decides which arm of the if
// statement runs, and that arm ends with a return or a raise.
func takenArmExits(f *File, stmt NodeID, truth func(cond NodeID) (bool, bool)) bool {
	v, known := truth(f.Field(stmt, FieldCondition))
	if !known {
		return false
	}
	if v {
		return exitsFunction(f, f.Field(stmt, FieldConsequence))
	}
	for c := f.FirstChild(stmt); c != NoNode; c = f.N(c).NextSibling {
		switch f.Kind(c) {
		case KindElifClause:
			v, known := truth(f.Field(c, FieldCondition))
			if !known {
				return false
			}
			if v {
				return exitsFunction(f, f.Field(c, FieldConsequence))
			}
		case KindElseClause:
			return exitsFunction(f, f.Field(c, FieldBody))
		}
	}
	return false
}

// exitsFunction reports whether a block ends with a return or a raise,
// directly or as the last statement of a with statement's body.
func exitsFunction(f *File, block NodeID) bool {
	last := lastStatement(f, block)
	switch f.Kind(last) {
	case KindReturnStatement, KindRaiseStatement:
		return true
	case KindWithStatement:
		return exitsFunction(f, f.Field(last, FieldBody))
	}
	return false
}

// FrozenAttr reports whether e, an attribute of an instance of a class of
// this file (`rnd_model.target`, `self.target`), names a module that
// the class's constructor freezes on every run (`for p in
// self.target.parameters(): p.requires_grad = False`), where no other
// method of the class turns requires_grad back on.
func (m *Model) FrozenAttr(e NodeID) bool {
	f := m.File
	e = f.Unparen(e)
	if f.Kind(e) != KindAttribute {
		return false
	}
	obj := f.Unparen(f.Field(e, FieldObject))
	class := NoNode
	if f.TextIs(obj, "self") {
		class = m.EnclosingClass(m.ScopeNode(e))
	} else if c := m.receiverClass(obj); f.Kind(c) == KindIdentifier {
		if b := m.Resolve(c); b != nil && b.Kind == BindClass {
			class = b.Stmt
		}
	}
	return class != NoNode && m.frozenAttrs(class)["self."+f.Text(f.Field(e, FieldAttribute))]
}

type frozenAttrsKey struct{ class NodeID }

// frozenAttrs returns the attributes of self ("self.target") that class's
// constructor freezes on every run (initFreezes), or none where another
// method of the class turns requires_grad back on; asked once per class,
// as every pass through an attribute asks it.
func (m *Model) frozenAttrs(class NodeID) map[string]bool {
	return m.Memo(frozenAttrsKey{class}, func() any {
		f := m.File
		init := m.MethodOf(class, "__init__")
		if init == NoNode {
			return map[string]bool(nil)
		}
		thawed := false
		f.Walk(f.Field(class, FieldBody), func(id NodeID) {
			if thawed || f.Contains(init, id) {
				return
			}
			switch f.Kind(id) {
			case KindCall:
				thawed = m.TurnsGradOn(id)
			case KindAssignment:
				left := f.Unparen(f.Field(id, FieldLeft))
				thawed = f.Kind(left) == KindAttribute && f.TextIs(f.Field(left, FieldAttribute), "requires_grad") &&
					f.Kind(f.Unparen(f.Field(id, FieldRight))) != KindFalse
			}
		})
		if thawed {
			return map[string]bool(nil)
		}
		return m.initFreezes(init)
	}).(map[string]bool)
}

// TurnsGradOn reports whether call is `x.requires_grad_()` or
// `x.requires_grad_(True)`: what x holds requires grad again.
func (m *Model) TurnsGradOn(call NodeID) bool {
	f := m.File
	if m.MethodName(call) != "requires_grad_" {
		return false
	}
	args := m.Args(call)
	return len(args) == 0 || f.Kind(f.Unparen(args[0])) == KindTrue
}
