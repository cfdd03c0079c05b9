package analyzer

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

type carryState uint8

const (
	carryNo carryState = iota
	carryYes
	carryBusy
)

// detachingMethods return a value without autograd history: a Python
// number, a NumPy array, a detached or integer tensor, a shape.
var detachingMethods = map[string]bool{
	"item": true, "tolist": true, "detach": true, "detach_": true, "numpy": true,
	"size": true, "dim": true, "numel": true, "nelement": true, "element_size": true,
	"data_ptr": true, "argmax": true, "argmin": true, "eq": true, "ne": true, "lt": true,
	"gt": true, "le": true, "ge": true, "long": true, "int": true, "bool": true, "short": true,
	"byte": true, "char": true, "backward": true, "isnan": true, "isinf": true,
	"isfinite": true, "all": true, "any": true, "equal": true, "is_contiguous": true,
	"stride": true, "nonzero": true, "count_nonzero": true, "get_device": true,
	"zero_": true, "__len__": true, "zeros_like": true, "argsort": true, "bincount": true,
	// Draws: indices, or samples that carry no gradient.
	"multinomial": true, "bernoulli": true,
}

// graphAttributes are the attributes of a tensor that are tensors with
// its graph.
var graphAttributes = map[string]bool{"T": true, "mT": true, "H": true, "mH": true, "real": true, "imag": true}

// nonGradAttributes are tensor attributes that carry no autograd history.
var nonGradAttributes = map[string]bool{
	"shape": true, "dtype": true, "device": true, "data": true, "grad": true,
	"requires_grad": true, "is_cuda": true, "ndim": true, "is_leaf": true, "grad_fn": true,
	"layout": true, "names": true, "is_sparse": true, "itemsize": true, "nbytes": true,
	// Counts that batch objects (a graph batch, a packed sequence) carry
	// beside their tensors.
	"batch_size": true, "batch_sizes": true, "num_graphs": true, "num_nodes": true, "num_edges": true,
}

// NonGradAttribute reports whether name is an attribute of a tensor (or
// of a batch object) that carries no autograd history: `x.shape`,
// `x.ndim`, `x.data`.
func NonGradAttribute(name string) bool { return nonGradAttributes[name] }

// nonDifferentiable are torch functions whose result has no history.
var nonDifferentiable = map[string]bool{
	"argmax": true, "argmin": true, "eq": true, "ne": true, "lt": true, "gt": true, "le": true,
	"ge": true, "isnan": true, "isinf": true, "isfinite": true, "equal": true, "numel": true,
	"is_tensor": true, "tensor": true, "zeros_like": true, "ones_like": true, "empty_like": true,
	"rand_like": true, "randn_like": true, "randint_like": true, "full_like": true, "nonzero": true,
	"count_nonzero": true, "bucketize": true, "searchsorted": true, "no_grad": true,
	"zeros": true, "ones": true, "empty": true, "arange": true, "randn": true, "rand": true,
	"randint": true, "randperm": true, "full": true, "eye": true, "linspace": true, "save": true,
	"load": true, "from_numpy": true, "manual_seed": true, "is_grad_enabled": true,
	"multinomial": true, "bernoulli": true, "poisson": true, "argsort": true, "unique": true,
	"unique_consecutive": true, "histc": true, "bincount": true,
	// The legacy constructors copy data into a new leaf, as `tensor` does.
	"Tensor": true, "FloatTensor": true, "DoubleTensor": true, "HalfTensor": true, "LongTensor": true,
	"IntTensor": true, "ShortTensor": true, "ByteTensor": true, "BoolTensor": true,
}

// castBuiltins turn a tensor into a plain Python value.
var castBuiltins = map[string]bool{"float": true, "int": true, "bool": true, "len": true, "str": true, "repr": true, "format": true}

// CarriesGraph reports whether the value of expr carries autograd history
// when it is evaluated: it comes from a forward pass or a loss computed
// with grad enabled, or from arithmetic on such a value, and was not
// detached on the way (`.item()`, `.detach()`, `float()`, ...). A name
// carries what its reaching assignment carries, so `loss = loss.item()`
// detaches loss from there on.
func (m *Model) CarriesGraph(expr NodeID) bool {
	if m.carries == nil {
		m.carries = make(map[NodeID]carryState)
	}
	return m.carry(expr) == carryYes
}

func (m *Model) carry(expr NodeID) carryState {
	if expr == NoNode {
		return carryNo
	}
	if s, ok := m.carries[expr]; ok {
		if s == carryBusy {
			return carryNo
		}
		return m.carryHit(s)
	}
	m.carries[expr] = carryBusy
	n := m.factReads
	s := carryNo
	if m.computeCarry(expr) {
		s = carryYes
	}
	m.carries[expr] = m.carryStore(s, n)
	return s
}

func (m *Model) computeCarry(expr NodeID) bool {
	f := m.File
	switch f.Kind(expr) {
	case KindParenthesizedExpression, KindAwait:
		return m.carry(f.FirstChild(expr)) == carryYes
	case KindNamedExpression:
		return m.carry(f.Field(expr, FieldValue)) == carryYes
	case KindIdentifier:
		return m.nameCarries(expr)
	case KindAttribute:
		if nonGradAttributes[f.Text(f.Field(expr, FieldAttribute))] {
			return false
		}
		if f.TextIs(f.Field(expr, FieldAttribute), "indices") && m.returnsIndices(f.Unparen(f.Field(expr, FieldObject))) {
			return false // `torch.max(x, 1).indices`
		}
		if obj := f.Field(expr, FieldObject); !graphAttributes[f.Text(f.Field(expr, FieldAttribute))] && m.carriesOnlyByUse(obj) {
			// `loss.backward()` shows loss is back-propagated, not that
			// it is a tensor: `loss.value` is no tensor's attribute, but
			// another library's node's (a NumPy autograd's array).
			return false
		}
		return m.carry(f.Field(expr, FieldObject)) == carryYes
	case KindSubscript:
		if v := f.Unparen(f.Field(expr, FieldValue)); f.TextIs(f.Field(expr, FieldSubscript), "1") && m.returnsIndices(v) {
			return false // `torch.topk(x, k)[1]`: the indices
		}
		if carries, known := m.tupleElement(expr); known {
			return carries
		}
		if m.entriesConverted(expr) {
			return false
		}
		if carries, known := m.entryCarries(f.Field(expr, FieldValue), f.Field(expr, FieldSubscript), expr); known {
			return carries
		}
		return m.carry(f.Field(expr, FieldValue)) == carryYes
	case KindCall:
		if args := m.Args(expr); m.MethodName(expr) == "get" && len(args) > 0 && len(args) <= 2 {
			// `d.get("acc", 0.0)`: the entry, or the default.
			if carries, known := m.entryCarries(m.Receiver(expr), args[0], expr); known && (len(args) == 1 || m.carry(args[1]) != carryYes) {
				return carries
			}
		}
		return m.callCarries(expr)
	case KindBinaryOperator:
		// The grad mode last, as in callCarries.
		return (m.carry(f.Field(expr, FieldLeft)) == carryYes || m.carry(f.Field(expr, FieldRight)) == carryYes) &&
			m.GradModeAt(expr) != GradDisabled
	case KindUnaryOperator:
		return m.carry(f.Field(expr, FieldArgument)) == carryYes && m.GradModeAt(expr) != GradDisabled
	case KindConditionalExpression:
		kids := f.ChildList(expr)
		if len(kids) != 3 {
			return false
		}
		// `x if isinstance(x, int) else x.item()`: the guarded branch is a
		// Python number.
		// `x.item() if isinstance(x, torch.Tensor) else x`: the other
		// branch is not a tensor.
		return !numberGuard(m, kids[1], kids[0]) && m.carry(kids[0]) == carryYes ||
			!tensorGuard(m, kids[1], kids[2]) && !madeTensorUnder(m, kids[1], kids[2]) && m.carry(kids[2]) == carryYes
	case KindList, KindTuple, KindExpressionList, KindSet:
		any := false
		f.Children(expr, func(c NodeID) bool {
			any = m.carry(c) == carryYes
			return !any
		})
		return any
	case KindListComprehension, KindGeneratorExpression:
		return m.carry(f.Field(expr, FieldBody)) == carryYes
	}
	return false
}

// nameCarries follows a name to the bindings that may reach it: one
// that carries a graph is enough (`loss` bound in a training arm, and
// again under no_grad in an evaluation arm, then summed after both).
func (m *Model) nameCarries(id NodeID) bool {
	b := m.Resolve(id)
	if b == nil {
		return false
	}
	if m.bindingCarries(id, b) {
		return true
	}
	if b.Kind != BindAssign || b.Scope != m.scopeOf[id] {
		return false
	}
	for _, o := range m.ReachingBindings(id) {
		if o != b && o.Kind == BindAssign && !o.Unpacked && m.bindingCarries(id, o) {
			return true
		}
	}
	return false
}

// bindingCarries reports whether the value binding b gives the name id
// carries a graph.
func (m *Model) bindingCarries(id NodeID, b *Binding) bool {
	if b.Kind == BindAssign && b.Unpacked && m.elementWithoutGraph(m.File.Unparen(b.Value), b.Index) {
		// `Lx, Lu, w = criterion(...)`, where every function criterion
		// may be returns a plain number there: no graph, whatever the
		// loss it is a factor of shows.
		return false
	}
	if b.Kind == BindAssign && !b.Unpacked && m.lossOfCutPrediction(m.File.Unparen(b.Value)) {
		// `edge_loss = edge(pred, gray)`, a loss of the project whose
		// forward cuts the prediction's graph: summed into a loss that
		// is back-propagated, it adds none.
		return false
	}
	if m.ev().graph[b] {
		return true // back-propagated, or computed into what is
	}
	if v := m.File.Unparen(b.Value); b.Kind == BindAssign && b.Unpacked && m.besideLoss(b) && m.passedFunctions(v) == nil &&
		(m.File.Kind(v) != KindCall || !m.elementFedBy(v, m.calleeRef(v), b.Index)) {
		return false // a count or a logged value unpacked with the loss, not a term its function computes from a graph it is given
	}
	switch b.Kind {
	case BindAssign, BindWithTarget, BindLoopTarget:
		if b.Unpacked && b.Kind == BindAssign {
			return m.elementCarries(b.Value, b.Index)
		}
		return m.carry(b.Value) == carryYes
	case BindAugAssign:
		return m.augCarries(m.File.Text(id), b, 0)
	}
	return false
}

// augCarries reports whether `name op= value` leaves name carrying
// history: the value does, or the binding before it did (following a
// chain such as `loss /= n; loss *= w`).
func (m *Model) augCarries(name string, b *Binding, depth int) bool {
	if m.carry(b.Value) == carryYes && m.GradModeAt(b.Stmt) != GradDisabled {
		return true
	}
	prior := m.ResolveName(name, m.scopeOf[b.Stmt], m.File.N(b.Stmt).Start)
	switch {
	case prior == nil || prior == b || depth > 64:
		return false
	case prior.Kind == BindAugAssign:
		return m.augCarries(name, prior, depth+1)
	case prior.Unpacked && prior.Kind == BindAssign:
		return m.elementCarries(prior.Value, prior.Index)
	}
	return prior.Kind != BindParam && m.carry(prior.Value) == carryYes
}

// gradOffByArg reports whether call runs a function of the file whose
// every forward pass runs under `with torch.set_grad_enabled(flag):`,
// flag one of its parameters, and gives flag False (by argument or by
// its default): `self.evaluate(batch, track_gradient=False)`. What it
// returns then has a graph only through what the call passes it.
func (m *Model) gradOffByArg(call NodeID) (def NodeID, off bool) {
	f := m.File
	if !m.hasGradSwitchCall {
		return NoNode, false
	}
	def = m.LocalCallee(call)
	if def == NoNode {
		return NoNode, false
	}
	flag := m.Memo(gradFlagKey{def}, func() any { return m.gradFlag(def) }).(string)
	if flag == "" {
		return NoNode, false
	}
	v, ok := m.argOrDefault(call, def, flag)
	return def, ok && f.Kind(f.Unparen(v)) == KindFalse
}

type gradFlagKey struct{ def NodeID }

// gradFlag returns the parameter of def under whose `with
// torch.set_grad_enabled(param):` every forward pass of def runs (one at
// least), or "".
func (m *Model) gradFlag(def NodeID) string {
	f := m.File
	flag, passes, ok := "", 0, true
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if !ok || f.Kind(id) != KindCall || m.ScopeNode(id) != def || !m.IsForwardCall(id) {
			return
		}
		passes++
		under := ""
		for p := f.Parent(id); p != NoNode && p != def && under == ""; p = f.Parent(p) {
			if f.Kind(p) != KindWithStatement || !f.Contains(f.Field(p, FieldBody), id) {
				continue
			}
			for _, c := range withItemValues(f, p) {
				if c = f.Unparen(c); f.Kind(c) != KindCall || m.CallName(c) != "torch.set_grad_enabled" {
					continue
				}
				if args := m.Args(c); len(args) == 1 && f.Kind(f.Unparen(args[0])) == KindIdentifier {
					if b := m.Resolve(f.Unparen(args[0])); b != nil && b.Kind == BindParam && b.Scope == m.scopeOf[id] {
						under = f.Text(f.Unparen(args[0]))
					}
				}
			}
		}
		if under == "" || flag != "" && under != flag {
			ok = false
			return
		}
		flag = under
	})
	if !ok || passes == 0 {
		return ""
	}
	return flag
}

func (m *Model) callCarries(call NodeID) bool {
	method := m.MethodName(call)
	if detachingMethods[method] || m.scalarResult(call) {
		return false
	}
	q := m.CallName(call)
	if castBuiltins[q] || strings.HasPrefix(q, "math.") || strings.HasPrefix(q, "numpy.") {
		return false
	}
	if (method == "sample" || method == "sample_n" || method == "enumerate_support") && m.drawnFrom(m.Receiver(call)) {
		return false // a draw is not differentiable (rsample is)
	}
	// The grad mode is asked last: it may be set by the function's
	// callers in other files, and a file is linted again when such an
	// answer changes, so it is asked only of a call that would carry a
	// graph with grad enabled.
	return m.callCarriesWithGrad(call, method, q) && m.GradModeAt(call) != GradDisabled
}

// callCarriesWithGrad is callCarries for a call run with grad enabled.
func (m *Model) callCarriesWithGrad(call NodeID, method, q string) bool {
	f := m.File
	if def, off := m.gradOffByArg(call); off {
		return m.argFeedsResult(call, def)
	}
	if m.IsForwardCall(call) {
		if fn := f.Field(call, FieldFunction); method == "" && (m.NoGraphValue(fn) || m.NoGraphParam(fn) || m.NoGraphCall(call)) {
			// A module that records no graph of its own (frozen, or
			// without parameters): the graph its input has, if any,
			// given by position or by keyword.
			return m.anyArgCarries(call)
		}
		// A module's method other than its forward (`adv.generator(d)` of
		// a loss module) that runs no model has the graph of what it is
		// given.
		return method == "" || method == "forward" || !m.runsNoModel(call, m.calleeRef(call))
	}
	if method == "" && m.freeLayerCall(call) {
		// A layer with no parameters (`act = nn.LogSoftmax(dim=1)`, a
		// transform): no forward pass of a model, but its output has the
		// graph its input has.
		return m.anyArgCarries(call)
	}
	if m.IsLossCall(call) {
		// The prediction comes first; a loss of a prediction that may
		// carry history (a parameter, an unknown value) is assumed to,
		// unless the loss is a class of the project whose forward ends
		// the prediction's graph (`pred.argmax(1)`): then only what its
		// other arguments carry.
		if m.lossCutsPrediction(call) {
			return m.laterArgsCarry(call)
		}
		args := m.Args(call)
		return len(args) > 0 && m.mayCarry(args[0], 0)
	}
	if q == "torch.autograd.grad" {
		// Gradients carry history only when asked to, for a
		// higher-order derivative.
		return f.Kind(m.Keyword(call, "create_graph")) == KindTrue
	}
	if name, ok := strings.CutPrefix(q, "torch."); ok {
		if nonDifferentiable[name] || strings.HasPrefix(name, "cuda.") || strings.HasPrefix(name, "distributed.") {
			return false
		}
		// Keyword arguments too: `Categorical(logits=policy(obs))`.
		return m.anyArgCarries(call)
	}
	if q != "" {
		// A function of another file of the project. Its parameters are
		// asked about only when a graph is passed: an answer that can
		// change is a question whose change re-lints the file.
		ref := m.calleeRef(call)
		feeds := slices.ContainsFunc(m.Args(call), m.argFeeds)
		if o := m.lookup(ref, WantReturns); o != nil && o.ReturnsGraph {
			return !m.runsNoModel(call, ref)
		}
		if !feeds {
			return false
		}
		o := m.lookup(ref, WantParams)
		return o != nil && m.argsFeed(call, o.GraphParams)
	}
	if def := m.LocalCallee(call); def != NoNode {
		if m.ev().returnsGraph[def] || m.argFeedsResult(call, def) {
			return true
		}
		if m.argCount(call) > 0 && !m.runsOwnForward(def) && !m.anyArgCarries(call) {
			// A loss helper (`adv.compute(d_fake)`, `self.loss.get_loss(pred=out,
			// ground_truth=y)`) runs no model: its result has the graph of
			// the arguments it is given, by position or keyword, and these
			// have none.
			return false
		}
		if m.returnsGraph(def) {
			return true
		}
		o := m.lookup(m.localRef(def), WantReturns)
		return o != nil && o.ReturnsGraph
	}
	if method != "" {
		if k, ok := m.calleeKey(f.Field(call, FieldFunction)); ok && m.ev().producers[k.name] {
			// Back-propagated elsewhere, so the method can return a graph;
			// one of a project class that runs no model
			// (`adv.forward_G(d_fake)` after no_grad) returns the graph of
			// its arguments only.
			return !m.runsNoModel(call, m.calleeRef(call))
		}
		if ref, def := m.instanceMethod(f.Unparen(f.Field(call, FieldFunction))); def == NoNode && ref != "" &&
			!strings.HasPrefix(ref, "#") && m.lookup(ref, WantKind) != nil {
			// A method of a class of another file: its summary says
			// whether it returns a graph, whatever its object has been
			// used for (`gcam.backward()`, then `gcam.generate()`).
			if o := m.lookup(ref, WantReturns); o != nil && o.ReturnsGraph {
				return !m.runsNoModel(call, ref)
			}
			o := m.lookup(ref, WantParams)
			return o != nil && m.argsFeed(call, o.GraphParams)
		}
		recv := m.Receiver(call)
		if !tensorMethod(method) && m.carriesOnlyByUse(recv) {
			// `crit.backward()` shows crit is back-propagated, not
			// that it is a tensor: `crit.value()` is its own method.
			return false
		}
		return m.carry(recv) == carryYes
	}
	return false
}

// FreeLayerCall reports whether call calls a layer that has no
// parameters (freeLayerCall): its output has the graph its input has.
func (m *Model) FreeLayerCall(call NodeID) bool { return m.freeLayerCall(call) }

// freeLayerCall reports whether call calls a layer that has no
// parameters: an instance of such a class of this file (parameterFree),
// or a name or an attribute of self bound to the construction of such a
// torch layer (freeLayer), or that construction itself
// (`nn.ReLU()(x)`).
func (m *Model) freeLayerCall(call NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if m.parameterFree(fn) {
		return true
	}
	v := fn
	if k := f.Kind(fn); k == KindIdentifier || k == KindAttribute {
		if v = m.BoundValue(fn); v == NoNode {
			return false
		}
		v = f.Unparen(v)
	}
	return f.Kind(v) == KindCall && m.freeLayer(v)
}

// BoundValue returns the value a name, or an attribute of self assigned
// once in its class, is bound to; NoNode when not known.
func (m *Model) BoundValue(e NodeID) NodeID {
	f := m.File
	switch f.Kind(e) {
	case KindIdentifier:
		if b := m.Resolve(e); b != nil && b.Kind == BindAssign && !b.Unpacked {
			return b.Value
		}
	case KindAttribute:
		if f.TextIs(f.Field(e, FieldObject), "self") {
			return m.SelfAttrOnce(e)
		}
	}
	return NoNode
}

// argCount returns how many arguments call passes, by position or by
// keyword, splats (`*args`, `**kwargs`) aside.
func (m *Model) argCount(call NodeID) (n int) {
	for _, a := range argKinds(m.File, call) {
		if a != "*" {
			n++
		}
	}
	return n
}

// anyArgCarries reports whether an argument of call, by position or by
// keyword, carries a graph.
func (m *Model) anyArgCarries(call NodeID) bool {
	f := m.File
	carries := false
	f.Children(f.Field(call, FieldArguments), func(a NodeID) bool {
		if f.Kind(a) == KindKeywordArgument {
			a = f.Field(a, FieldValue)
		}
		carries = m.carry(a) == carryYes
		return !carries
	})
	return carries
}

// lossOfCutPrediction reports whether v is a call of a loss of the
// project whose forward ends its prediction's graph, given no other
// argument that carries one.
func (m *Model) lossOfCutPrediction(v NodeID) bool {
	return m.File.Kind(v) == KindCall && m.IsLossCall(v) && m.lossCutsPrediction(v) && !m.laterArgsCarry(v)
}

// laterArgsCarry reports whether an argument of call after the first
// carries a graph.
func (m *Model) laterArgsCarry(call NodeID) bool {
	args := m.Args(call)
	return slices.ContainsFunc(args[min(1, len(args)):], func(a NodeID) bool { return m.carry(a) == carryYes })
}

// lossCutsPrediction reports whether call calls an instance of a class of
// the project, of this file or another, whose forward ends the graph of
// its first argument on every use (CutParams).
func (m *Model) lossCutsPrediction(call NodeID) bool {
	f := m.File
	class := m.calledClass(call)
	if class == NoNode {
		return false
	}
	if b := m.Resolve(class); f.Kind(class) == KindIdentifier && b != nil && b.Kind == BindClass {
		def := m.MethodOf(b.Stmt, "forward")
		return def != NoNode && slices.Contains(m.CutParams(def), 0)
	}
	q := m.QualifiedName(class)
	if q == "" || isLibraryName(q) {
		return false
	}
	o := m.lookup(q+".forward", WantParams)
	return o != nil && slices.Contains(o.CutParams, 0)
}

// isDistribution reports whether e is a torch.distributions object
// (`dist = Categorical(logits=out)`), directly or through the name it
// was assigned to.
func (m *Model) isDistribution(e NodeID) bool {
	f := m.File
	e = f.Unparen(e)
	if f.Kind(e) == KindIdentifier {
		e = f.Unparen(m.AssignedValue(e))
	}
	return f.Kind(e) == KindCall && strings.HasPrefix(m.CallName(e), "torch.distributions.")
}

// drawnFrom reports whether a draw (`x.sample()`) is of a distribution:
// a torch.distributions object (isDistribution), or what a forward pass
// returns (`dist, value = model(state)`, `dist = policy(state)`), which
// is tensors, or a distribution where it is sampled: a tensor has no
// `sample` method.
func (m *Model) drawnFrom(recv NodeID) bool {
	f := m.File
	if m.isDistribution(recv) {
		return true
	}
	e := f.Unparen(recv)
	if f.Kind(e) == KindIdentifier {
		b := m.Resolve(e)
		if b == nil || b.Kind != BindAssign {
			return false
		}
		e = f.Unparen(b.Value)
	}
	return f.Kind(e) == KindCall && m.MethodName(e) == "" && m.IsForwardCall(e)
}

// carriesOnlyByUse reports whether e is a name whose only sign of a
// graph is what the code does with it: a parameter, a name this file
// does not bind, or a name bound to a value that shows no graph of its
// own (`batch_loss = dy.esum(losses) / n`, another library's), that is
// back-propagated.
func (m *Model) carriesOnlyByUse(e NodeID) bool {
	e = m.File.Unparen(e)
	if m.File.Kind(e) != KindIdentifier {
		return false
	}
	b := m.Resolve(e)
	return b == nil || b.Kind == BindParam || b.Kind == BindAssign && !b.Unpacked && m.carry(b.Value) != carryYes
}

// TensorMethod reports whether name is a method of a tensor whose result
// is a tensor computed from it (`mm`, `expand_as`, `softmax`), keeping its
// graph.
func TensorMethod(name string) bool { return tensorMethod(name) }

// tensorMethod reports whether a method is one of torch.Tensor's that
// returns a tensor computed from the receiver.
func tensorMethod(name string) bool {
	return graphPreserving[name] || shapeMethods[name] || moreTensorMethods[name]
}

var moreTensorMethods = map[string]bool{
	"clone": true, "topk": true, "sort": true, "where": true, "masked_select": true, "index_fill": true,
	"scatter": true, "scatter_add": true, "repeat_interleave": true, "narrow": true, "select": true,
	"unbind": true, "roll": true, "flip": true, "tril": true, "triu": true, "diag": true, "mm": true,
	"bmm": true, "dot": true, "outer": true, "ger": true, "sin": true, "cos": true, "floor": true, "ceil": true,
	"round": true, "sign": true, "reciprocal": true, "rsqrt": true, "log1p": true, "expm1": true,
	"pow_": true, "clamp_": true, "sub_": true, "amax": true, "amin": true, "cumprod": true, "lerp": true,
	"log2": true, "log10": true, "softplus": true, "gelu": true, "baddbmm": true, "addmm": true, "einsum": true,
	"unfold": true, "movedim": true, "swapaxes": true, "index_add": true, "masked_scatter": true,
	"nan_to_num": true, "clip": true, "maximum": true, "minimum": true, "fmax": true, "fmin": true, "erf": true,
	"erfc": true, "trunc": true, "frac": true, "diff": true, "addcmul": true, "addcdiv": true, "fmod": true,
	"remainder": true, "hypot": true, "atan2": true, "logaddexp": true, "logit": true, "xlogy": true,
	"nansum": true, "nanmean": true, "logcumsumexp": true, "cummax": true, "cummin": true, "kthvalue": true,
	"median": true, "quantile": true, "renorm": true, "lgamma": true, "digamma": true, "sinh": true, "cosh": true,
	"asin": true, "acos": true, "atan": true, "tan": true, "neg": true, "negative": true, "absolute": true,
	"square": true, "float_power": true, "true_divide": true, "multiply": true, "subtract": true, "divide": true,
	"to_dense": true, "coalesce": true, "masked_fill_": true, "index_put": true, "take": true, "take_along_dim": true,
	"tile": true, "expand": true, "broadcast_to": true, "squeeze_": true, "unsqueeze_": true, "requires_grad_": true,
}

// indexTuples are torch functions and tensor methods that return a
// (values, indices) pair; the indices carry no history.
var indexTuples = map[string]bool{
	"topk": true, "sort": true, "kthvalue": true, "mode": true, "median": true, "max": true, "min": true,
	"cummax": true, "cummin": true, "unique": true,
}

// returnsIndices reports whether call returns a (values, indices) pair:
// `torch.topk(x, k)`, `x.sort()`, `x.max(dim=1)`.
func (m *Model) returnsIndices(call NodeID) bool {
	f := m.File
	if f.Kind(call) != KindCall {
		return false
	}
	name := m.MethodName(call)
	if q := m.CallName(call); q != "" {
		var ok bool
		if name, ok = strings.CutPrefix(q, "torch."); !ok {
			return false
		}
	}
	if !indexTuples[name] {
		return false
	}
	if name == "max" || name == "min" || name == "median" || name == "mode" {
		// Without a dimension these return one tensor.
		n := len(m.Args(call))
		if m.CallName(call) != "" {
			n--
		}
		return n >= 1 || m.Keyword(call, "dim") != NoNode
	}
	return true
}

// mayCarry is CarriesGraph, except that a value this file cannot see the
// origin of (a parameter, a loop over one, a global from elsewhere) may
// carry history.
func (m *Model) mayCarry(e NodeID, depth int) bool {
	f := m.File
	if m.carry(e) == carryYes {
		return true
	}
	if depth > 8 {
		return false
	}
	e = f.Unparen(e)
	switch f.Kind(e) {
	case KindIdentifier:
		b := m.Resolve(e)
		switch {
		case b == nil:
			return !builtinNames[f.Text(e)]
		case b.Kind == BindParam:
			return true
		case b.Kind == BindLoopTarget:
			return m.mayCarry(b.Value, depth+1)
		}
	case KindAttribute:
		if nonGradAttributes[f.Text(f.Field(e, FieldAttribute))] {
			return false
		}
		return m.mayCarry(f.Field(e, FieldObject), depth+1)
	case KindSubscript:
		return m.mayCarry(f.Field(e, FieldValue), depth+1)
	}
	return false
}

// modelClassOf returns the class expression the callee of call is an
// instance of (calledClass), or, for a parameter called (`result, loss =
// model(x)` in `def val_epoch(model, ...)`), the class, of this file or
// imported, that every call of its function passes an instance of.
func (m *Model) modelClassOf(call NodeID) NodeID {
	f := m.File
	class := m.calledClass(call)
	if fn := f.Unparen(f.Field(call, FieldFunction)); class == NoNode && f.Kind(fn) == KindIdentifier {
		if b := m.Resolve(fn); b != nil && b.Kind == BindParam {
			class = m.paramImportedClass(b)
		}
	}
	return class
}

// UnsummarizedForwardElement returns, for a name unpacked from a call of
// a model whose class another file of the project defines (`result, loss
// = model(x)`, model made by `Detector(...)` or handed in by every call),
// the ref of that class's forward where the project does not know where
// in its tuple the graph is: the element is then taken to carry one on
// trust. "" otherwise.
func (m *Model) UnsummarizedForwardElement(value NodeID) string {
	f := m.File
	v := f.Unparen(value)
	if f.Kind(v) != KindIdentifier {
		return ""
	}
	b := m.Resolve(v)
	if b == nil || b.Kind != BindAssign || !b.Unpacked || b.Index < 0 {
		return ""
	}
	call := f.Unparen(b.Value)
	if f.Kind(call) != KindCall || !m.IsForwardCall(call) {
		return ""
	}
	fref, def := m.classMethod(m.modelClassOf(call), "forward")
	if fref == "" || def != NoNode {
		return ""
	}
	if o := m.lookup(fref, WantKind); o == nil || o.Kind != ObjectFunction {
		return "" // not a function the project defines
	}
	if o := m.lookup(fref, WantReturns); o != nil && o.TupleLen > 0 {
		return "" // the tuple's summary says where the graph is
	}
	return fref
}

// elementCarries reports whether element index of the unpacked value
// carries history (index -1: some element, position unknown). A loss
// function's tuple carries the loss first and logging values after it; a
// local function is asked position by position.
func (m *Model) elementCarries(value NodeID, index int) bool {
	return m.elementCarriesDepth(value, index, 0)
}

func (m *Model) elementCarriesDepth(value NodeID, index, depth int) bool {
	f := m.File
	v := f.Unparen(value)
	switch f.Kind(v) {
	case KindIdentifier:
		// outputs = loss_func(x); loss, n, logs = outputs
		if v := m.AssignedValue(v); depth < 8 && v != NoNode {
			return m.elementCarriesDepth(v, index, depth+1)
		}
	case KindTuple, KindExpressionList, KindList:
		if index >= 0 || index <= -2 {
			kids := f.ChildList(v)
			if i := elementPos(index, len(kids)); i >= 0 {
				return m.carry(kids[i]) == carryYes
			}
			return false
		}
	case KindCall:
		if detachingMethods[m.MethodName(v)] || index == 1 && m.returnsIndices(v) {
			return false
		}
		// The grad mode last, as in callCarries.
		return m.callElementCarries(v, index) && m.GradModeAt(v) != GradDisabled
	}
	return m.carry(value) == carryYes
}

// callElementCarries is elementCarries for a call run with grad enabled.
func (m *Model) callElementCarries(v NodeID, index int) bool {
	if def, off := m.gradOffByArg(v); off {
		return index != -1 && m.argsFeed(v, m.paramsReaching(def, m.positionalParams(def), m.elementValues(def, index)))
	}
	if fns := m.passedFunctions(v); fns != nil && index != -1 {
		// `loss, rec, kld = loss_fn(...)` with loss_fn a parameter
		// given a function, or made by a factory.
		return m.passedElementCarries(v, fns, index)
	}
	if m.IsLossCall(v) && !m.IsForwardCall(v) {
		if m.predictionTuple(v) {
			// `recon, mu = model(x)`, recon given to a loss: a model's
			// outputs, of one forward pass, not a loss and its logs.
			return true
		}
		if def := m.lossForward(v); def != NoNode && index != -1 {
			// `loss, loc_loss, cls_loss = criterion(...)`, criterion
			// an instance of a loss class of this file: its forward's
			// tuple says which terms hold the graph of what it is
			// given (and which are counts or accuracies).
			return m.passedElementCarries(v, []calledFunction{{def: def}}, index)
		}
		if index > 0 && m.elementFedBy(v, m.calleeRef(v), index) {
			// `loss, mf, emb = model.bpr_loss(u, i, j)`: a term of the
			// loss as well as the loss, where the embeddings carry a graph.
			return true
		}
		return index <= 0 && m.carry(v) == carryYes
	}
	if def := m.LocalCallee(v); def != NoNode && index != -1 {
		return m.passedElementCarries(v, []calledFunction{{def: def}}, index)
	}
	ref := m.calleeRef(v)
	if ref == "" && index != -1 {
		// `action, value = agent(state)`, agent an instance of a class
		// the project defines: its forward's tuple says where the
		// graph is (`return action.numpy()[0], self.v(h)`).
		if fref, def := m.classMethod(m.modelClassOf(v), "forward"); def != NoNode {
			return m.passedElementCarries(v, []calledFunction{{def: def}}, index)
		} else if fref != "" {
			ref = fref
		}
	}
	if m.runsNoModel(v, ref) {
		return false // a loss helper's tuple, of values without a graph
	}
	o := m.lookup(ref, WantReturns)
	if o != nil && o.TupleLen > 0 {
		// A project function's tuple, whose summary says where the
		// graph is, or which elements take what it is given.
		i := elementPos(index, o.TupleLen)
		return i >= 0 && slices.Contains(o.GraphElems, i) || m.elementFedBy(v, ref, index)
	}
	if m.elementFedBy(v, ref, index) {
		return true
	}
	if o != nil && index != 0 {
		// Its summary says whether it returns a graph, not where; a
		// loss comes first, counts and logs after it.
		return false
	}
	return m.carry(v) == carryYes
}

// lossForward returns the forward of the loss class of this file that
// call calls an instance of, where it returns a tuple; NoNode otherwise.
func (m *Model) lossForward(call NodeID) NodeID {
	_, def := m.classMethod(m.modelClassOf(call), "forward")
	if def == NoNode {
		return NoNode
	}
	if m.tupleShape(def) < 2 {
		return NoNode
	}
	return def
}

// tupleShape returns the length of the tuple every return of def gives,
// 0 where they do not all give one of the same length.
func (m *Model) tupleShape(def NodeID) int {
	f := m.File
	n := 0
	for _, v := range m.ReturnValues(def) {
		v = f.Unparen(v)
		if k := f.Kind(v); k != KindExpressionList && k != KindTuple {
			return 0
		}
		kids := f.ChildList(v)
		if n != 0 && len(kids) != n || slices.ContainsFunc(kids, func(k NodeID) bool { return f.Kind(k) == KindListSplat }) {
			return 0
		}
		n = len(kids)
	}
	return n
}

// plainElementOf is plainElement for the function of this file that
// call calls (`self._calc_loss(pred, y)` of a method of the class).
func (m *Model) plainElementOf(call NodeID, index int) bool {
	def := m.LocalCallee(call)
	return def != NoNode && index >= 0 && plainElement(m.File, def, index)
}

// plainElement reports whether the return annotation of def says that
// element index of its tuple is a number, a flag or a string
// (`-> tuple[Tensor, float]`), which holds no graph.
func plainElement(f *File, def NodeID, index int) bool {
	t := f.FirstChild(f.Field(def, FieldReturnType))
	kids := f.ChildList(t)
	if f.Kind(t) != KindGenericType || len(kids) != 2 {
		return false
	}
	switch f.Text(kids[0]) {
	case "tuple", "Tuple":
	default:
		return false
	}
	elems := f.ChildList(kids[1])
	if i := elementPos(index, len(elems)); i >= 0 {
		switch f.Text(elems[i]) {
		case "float", "int", "bool", "str":
			return true
		}
	}
	return false
}

// elementPos turns a Binding.Index into a position among n elements: 0, 1,
// ... from the start; -2, -3, ... from the end (after a starred target).
// It returns -1 when the position does not exist.
func elementPos(index, n int) int {
	i := index
	if index <= -2 {
		i = n + index + 1
	}
	if i < 0 || i >= n {
		return -1
	}
	return i
}

// returnsGraphAt reports whether some return statement of a local
// function returns a tuple whose element index carries history.
func (m *Model) returnsGraphAt(def NodeID, index int) bool {
	f := m.File
	for _, v := range m.ReturnValues(def) {
		v = f.Unparen(v)
		switch f.Kind(v) {
		case KindExpressionList, KindTuple:
			kids := f.ChildList(v)
			if i := elementPos(index, len(kids)); i >= 0 && m.carry(kids[i]) == carryYes {
				return true
			}
		default:
			if v != NoNode && m.carry(v) == carryYes {
				return true
			}
		}
	}
	return false
}

type returnValuesKey struct{ def NodeID }

// ReturnValues returns the values of the return statements of def itself
// (not of the functions nested in it), in source order: NoNode for a
// bare `return`.
func (m *Model) ReturnValues(def NodeID) []NodeID {
	return m.Memo(returnValuesKey{def}, func() any {
		f := m.File
		var out []NodeID
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if f.Kind(id) == KindReturnStatement && m.EnclosingFunction(id) == def {
				out = append(out, f.FirstChild(id))
			}
		})
		return out
	}).([]NodeID)
}

// Detaches reports whether calling a tensor method of this name gives a
// value without its autograd history (`detach`, `item`, `argmax`).
func Detaches(method string) bool { return detachingMethods[method] }

// scalarResult reports whether a call calls a function of this file
// whose return annotation is a Python scalar type (`-> float`): a
// coefficient, a count, a flag, never a tensor.
func (m *Model) scalarResult(call NodeID) bool {
	f := m.File
	def := m.LocalCallee(call)
	return def != NoNode && scalarType(f, f.Field(def, FieldReturnType))
}

// scalarType reports whether an annotation names a Python scalar type:
// float, int, bool or str.
func scalarType(f *File, t NodeID) bool {
	switch f.Text(f.Unparen(t)) {
	case "float", "int", "bool", "str":
		return true
	}
	return false
}

// bodyOf returns the function a call of this file runs: a local function
// or method, or the forward (else __call__) of an instance of a class of
// this file, or of the class every call of the file passes for the
// parameter called. NoNode when the file does not define it.
func (m *Model) bodyOf(call NodeID) NodeID {
	if def := m.LocalCallee(call); def != NoNode {
		return def
	}
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	class := m.receiverClass(fn)
	if b := m.Resolve(fn); class == NoNode && f.Kind(fn) == KindIdentifier && b != nil && b.Kind == BindParam {
		// `crit(out, y)` in `def train(model, loader, crit)`, where every
		// call of the file passes an instance of one class of the file.
		class = m.paramClass(b, 0)
	}
	if class == NoNode || f.Kind(class) != KindIdentifier {
		return NoNode
	}
	cb := m.Resolve(class)
	if cb == nil || cb.Kind != BindClass {
		return NoNode
	}
	if def := m.MethodOf(cb.Stmt, "forward"); def != NoNode {
		return def
	}
	return m.MethodOf(cb.Stmt, "__call__")
}

// entryCarries answers for `d["key"]` or `d.get("key")` (d and key given,
// at the use) what dictEntry knows of the entry: known is false when it
// knows nothing.
func (m *Model) entryCarries(d, key, at NodeID) (carries, known bool) {
	f := m.File
	vals, call, def := m.dictEntry(d, key, at)
	switch {
	case vals == nil:
		return false, false
	case call == NoNode:
		// `d["loss"]` of a dict literal of this function.
		return slices.ContainsFunc(vals, func(v NodeID) bool { return m.carry(v) == carryYes }), true
	}
	// `out["acc"]` of a local function that returns `{"loss": loss,
	// "acc": acc.item(), "w": self.w * n}`: whatever the other entries
	// hold, this one has a graph only where its own values do, in the
	// callee or through the arguments the call gives the parameters they
	// derive from.
	params := m.positionalParams(def)
	// Only arguments by position are matched with parameters.
	args := m.Args(call)
	byPosition := len(args) == len(f.ChildList(f.Field(call, FieldArguments))) &&
		!slices.ContainsFunc(args, func(a NodeID) bool { return f.Kind(a) == KindListSplat })
	for _, v := range vals {
		if !m.plainValue(v, 0) && (!byPosition || m.carry(v) == carryYes || m.argsFeed(call, m.paramsReaching(def, params, []NodeID{v}))) {
			return m.carry(d) == carryYes, true
		}
	}
	return false, true
}

// dictEntry returns the values that entry key of d (`d["key"]`, used at
// at) can hold, or nil where it cannot tell: when d is a dict literal of
// this function, its entry and the `d["key"] = v` before the use; when d
// is the result of a call of a function of this file (`d = crit(out,
// y)`, or the call itself) whose every return is a dict literal with
// that key, or a name bound to one and filled by `d["key"] = v` there
// (call and def are then that call and its function: the values are in
// def's scope).
func (m *Model) dictEntry(d, key, at NodeID) (vals []NodeID, call, def NodeID) {
	f := m.File
	key = f.Unparen(key)
	if f.Kind(key) != KindString || strings.HasPrefix(f.Text(key), "f") {
		return nil, NoNode, NoNode
	}
	v := f.Unparen(d)
	if f.Kind(v) == KindIdentifier {
		b := m.Resolve(v)
		if b == nil || b.Kind != BindAssign || b.Unpacked {
			return nil, NoNode, NoNode
		}
		if f.Kind(f.Unparen(b.Value)) == KindDictionary {
			// A dict of this function: its literal and the entries
			// assigned before this use.
			return m.dictLiteralEntry(m.EnclosingFunction(at), v, f.Text(key), f.N(at).Start), NoNode, NoNode
		}
		v = f.Unparen(b.Value)
	}
	if f.Kind(v) != KindCall {
		return nil, NoNode, NoNode
	}
	def = m.bodyOf(v)
	if def == NoNode {
		return nil, NoNode, NoNode
	}
	rets := m.ReturnValues(def)
	if len(rets) == 0 {
		return nil, NoNode, NoNode
	}
	for _, r := range rets {
		if r == NoNode {
			continue // a bare `return`: None, of which no entry is read
		}
		got := m.dictLiteralEntry(def, f.Unparen(r), f.Text(key), f.N(r).Start)
		if got == nil {
			return nil, NoNode, NoNode
		}
		vals = append(vals, got...)
	}
	return vals, v, def
}

// EntryValues is dictEntry's values, for rules: what `d["key"]`, used at
// at, can hold; nil where it cannot tell.
func (m *Model) EntryValues(d, key, at NodeID) []NodeID {
	vals, _, _ := m.dictEntry(d, key, at)
	return vals
}

// dictLiteralEntry returns the values of key in r, a dict literal or a
// name of def (NoNode: module level) that only a dict literal reaches
// there, with the `name["key"] = v` of def before pos; nil when it has
// none.
func (m *Model) dictLiteralEntry(def, r NodeID, key string, pos uint32) []NodeID {
	f := m.File
	var vals []NodeID
	literal := func(d NodeID) {
		f.Children(d, func(p NodeID) bool {
			if f.Kind(p) == KindPair && f.Text(f.Unparen(f.Field(p, FieldKey))) == key {
				vals = append(vals, f.Field(p, FieldValue))
			}
			return true
		})
	}
	switch f.Kind(r) {
	case KindDictionary:
		literal(r)
	case KindIdentifier:
		rb := m.ReachingBindings(r)
		if len(rb) != 1 {
			return nil
		}
		b := rb[0]
		if b.Kind != BindAssign || b.Unpacked || f.Kind(f.Unparen(b.Value)) != KindDictionary {
			return nil
		}
		literal(f.Unparen(b.Value))
		body := Root
		if def != NoNode {
			body = f.Field(def, FieldBody)
		}
		f.Walk(body, func(id NodeID) {
			if f.Kind(id) != KindAssignment || m.EnclosingFunction(id) != def || f.N(id).Start >= pos {
				return
			}
			t := f.Field(id, FieldLeft)
			if f.Kind(t) == KindSubscript && f.TextIs(f.Unparen(f.Field(t, FieldValue)), f.Text(r)) &&
				f.Text(f.Unparen(f.Field(t, FieldSubscript))) == key {
				vals = append(vals, f.Field(id, FieldRight))
			}
		})
	}
	return vals
}

// LocalCallee resolves a call to a function or method defined in this
// file: `name(...)`, `self.name(...)` in a method of its class, and
// `x.name(...)` where x is an instance of a class of this file.
func (m *Model) LocalCallee(call NodeID) NodeID {
	f := m.File
	fn := f.Field(call, FieldFunction)
	switch f.Kind(fn) {
	case KindIdentifier:
		if b := m.Resolve(fn); b != nil && b.Kind == BindFunction {
			return b.Stmt
		}
	case KindAttribute:
		if obj := f.Field(fn, FieldObject); f.TextIs(obj, "self") {
			return m.selfMethod(m.EnclosingClass(call), f.Text(f.Field(fn, FieldAttribute)))
		}
		_, def := m.instanceMethod(fn)
		return def
	}
	return NoNode
}

// selfCallee resolves `self(...)` to the __call__ of a class that defines
// one (an nn.Module's self(...) runs forward, which is a forward call).
func (m *Model) selfCallee(call NodeID) NodeID {
	f := m.File
	if !f.TextIs(f.Field(call, FieldFunction), "self") {
		return NoNode
	}
	return m.MethodOf(m.EnclosingClass(call), "__call__")
}

// ReturnsGraph is returnsGraph, for rules.
func (m *Model) ReturnsGraph(def NodeID) bool { return m.returnsGraph(def) }

// returnsGraph reports whether a local function returns a value that
// carries autograd history.
func (m *Model) returnsGraph(def NodeID) bool {
	if m.carries == nil {
		m.carries = make(map[NodeID]carryState)
	}
	if s, ok := m.carries[def]; ok {
		return s != carryBusy && m.carryHit(s) == carryYes
	}
	m.carries[def] = carryBusy
	n := m.factReads
	yes := false
	for _, v := range m.ReturnValues(def) {
		if v != NoNode && m.carry(v) == carryYes {
			yes = true
			break
		}
	}
	s := carryNo
	if yes {
		s = carryYes
	}
	m.carries[def] = m.carryStore(s, n)
	return yes
}

// IsBackwardCall reports whether call back-propagates: `x.backward()`,
// `accelerator.backward(loss)`, `self.manual_backward(loss)`,
// `torch.autograd.backward(...)` or `torch.autograd.grad(...)`.
func (m *Model) IsBackwardCall(call NodeID) bool {
	switch m.MethodName(call) {
	case "backward":
		return !m.ownBackwardMethod(call)
	case "manual_backward":
		return true
	}
	switch m.CallName(call) {
	case "torch.autograd.backward", "torch.autograd.grad":
		return true
	}
	return m.lossScalerCall(call)
}

// lossScalers are the classes whose instances, called with a loss
// (`loss_scaler(loss, optimizer, parameters=...)`), back-propagate it
// and step the optimizer.
var lossScalers = map[string]bool{
	"timm.utils.NativeScaler": true, "timm.utils.ApexScaler": true,
	"timm.utils.cuda.NativeScaler": true, "timm.utils.cuda.ApexScaler": true,
}

// lossScalerCall reports whether call calls an instance of one of
// lossScalers.
func (m *Model) lossScalerCall(call NodeID) bool {
	if !m.hasLossScaler {
		return false
	}
	class := m.calledClass(call)
	return class != NoNode && lossScalers[m.QualifiedName(class)]
}

// ownBackwardMethod reports whether `x.backward(...)` calls a method of
// a class of this file that defines it and back-propagates nothing
// itself (a normalizing flow's inverse pass, `flow.backward(z)`): not
// back-propagation.
func (m *Model) ownBackwardMethod(call NodeID) bool {
	def := m.LocalCallee(call)
	return def != NoNode && m.EnclosingClass(def) != NoNode && !m.backpropagates(def)
}

// derivativeTerm reports whether call takes a derivative to be
// differentiated again (`torch.autograd.grad(y, x, create_graph=True)`
// for a divergence or a gradient penalty, or with create_graph given by
// the caller): a term of a loss, not a backward step.
func (m *Model) derivativeTerm(call NodeID) bool {
	if m.CallName(call) != "torch.autograd.grad" {
		return false
	}
	k := m.Keyword(call, "create_graph")
	return k != NoNode && m.File.Kind(m.File.Unparen(k)) != KindFalse
}

// ExprKeys returns the names an expression mentions: identifiers and
// attribute chains (`self.total`), which is how accumulators are keyed.
func (m *Model) ExprKeys(expr NodeID, into map[string]bool) {
	f := m.File
	f.Walk(expr, func(id NodeID) {
		switch f.Kind(id) {
		case KindIdentifier:
			if fl := f.N(id).Field; fl != FieldAttribute && fl != FieldName {
				into[f.Text(id)] = true
			}
		case KindAttribute:
			into[f.Text(id)] = true
		}
	})
}

// BackpropKeys returns every name whose value may be part of a graph that
// a backward call inside region runs through: the names the call
// mentions, then, transitively, the names assigned into them within fn
// (`total = loss + aux; total.backward()` reaches loss and aux).
func (m *Model) BackpropKeys(region, fn NodeID) map[string]bool {
	return m.Memo(backpropKey{region, fn}, func() any { return m.backpropKeys(region, fn) }).(map[string]bool)
}

type backpropKey struct{ region, fn NodeID }

func (m *Model) backpropKeys(region, fn NodeID) map[string]bool {
	f := m.File
	keys := map[string]bool{}
	f.Walk(region, func(id NodeID) {
		if f.Kind(id) != KindCall {
			return
		}
		if m.IsBackwardCall(id) {
			if r := m.Receiver(id); r != NoNode && m.MethodName(id) == "backward" {
				m.ExprKeys(r, keys)
			}
			m.ExprKeys(f.Field(id, FieldArguments), keys)
			return
		}
		// `step(loss)`, `self.net.train_step(loss, opt)`: a function that
		// back-propagates what it is passed.
		for _, a := range m.backpropArgs(id) {
			m.ExprKeys(a, keys)
		}
		m.boundBackpropagated(id, keys)
	})
	if len(keys) == 0 {
		return keys
	}
	m.ExpandKeys(keys, m.AssignmentsIn(fn))
	return keys
}

// boundBackpropagated adds to keys the names that call, a call of a
// function of the project that back-propagates what it returns, binds to
// that value: `out, acc, loss = train_unit(x, y)` where train_unit runs
// `loss.backward()` and returns loss.
func (m *Model) boundBackpropagated(call NodeID, keys map[string]bool) {
	f := m.File
	a := f.Parent(call)
	if f.Kind(a) != KindAssignment || f.Field(a, FieldRight) != call {
		return
	}
	elems := m.calleeBackpropElems(call)
	switch t := f.Field(a, FieldLeft); f.Kind(t) {
	case KindIdentifier:
		if slices.Contains(elems, -1) {
			keys[f.Text(t)] = true
		}
	case KindPatternList, KindTuplePattern:
		kids := f.ChildList(t)
		for _, i := range elems {
			if i >= 0 && i < len(kids) && f.Kind(kids[i]) == KindIdentifier {
				keys[f.Text(kids[i])] = true
			}
		}
	}
}

// CallBackpropagates reports whether call calls a function of the
// project that back-propagates, on every call, what it returns, or a part
// of it (`errD = self.train_Dnet(i)` after `errD.backward()` there).
func (m *Model) CallBackpropagates(call NodeID) bool {
	return len(m.calleeBackpropElems(call)) > 0
}

// calleeBackpropElems is the BackpropElems of the function call calls.
func (m *Model) calleeBackpropElems(call NodeID) []int {
	if def := m.LocalCallee(call); def != NoNode {
		if !m.backpropagates(def) {
			return nil
		}
		return m.returnedBackprop(def)
	}
	if ref := m.calleeRef(call); ref != "" && !strings.HasPrefix(ref, "#") {
		// A function of another file: its summary says what it returns
		// after back-propagating it.
		if o := m.lookup(ref, WantReturns); o != nil && o.Kind == ObjectFunction {
			return o.BackpropElems
		}
	}
	return nil
}

type returnedBackpropKey struct{ def NodeID }

// returnedBackprop returns the positions, in the tuple every return of
// def builds, of the names def back-propagates, on every call, before
// returning them, or [-1] where every return is one such name; nil for
// none.
func (m *Model) returnedBackprop(def NodeID) []int {
	return m.MemoRecursive(returnedBackpropKey{def}, []int(nil), func() any {
		f := m.File
		rets := m.ReturnValues(def)
		if len(rets) == 0 {
			return []int(nil)
		}
		// A backward that runs on some calls only (`if train:
		// loss.backward()`) says nothing of a given call.
		conditional := false
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if !conditional && f.Kind(id) == KindCall && m.EnclosingFunction(id) == def && m.IsBackwardCall(id) && m.ConditionalInFunction(id) {
				conditional = true
			}
		})
		if conditional {
			return []int(nil)
		}
		keys := m.BackpropKeys(f.Field(def, FieldBody), def)
		var out []int
		for i, r := range rets {
			var here []int
			switch r = f.Unparen(r); f.Kind(r) {
			case KindIdentifier:
				if keys[f.Text(r)] {
					here = []int{-1}
				}
			case KindExpressionList, KindTuple:
				for j, e := range f.ChildList(r) {
					if f.Kind(e) == KindIdentifier && keys[f.Text(e)] {
						here = append(here, j)
					}
				}
			}
			if i == 0 {
				out = here
			} else {
				out = slices.DeleteFunc(out, func(j int) bool { return !slices.Contains(here, j) })
			}
		}
		return out
	}).([]int)
}

// ExpandKeys adds to keys, transitively, the names that the values
// assigned to them mention: assigns maps a name to the values assigned
// to it (as AssignmentsIn returns).
func (m *Model) ExpandKeys(keys map[string]bool, assigns map[string][]NodeID) {
	queue := make([]string, 0, len(keys))
	for k := range keys {
		queue = append(queue, k)
	}
	for len(queue) > 0 {
		k := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if k == "_" {
			continue // what is thrown away links nothing
		}
		for _, v := range assigns[k] {
			more := map[string]bool{}
			m.ExprKeys(v, more)
			for mk := range more {
				if !keys[mk] {
					keys[mk] = true
					queue = append(queue, mk)
				}
			}
		}
	}
}

type assignmentsKey struct{ fn NodeID }

// AssignmentsIn maps each assigned name or attribute chain in fn (a
// function, a loop, or the module) to the values assigned to it, in
// source order; a subscript target counts as an assignment to its
// container.
func (m *Model) AssignmentsIn(fn NodeID) map[string][]NodeID {
	return m.Memo(assignmentsKey{fn}, func() any { return m.assignmentsIn(fn) }).(map[string][]NodeID)
}

func (m *Model) assignmentsIn(fn NodeID) map[string][]NodeID {
	f := m.File
	out := map[string][]NodeID{}
	add := func(target, value NodeID) {
		switch f.Kind(target) {
		case KindIdentifier, KindAttribute:
			out[f.Text(target)] = append(out[f.Text(target)], value)
		case KindSubscript:
			out[f.Text(f.Field(target, FieldValue))] = append(out[f.Text(f.Field(target, FieldValue))], value)
		case KindPatternList, KindTuplePattern, KindExpressionList, KindTuple, KindListPattern:
			f.Children(target, func(c NodeID) bool {
				if k := f.Kind(c); k == KindIdentifier || k == KindAttribute {
					out[f.Text(c)] = append(out[f.Text(c)], value)
				}
				return true
			})
		}
	}
	f.Walk(fn, func(id NodeID) {
		switch f.Kind(id) {
		case KindAssignment, KindAugmentedAssignment:
			add(f.Field(id, FieldLeft), f.Field(id, FieldRight))
		case KindAsPattern:
			add(f.FirstChild(f.Field(id, FieldAlias)), f.FirstChild(id))
		case KindNamedExpression:
			add(f.Field(id, FieldName), f.Field(id, FieldValue)) // `(n := next(it))`
		}
	})
	return out
}

type returnedKey struct{ fn NodeID }

// AddComputedFrom adds to keys what the names in it were computed from
// in fn, following up to steps assignments back (`reward =
// self.state_values[-1] - new_value` adds `self.state_values` for
// `reward`).
func (m *Model) AddComputedFrom(fn NodeID, keys map[string]bool, steps int) {
	assigned := m.AssignmentsIn(fn)
	frontier := maps.Clone(keys)
	for range steps {
		next := map[string]bool{}
		for k := range frontier {
			for _, v := range assigned[k] {
				m.ExprKeys(v, next)
			}
		}
		frontier = map[string]bool{}
		for k := range next {
			if !keys[k] {
				keys[k], frontier[k] = true, true
			}
		}
		if len(frontier) == 0 {
			return
		}
	}
}

// IsReturned reports whether fn returns or yields an expression that
// mentions key, itself or through names assigned from it before the
// return (`mean_loss = loss.mean(); return mean_loss`): its caller then
// owns the value.
func (m *Model) IsReturned(fn NodeID, key string) bool {
	keys := m.Memo(returnedKey{fn}, func() any {
		f := m.File
		keys := map[string]bool{}
		f.Walk(fn, func(id NodeID) {
			if k := f.Kind(id); k == KindReturnStatement || k == KindYield {
				m.ExprKeys(id, keys)
			}
		})
		// What the returned names were computed from, a few steps back.
		m.AddComputedFrom(fn, keys, 4)
		return keys
	}).(map[string]bool)
	return keys[key]
}

// EnclosingLoop returns the innermost loop that runs id once per
// iteration, within id's own function: a for or while statement whose
// body holds id, or a comprehension whose element or condition does;
// NoNode if there is none.
func (m *Model) EnclosingLoop(id NodeID) NodeID {
	f := m.File
	child := id
	for n := f.Parent(id); n != NoNode; child, n = n, f.Parent(n) {
		switch f.Kind(n) {
		case KindForStatement, KindWhileStatement:
			if f.N(child).Field == FieldBody {
				return n
			}
		case KindListComprehension, KindSetComprehension, KindDictionaryComprehension, KindGeneratorExpression:
			if k := f.Kind(child); f.N(child).Field == FieldBody || k == KindIfClause || k == KindPair {
				return n
			}
		case KindFunctionDefinition, KindLambda, KindClassDefinition:
			return NoNode
		}
	}
	return NoNode
}

// statementLoop is EnclosingLoop seen from statements: a comprehension
// runs within the iteration of the loop around it, so it is skipped.
func (m *Model) statementLoop(id NodeID) NodeID {
	l := m.EnclosingLoop(id)
	for l != NoNode && m.File.Kind(l) != KindForStatement && m.File.Kind(l) != KindWhileStatement {
		l = m.EnclosingLoop(l)
	}
	return l
}

// LoopIterable returns the iterable of a for loop or of a
// comprehension's first for clause (NoNode for while).
func (m *Model) LoopIterable(loop NodeID) NodeID {
	f := m.File
	switch f.Kind(loop) {
	case KindForStatement:
		return f.Field(loop, FieldRight)
	case KindListComprehension, KindSetComprehension, KindDictionaryComprehension, KindGeneratorExpression:
		iter := NoNode
		f.Children(loop, func(c NodeID) bool {
			if f.Kind(c) == KindForInClause {
				iter = f.Field(c, FieldRight)
				return false
			}
			return true
		})
		return iter
	}
	return NoNode
}

// ScopeNode returns the function definition whose body contains id, or
// the module.
func (m *Model) ScopeNode(id NodeID) NodeID {
	if fn := m.EnclosingFunction(id); fn != NoNode {
		return fn
	}
	return Root
}

// LoopActivity says what one iteration of a loop does, judged from its
// iterable and its own body (not nested loops or functions).
type LoopActivity struct {
	Batches  bool // iterates a data loader or a sequence of batches
	Forward  bool // runs a model forward pass
	Loss     bool // computes a loss
	Backward bool // back-propagates or steps an optimizer
	// Derivatives: what back-propagates is only derivatives taken to be
	// differentiated again (derivativeTerm: a divergence's terms), and
	// no optimizer steps: work on every pass, but no training step.
	Derivatives bool
	// Once: the body ends in an unconditional break, return or raise,
	// so that at most one iteration runs to its end (a first batch
	// taken to inspect its gradients).
	Once bool
}

// PerStep reports whether the loop runs once per batch or training step.
func (a LoopActivity) PerStep() bool {
	return !a.Once && (a.Batches || a.Forward || a.Loss || a.Backward)
}

// lastStatement is the last statement of a block, or NoNode.
func lastStatement(f *File, block NodeID) NodeID {
	last := NoNode
	f.Children(block, func(c NodeID) bool {
		last = c
		return true
	})
	return last
}

// RangeOfOne is rangeOfOne, for rules: a loop of one iteration by its
// range, which runs within an iteration of the loop around it.
func (m *Model) RangeOfOne(loop NodeID) bool { return m.rangeOfOne(loop) }

// rangeOfOne reports whether loop is `for ... in range(n)` with n the
// literal 1, or a name every binding of which in the file is `n = 1`
// (`G_STEPS = 1`): one iteration.
func (m *Model) rangeOfOne(loop NodeID) bool {
	f := m.File
	iter := f.Unparen(m.LoopIterable(loop))
	if f.Kind(iter) != KindCall || m.CallName(iter) != "range" {
		return false
	}
	args := m.Args(iter)
	if len(args) != 1 {
		return false
	}
	n := f.Unparen(args[0])
	if f.Kind(n) == KindIdentifier {
		b := m.Resolve(n)
		if b == nil || b.Kind != BindAssign || b.Unpacked || len(m.AssignmentsIn(Root)[f.Text(n)]) != 1 {
			return false
		}
		n = f.Unparen(b.Value)
	}
	return f.Kind(n) == KindInteger && f.TextIs(n, "1")
}

type loopKey struct{ loop NodeID }

// Loop returns what an iteration of loop does.
func (m *Model) Loop(loop NodeID) LoopActivity {
	return m.Memo(loopKey{loop}, func() any { return m.loopActivity(loop) }).(LoopActivity)
}

func (m *Model) loopActivity(loop NodeID) LoopActivity {
	f := m.File
	var a LoopActivity
	if iter := m.LoopIterable(loop); iter != NoNode {
		a.Batches = m.iteratesBatches(iter)
	}
	switch f.Kind(lastStatement(f, f.Field(loop, FieldBody))) {
	case KindBreakStatement, KindReturnStatement, KindRaiseStatement:
		a.Once = true
	}
	if m.rangeOfOne(loop) {
		a.Once = true
	}
	clears, terms := false, true
	// A comprehension's own calls are those of its element, not of a
	// comprehension nested in it; a statement loop's include those of the
	// comprehensions in its body, which run within its iteration.
	owner := m.statementLoop
	if k := f.Kind(loop); k != KindForStatement && k != KindWhileStatement {
		owner = m.EnclosingLoop
	}
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		if f.Kind(id) != KindCall || owner(id) != loop {
			return
		}
		switch {
		case m.IsBackwardCall(id):
			a.Backward = true
			terms = terms && (m.derivativeTerm(id) || m.inputDerivative(loop, id))
		case m.backpropsGivenGraph(id):
			// `model.update(loss)`: a function of the project that
			// back-propagates the graph it is given. One of this file
			// that only takes derivatives to differentiate again (a
			// MAML inner loop's `autograd.grad(..., create_graph=True)`,
			// returning the fast weights) runs no training step.
			a.Backward = true
			terms = terms && m.derivativesOnly(m.LocalCallee(id))
		case m.MethodName(id) == "step" || m.MethodName(id) == "zero_grad":
			recv := strings.ToLower(lastName(f, m.Receiver(id)))
			if (strings.Contains(recv, "optim") || strings.Contains(recv, "scaler") || recv == "opt") && !SchedulerName(recv) {
				a.Backward = a.Backward || m.MethodName(id) == "step"
				clears = clears || m.MethodName(id) == "zero_grad"
				terms = false
			}
		case m.IsForwardCall(id):
			a.Forward = true
		case m.IsLossCall(id):
			a.Loss = true
		}
	})
	if clears && !a.Backward {
		// A clear before a loop of steps nested in this one (an epoch's
		// `optimizer.zero_grad()` before its batches) is not a step.
		a.Backward = !m.stepsNested(loop)
	}
	a.Derivatives = a.Backward && terms
	return a
}

// inputDerivative reports whether call, a backward in loop, serves to
// read the gradient of an input the loop itself made require grad
// (`x.requires_grad = True; u = net(x); u.backward(); du = x.grad`): a
// derivative of the input, not a training step.
func (m *Model) inputDerivative(loop, call NodeID) bool {
	f := m.File
	if m.MethodName(call) != "backward" {
		return false
	}
	body := f.Field(loop, FieldBody)
	made := map[string]bool{}
	f.Walk(body, func(id NodeID) {
		switch f.Kind(id) {
		case KindAssignment:
			left := f.Field(id, FieldLeft)
			if f.Kind(left) == KindAttribute && f.TextIs(f.Field(left, FieldAttribute), "requires_grad") &&
				f.Kind(f.Unparen(f.Field(id, FieldRight))) == KindTrue && f.Kind(f.Field(left, FieldObject)) == KindIdentifier {
				made[f.Text(f.Field(left, FieldObject))] = true
			}
		case KindCall:
			if r := f.Unparen(m.Receiver(id)); m.MethodName(id) == "requires_grad_" && f.Kind(r) == KindIdentifier {
				made[f.Text(r)] = true
			}
		}
	})
	if len(made) == 0 {
		return false
	}
	read, stepped := false, false
	f.Walk(body, func(id NodeID) {
		if f.Kind(id) != KindAttribute || !f.TextIs(f.Field(id, FieldAttribute), "grad") || f.N(id).Start < f.N(call).End {
			return
		}
		x := f.Text(f.Field(id, FieldObject))
		if !made[x] {
			return
		}
		read = true
		// `x = x + alpha * x.grad.sign()`, `x.data -= lr * x.grad`: a
		// step on the input (an attack, an input's optimisation), not a
		// derivative for a loss.
		for p := f.Parent(id); p != NoNode && p != body; p = f.Parent(p) {
			if k := f.Kind(p); k == KindAssignment || k == KindAugmentedAssignment {
				if t := f.Text(f.Field(p, FieldLeft)); t == x || strings.HasPrefix(t, x+".") || strings.HasPrefix(t, x+"[") {
					stepped = true
				}
				break
			}
		}
	})
	return read && !stepped
}

// derivativesOnly reports whether function def of this file, nested
// loops included, back-propagates only derivatives taken to be
// differentiated again (derivativeTerm), one at least, and steps no
// optimizer.
func (m *Model) derivativesOnly(def NodeID) bool {
	if def == NoNode {
		return false
	}
	return m.Memo(derivativesOnlyKey{def}, func() any {
		f := m.File
		seen, only := false, true
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if !only || f.Kind(id) != KindCall || m.ScopeNode(id) != def {
				return
			}
			switch {
			case m.IsBackwardCall(id):
				seen, only = true, m.derivativeTerm(id)
			case m.MethodName(id) == "step" || m.MethodName(id) == "zero_grad" || m.backpropArgs(id) != nil:
				only = false
			}
		})
		return seen && only
	}).(bool)
}

type derivativesOnlyKey struct{ def NodeID }

// backpropsGivenGraph reports whether call hands a value with a graph (a
// loss, not a module or a loader) to a parameter its callee, a function
// of the project, back-propagates.
func (m *Model) backpropsGivenGraph(call NodeID) bool {
	for _, a := range m.backpropArgs(call) {
		if m.File.Kind(a) == KindKeywordArgument {
			a = m.File.Field(a, FieldValue)
		}
		if m.ClassifyCallee(a) == CallableModel || m.iteratesBatches(a) {
			continue // the model trained, or the data it is trained on
		}
		if m.CarriesGraph(a) || m.File.Kind(a) == KindIdentifier && strings.Contains(strings.ToLower(m.File.Text(a)), "loss") {
			return true // a graph, or a value named as a loss (`rl_loss = agent.get_loss(batch)`)
		}
	}
	return false
}

// stepsNested reports whether a loop nested in loop steps an optimizer
// or back-propagates on each of its iterations.
func (m *Model) stepsNested(loop NodeID) bool {
	f := m.File
	found := false
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		if k := f.Kind(id); !found && (k == KindForStatement || k == KindWhileStatement) {
			found = m.Loop(id).Backward
		}
	})
	return found
}

// iteratesBatches reports whether a loop's iterable is a data loader or a
// sequence of batches: `loader`, `enumerate(train_loader)`,
// `tqdm(dataloader)`, a torch DataLoader.
func (m *Model) iteratesBatches(iter NodeID) bool {
	f := m.File
	found := false
	f.Walk(iter, func(id NodeID) {
		if found {
			return
		}
		if f.Kind(id) == KindIdentifier {
			if fl := f.N(id).Field; fl == FieldFunction {
				return
			}
			name := strings.ToLower(f.Text(id))
			if strings.Contains(name, "loaders") {
				// `for loader in dataloaders:` runs once per dataset.
				return
			}
			if m.splitOfOne(id) {
				return // `batches = get_minibatches(points, chunksize=n)`: the chunks of one tensor
			}
			if strings.Contains(name, "loader") || strings.Contains(name, "batches") || name == "batch_iter" || m.namesData(id) {
				found = true
				return
			}
			if b := m.Resolve(id); b != nil && b.Kind == BindAssign && f.Kind(b.Value) == KindCall {
				switch q := m.CallName(b.Value); q {
				case "torch.utils.data.DataLoader":
					found = true
				case "range", "enumerate", "zip", "reversed", "tqdm", "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm":
					// `steps = range(len(batches))`: what it counts;
					// `pbar = tqdm(enumerate(val_loader))`: what it shows.
					found = !f.Contains(b.Value, iter) && f.N(b.Value).End < f.N(iter).Start && m.iteratesBatches(b.Value)
				}
			}
		}
	})
	return found
}

// splitOfOne reports whether a name is bound, once, to the pieces of one
// tensor: torch.split, torch.chunk or torch.tensor_split, or any call
// given a chunk size by keyword
// (`get_minibatches(points, chunksize=n)`). A loop over them runs one
// pass in parts, not steps over batches, whatever the name.
func (m *Model) splitOfOne(id NodeID) bool {
	f := m.File
	b := m.Resolve(id)
	if b == nil || b.Kind != BindAssign || b.Unpacked || f.Kind(f.Unparen(b.Value)) != KindCall {
		return false
	}
	call := f.Unparen(b.Value)
	switch m.CallName(call) {
	case "torch.split", "torch.chunk", "torch.tensor_split":
		return true
	}
	for _, kw := range []string{"chunksize", "chunk_size", "chunks", "split_size"} {
		if m.Keyword(call, kw) != NoNode {
			return true
		}
	}
	return false
}

// builtHere reports whether a name is bound, where it is read, to a
// container its code builds (`data = []`, `data = [line.split() for
// line in f]`): what it holds is what the code puts there, not batches
// from a loader, whatever its name.
func (m *Model) builtHere(id NodeID) bool {
	f := m.File
	b := m.Resolve(id)
	if b == nil || b.Kind != BindAssign || b.Unpacked {
		return false
	}
	switch f.Kind(f.Unparen(b.Value)) {
	case KindList, KindListComprehension, KindDictionary, KindDictionaryComprehension, KindTuple, KindSet, KindSetComprehension:
		return true
	}
	return false
}

// SchedulerName reports whether a receiver's lower-cased name is a
// learning-rate scheduler's (`optimizer_scheduler`, `optim_sched`),
// whose `step()` runs once per epoch, not per training step.
func SchedulerName(recv string) bool {
	return strings.HasSuffix(recv, "scheduler") || strings.HasSuffix(recv, "sched") || strings.HasSuffix(recv, "schedule")
}

// lastName returns the last identifier of a name, attribute chain or call.
func lastName(f *File, id NodeID) string {
	return f.Text(lastNameNode(f, id))
}

// tupleElement judges `out[n]`, n ≥ 1, where out is bound to the result
// of a method call: the element keeps its own provenance. A method of
// this file is read at that element; one the file cannot see (a
// project's `forward_loss` returning a loss and a count) returns a tuple
// whose later elements are unknown, not a graph. known is false where
// the subscript is another kind (a model's own outputs, `model(x)[1]`).
func (m *Model) tupleElement(sub NodeID) (carries, known bool) {
	f := m.File
	idx := f.Field(sub, FieldSubscript)
	if f.Kind(idx) != KindInteger || f.TextIs(idx, "0") {
		return false, false
	}
	n, err := strconv.Atoi(f.Text(idx))
	if err != nil {
		return false, false
	}
	v := f.Unparen(f.Field(sub, FieldValue))
	if f.Kind(v) != KindIdentifier {
		return false, false
	}
	b := m.Resolve(v)
	if b == nil || b.Kind != BindAssign || b.Unpacked || m.backwardOf(b) {
		return false, false
	}
	call := f.Unparen(b.Value)
	if f.Kind(call) != KindCall || m.MethodName(call) == "" || m.GradModeAt(call) == GradDisabled {
		return false, false
	}
	switch name := m.MethodName(call); {
	case name == "forward" || name == "__call__":
		return false, false
	case m.LocalCallee(call) != NoNode:
		return m.returnsGraphAt(m.LocalCallee(call), n), true
	}
	if o := m.lookup(m.calleeRef(call), WantReturns); o != nil && o.TupleLen > 0 {
		return n < o.TupleLen && slices.Contains(o.GraphElems, n), true
	}
	return false, true
}

// backwardOf reports whether the value a binding holds is itself
// back-propagated (`loss.backward()` while loss is bound by it): then it
// is a tensor, and its subscripts are slices of its graph.
func (m *Model) backwardOf(b *Binding) bool {
	f := m.File
	found := false
	f.Walk(m.Scopes[b.Scope].Node, func(id NodeID) {
		if found || f.Kind(id) != KindCall || !m.IsBackwardCall(id) {
			return
		}
		if r := f.Unparen(m.Receiver(id)); f.Kind(r) == KindIdentifier && m.Resolve(r) == b {
			found = true
		}
	})
	return found
}

// tupleReturns returns the length of the tuple every return of def
// builds and the positions of its elements with a graph; 0 and nil where
// the returns are not tuples of one length, or none of their elements
// shows a graph here (a caller's back-propagation says where there is).
func (m *Model) tupleReturns(def NodeID) (int, []int) {
	f := m.File
	n := m.tupleShape(def)
	if n < 2 {
		return 0, nil
	}
	graph := make([]bool, n)
	for _, v := range m.ReturnValues(def) {
		for i, k := range f.ChildList(f.Unparen(v)) {
			if m.carry(k) == carryYes {
				graph[i] = true
			}
		}
	}
	var elems []int
	for i, g := range graph {
		if g {
			elems = append(elems, i)
		}
	}
	if len(elems) == 0 {
		return 0, nil
	}
	return n, elems
}

// elementFedBy reports whether element index of what call v of the
// project function ref returns takes the graph of an argument that
// carries one, as the function's summary (ElemParams) says. Asked only
// where an argument carries a graph.
func (m *Model) elementFedBy(v NodeID, ref string, index int) bool {
	if index == -1 || ref == "" || strings.HasPrefix(ref, "#") || !slices.ContainsFunc(m.Args(v), m.argFeeds) {
		return false
	}
	p := m.lookup(ref, WantParams)
	if p == nil || len(p.ElemParams) == 0 {
		return false
	}
	i := elementPos(index, len(p.ElemParams))
	return i >= 0 && m.argsFeed(v, p.ElemParams[i])
}

// elemParams is RareFuncFacts.ElemParams for function def.
func (m *Model) elemParams(def NodeID) [][]int {
	n := m.tupleShape(def)
	if n < 2 {
		return nil
	}
	params := m.positionalParams(def)
	out := make([][]int, n)
	some := false
	for i := range out {
		if ps := m.paramsReaching(def, params, m.elementValues(def, i)); len(ps) > 0 {
			out[i], some = ps, true
		}
	}
	if !some {
		return nil
	}
	return out
}

// runsNoModel reports whether call passes arguments none of which may
// carry a graph to a function or method of the project (ref, another
// file's or this one's) that runs no model and calls none of its
// parameters: a loss helper, whose result has the graph of its
// arguments and nothing more.
func (m *Model) runsNoModel(call NodeID, ref string) bool {
	f := m.File
	if args := m.Args(call); len(args) == 0 || slices.ContainsFunc(args, m.mayFeed) {
		return false
	}
	if fn := f.Unparen(f.Field(call, FieldFunction)); ref == "" && f.Kind(fn) == KindAttribute {
		// `adv = LSGAN() if a else Hinge()`: every class's method.
		obj := f.Unparen(f.Field(fn, FieldObject))
		if f.Kind(obj) != KindIdentifier {
			return false
		}
		// A method whose summary holds nothing returns no graph and runs
		// no model; one of them must be known to return a graph.
		known := false
		for _, c := range m.boundClasses(obj, 0) {
			r, _ := m.classMethod(c, f.Text(f.Field(fn, FieldAttribute)))
			if r == "" || strings.HasPrefix(r, "#") {
				return false
			}
			if !m.lookup(r, WantHelper).runsNoForward() {
				return false
			}
			if o := m.lookup(r, WantReturns); o != nil && o.Kind == ObjectFunction {
				known = true
			}
		}
		return known
	}
	if ref == "" {
		return false
	}
	if strings.HasPrefix(ref, "#") {
		def := m.LocalCallee(call)
		if def == NoNode {
			_, def = m.instanceMethod(f.Unparen(f.Field(call, FieldFunction)))
		}
		return def != NoNode && m.localHelperOf(def, 0) == nil && !m.runsOwnForward(def)
	}
	if o := m.lookup(ref, WantReturns); o == nil || o.Kind != ObjectFunction {
		return false
	}
	return m.lookup(ref, WantHelper).runsNoForward()
}

// entriesConverted reports whether sub reads an entry of a dict that a
// loop before it, in a block around sub, replaced entry by entry with
// values without a graph: `for k, v in logs.items(): logs[k] = v.item()`
// and then `logs["loss"]`.
func (m *Model) entriesConverted(sub NodeID) bool {
	f := m.File
	d := f.Unparen(f.Field(sub, FieldValue))
	if f.Kind(d) != KindIdentifier {
		return false
	}
	name := f.Text(d)
	b := m.Resolve(d)
	for p := f.Parent(sub); p != NoNode && p != m.ScopeNode(sub); p = f.Parent(p) {
		if f.Kind(p) != KindBlock && f.Kind(p) != KindModule {
			continue
		}
		for _, st := range f.ChildList(p) {
			if f.N(st).End > f.N(sub).Start {
				break
			}
			if f.Kind(st) != KindForStatement || m.ResolveName(name, m.scopeOf[st], f.N(st).Start) != b {
				continue
			}
			left, right := f.Field(st, FieldLeft), f.Unparen(f.Field(st, FieldRight))
			kids := f.ChildList(left)
			if args := m.Args(right); f.Kind(right) == KindCall && m.CallName(right) == "enumerate" && len(args) == 1 && len(kids) == 2 {
				// `for i, (key, value) in enumerate(d.items()):`
				right, kids = f.Unparen(args[0]), f.ChildList(f.Unparen(kids[1]))
			}
			if len(kids) != 2 || f.Kind(right) != KindCall || m.MethodName(right) != "items" ||
				!f.TextIs(m.Receiver(right), name) {
				continue
			}
			for _, c := range f.ChildList(f.Field(st, FieldBody)) {
				if f.Kind(c) != KindExpressionStatement {
					continue
				}
				a := f.FirstChild(c)
				t := f.Field(a, FieldLeft)
				if f.Kind(a) == KindAssignment && f.Kind(t) == KindSubscript && f.TextIs(f.Field(t, FieldValue), name) &&
					f.Text(f.Field(t, FieldSubscript)) == f.Text(kids[0]) && !m.CarriesGraph(f.Field(a, FieldRight)) {
					return true
				}
			}
		}
	}
	return false
}

// mayFeed reports whether an argument may pass a graph: it carries one,
// its origin is not seen (a parameter), or it is what a parameter or an
// unknown name returns in grad mode (`net_d(fake)`).
func (m *Model) mayFeed(a NodeID) bool {
	f := m.File
	if f.Kind(a) == KindListSplat || f.Kind(a) == KindDictionarySplat {
		return false
	}
	if m.mayCarry(a, 0) {
		return true
	}
	a = f.Unparen(a)
	if f.Kind(a) != KindCall {
		return false
	}
	fn := f.Unparen(f.Field(a, FieldFunction))
	if f.Kind(fn) != KindIdentifier {
		return false
	}
	b := m.Resolve(fn)
	return (b == nil && !builtinNames[f.Text(fn)] || b != nil && b.Kind == BindParam) && m.GradModeAt(a) != GradDisabled
}

type ownForwardKey struct{ def NodeID }

// runsOwnForward reports whether a function runs a forward pass of a
// model of its own (not a loss, not one of its parameters called).
func (m *Model) runsOwnForward(def NodeID) bool {
	return m.Memo(ownForwardKey{def}, func() any {
		f := m.File
		found := false
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if found || f.Kind(id) != KindCall || !m.IsForwardCall(id) || m.IsLossCall(id) {
				return
			}
			if fn := f.Unparen(f.Field(id, FieldFunction)); f.Kind(fn) == KindIdentifier {
				if b := m.Resolve(fn); b != nil && b.Kind == BindParam {
					return
				}
			}
			found = true
		})
		return found
	}).(bool)
}

// tensorGuard reports whether cond is `isinstance(v, torch.Tensor)` or
// `torch.is_tensor(v)`, so that v in the other branch of a conditional is
// not a tensor.
func tensorGuard(m *Model, cond, v NodeID) bool {
	f := m.File
	if c := f.Unparen(cond); f.Kind(c) == KindCall && m.CallName(c) == "torch.is_tensor" {
		args := m.Args(c)
		return len(args) == 1 && f.Text(f.Unparen(args[0])) == f.Text(f.Unparen(v))
	}
	types := isinstanceTypes(m, cond, v)
	return len(types) == 1 && (m.QualifiedName(types[0]) == "torch.Tensor" || m.QualifiedName(types[0]) == "torch.nn.Parameter")
}

// madeTensorUnder reports whether every binding of name v that reaches
// it and may carry a graph is made under `if cond:` with the same
// condition: `gamma.item() if self.learned_gamma else gamma` after
// `if self.learned_gamma: gamma = self.policy.gamma()`, where gamma is
// otherwise a number. Where cond is false, v holds none of them.
func madeTensorUnder(m *Model, cond, v NodeID) bool {
	f := m.File
	cond, v = f.Unparen(cond), f.Unparen(v)
	if f.Kind(v) != KindIdentifier || (f.Kind(cond) != KindIdentifier && f.Kind(cond) != KindAttribute) {
		return false
	}
	key := f.Text(cond)
	under := false
	for _, b := range m.ReachingBindings(v) {
		if b.Kind == BindAssign && !b.Unpacked && m.carry(b.Value) != carryYes {
			continue // a number, or what carries no graph
		}
		guarded := false
		for p := f.Parent(b.Stmt); p != NoNode && !guarded; p = f.Parent(p) {
			if f.Kind(p) == KindIfStatement && f.TextIs(f.Unparen(f.Field(p, FieldCondition)), key) &&
				f.Contains(f.Field(p, FieldConsequence), b.Stmt) {
				guarded = true
			}
		}
		if !guarded {
			return false
		}
		under = true
	}
	return under
}

// numberGuard reports whether cond is `isinstance(v, int)` (or float,
// bool, or a tuple of these) for the value v itself: where it holds, v is
// a Python number.
func numberGuard(m *Model, cond, v NodeID) bool {
	f := m.File
	types := isinstanceTypes(m, cond, v)
	for _, t := range types {
		switch f.Text(t) {
		case "int", "float", "bool", "numbers.Number", "Number":
		default:
			return false
		}
	}
	return len(types) > 0
}

// isinstanceTypes returns the types that cond, `isinstance(v, T)` or
// `isinstance(v, (T1, T2))` for the value v itself, tests; nil for any
// other condition.
func isinstanceTypes(m *Model, cond, v NodeID) []NodeID {
	f := m.File
	cond, v = f.Unparen(cond), f.Unparen(v)
	if f.Kind(cond) != KindCall || m.CallName(cond) != "isinstance" {
		return nil
	}
	args := m.Args(cond)
	if len(args) != 2 || f.Text(f.Unparen(args[0])) != f.Text(v) {
		return nil
	}
	types := []NodeID{f.Unparen(args[1])}
	if f.Kind(types[0]) == KindTuple {
		types = f.ChildList(types[0])
	}
	return types
}

// elementWithoutGraph reports whether the function of this file that
// call runs is annotated to return a number at position index of its
// tuple (plainElement), or whether every function of this file that call
// may run (a function passed in, made by a factory, or the __call__ of
// an instance) returns there a value without a graph, from what the call
// gives it too.
func (m *Model) elementWithoutGraph(call NodeID, index int) bool {
	if m.File.Kind(call) != KindCall || index < 0 {
		return false
	}
	if m.plainElementOf(call, index) {
		return true // `-> tuple[Tensor, float]`
	}
	fns := m.passedFunctions(call)
	if len(fns) == 0 {
		return false
	}
	for _, c := range fns {
		if c.ref != "" || c.def == NoNode {
			return false
		}
		if vals := m.elementValues(c.def, index); len(vals) == 0 || len(vals) != len(m.ReturnValues(c.def)) {
			return false
		}
	}
	// Nor is it computed from what the call gives it with a graph.
	return !m.passedElementCarries(call, fns, index)
}
