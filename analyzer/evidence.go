package analyzer

import (
	"fmt"
	"slices"
	"strings"
)

// Evidence from use: what a file's own code does with a value says more
// about it than its name. Only a tensor with a graph can be
// back-propagated, so the value of `x.backward()` carries one, and so
// does what it was computed from, back to the forward pass that began
// it; only a module has `.eval()`, `.parameters()` or `.named_modules()`,
// so a value used so is a module, and calling it runs a forward pass.
// The evidence is gathered in one walk over the file's calls, the first
// time a rule asks, and consulted before any name.

// evidence is what one file's uses establish.
type evidence struct {
	// graph holds the bindings whose values are back-propagated, or
	// computed into a back-propagated value: they carry a graph.
	graph map[*Binding]bool
	// roles says what calling a callee does, for the callees that the
	// uses tell apart: a module (its calls run forward passes) or a loss
	// (its result carries the graph of its first argument).
	roles map[evKey]Callable
	// paramRoles is roles for parameters by name alone: a parameter
	// named `crit` that one function of the file uses as a loss is taken
	// as a loss in the others.
	paramRoles map[string]Callable
	// moduleParams are the parameters the file's uses show to be
	// modules: what the calls of their functions pass for them is one.
	moduleParams []*Binding
	// producers are method callees (`model.compute_loss`) whose result
	// is back-propagated: their calls return a value with a graph.
	producers map[string]bool
	// returnsGraph holds the local functions whose result is
	// back-propagated by a caller.
	returnsGraph map[NodeID]bool
	// traced memoizes traceGraph per binding.
	traced map[*Binding]bool
	// projectResults are the refs of functions of other files whose
	// results are back-propagated here.
	projectResults map[string]bool
	// via: the results of functions of other files given to functions
	// of other files, for the project to tell whether they are
	// back-propagated there.
	via []BackpropVia
	// factors counts the products being traced whose factors must reach
	// a graph by what the file shows: a method of an object of unknown
	// kind (`env.step(a)`) is then no origin of one (see traceGraph).
	factors int
}

// evKey names a callee: an identifier by the scope that binds it and its
// name (scope -1 for a name bound nowhere in the file), an attribute
// chain (`self.actor`) by its text alone (scope -2).
type evKey struct {
	scope ScopeID
	name  string
}

const attrScope ScopeID = -2

// moduleOnlyMethods are methods that only nn.Module has among the
// objects training code handles (optimizers and schedulers also have
// state_dict, load_state_dict and zero_grad, so those prove nothing).
var moduleOnlyMethods = map[string]bool{
	"parameters": true, "named_parameters": true, "modules": true, "named_modules": true,
	"children": true, "named_children": true, "buffers": true, "named_buffers": true,
	"register_forward_hook": true, "register_forward_pre_hook": true,
	"register_full_backward_hook": true, "register_buffer": true, "register_module": true,
	"add_module": true, "get_submodule": true,
}

// moduleWrappers take a module as their first argument.
var moduleWrappers = map[string]bool{
	"torch.nn.parallel.DistributedDataParallel":                                   true,
	"torch.nn.DataParallel":                                                       true,
	"torch.nn.parallel.DataParallel":                                              true,
	"torch.nn.parallel.distributed.DistributedDataParallel":                       true,
	"torch.distributed.fsdp.FullyShardedDataParallel":                             true,
	"torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel": true,
}

// wrapperNames are the last parts of the names of moduleWrappers and of
// torch.compile: the calls gatherEvidence asks the name of.
var wrapperNames = map[string]bool{
	"DataParallel": true, "DistributedDataParallel": true, "FullyShardedDataParallel": true, "compile": true,
}

// notModuleWords end the names of objects that have an `eval()` or
// `train()` of their own without being modules.
var notModuleWords = map[string]bool{
	"trainer": true, "evaluator": true, "metric": true, "metrics": true, "env": true,
	"dataset": true, "loader": true, "optimizer": true, "scheduler": true, "agent": true,
	"engine": true, "runner": true, "experiment": true, "learner": true, "pipeline": true,
}

// graphPreserving are tensor methods whose result keeps the receiver's
// graph (`loss.mean()`, `out.view(-1)`): a back-propagated result means
// a graph-carrying receiver.
var graphPreserving = map[string]bool{
	"mean": true, "sum": true, "float": true, "double": true, "half": true, "bfloat16": true,
	"to": true, "cuda": true, "view": true, "reshape": true, "squeeze": true, "unsqueeze": true,
	"contiguous": true, "flatten": true, "pow": true, "abs": true, "exp": true, "log": true,
	"sqrt": true, "clamp": true, "mul": true, "add": true, "div": true, "sub": true, "neg": true,
	"norm": true, "transpose": true, "permute": true, "t": true, "expand": true, "gather": true,
	"masked_fill": true, "type_as": true, "prod": true, "square": true, "sigmoid": true,
	"softmax": true, "log_softmax": true, "tanh": true, "relu": true, "matmul": true,
	"squeeze_": true, "mul_": true, "div_": true, "add_": true, "index_select": true, "max": true,
	"min": true, "logsumexp": true, "cumsum": true, "std": true, "var": true, "nansum": true, "nanmean": true,
}

// backwardWrappers are the last words of receivers whose `backward(x)`
// back-propagates x: Accelerate, Fabric, DeepSpeed engines, Lightning.
var backwardWrappers = map[string]bool{
	"accelerator": true, "fabric": true, "engine": true, "model_engine": true, "self": true,
	"deepspeed_engine": true, "ds_engine": true, "amp": true, "booster": true,
}

func (m *Model) ev() *evidence {
	if m.evidence == nil {
		m.evidence = &evidence{graph: map[*Binding]bool{}, roles: map[evKey]Callable{},
			paramRoles: map[string]Callable{}, producers: map[string]bool{}, returnsGraph: map[NodeID]bool{}, traced: map[*Binding]bool{},
			projectResults: map[string]bool{}}
		n := m.factReads
		m.gatherEvidence()
		m.evidenceTainted = m.readsSince(n)
	} else if m.evidenceTainted {
		m.readFact()
	}
	return m.evidence
}

// gatherEvidence walks the file's calls once.
func (m *Model) gatherEvidence() {
	f := m.File
	var backprops, localCalls []NodeID
	for i := range f.Nodes {
		id := NodeID(i)
		if f.Nodes[i].Kind != KindCall {
			continue
		}
		method := m.MethodName(id)
		switch {
		case moduleOnlyMethods[method]:
			m.noteRole(m.Receiver(id), CallableModel)
		case method == "eval" && len(m.Args(id)) == 0, method == "train" && len(m.Args(id)) <= 1:
			recv := m.Receiver(id)
			if !notModuleWords[strings.ToLower(lastWord(lastName(f, recv)))] {
				m.noteRole(recv, CallableModel)
			}
		case method == "" || wrapperNames[method]:
			// `DataParallel(net)`, `nn.DataParallel(net)`, `torch.compile(net)`.
			if q := m.CallName(id); moduleWrappers[q] || q == "torch.compile" {
				if args := m.Args(id); len(args) > 0 {
					m.noteRole(args[0], CallableModel)
				}
			}
		}
		if t := m.backpropTarget(id); t != NoNode {
			backprops = append(backprops, t)
		} else if callee := m.projectRef(id); callee != "" {
			for i, a := range m.Args(id) {
				if c := m.resultHeld(a); c != NoNode {
					if r := m.projectRef(c); r != "" {
						m.evidence.via = append(m.evidence.via, BackpropVia{Callee: callee, Index: i, Result: r})
					}
				}
			}
		} else if len(m.Args(id)) > 0 && m.LocalCallee(id) != NoNode {
			localCalls = append(localCalls, id)
		}
	}
	for _, t := range backprops {
		m.traceGraph(t, 0, true)
	}
	// `self.input_grads(logit, x)` of a method that back-propagates its
	// first parameter, given what a function of this file returned
	// (`logit, _ = self.predict_logits(x)`): that function's result is
	// back-propagated. Other arguments say little: a parameter may be an
	// object with a backward() of its own, and a number may only reach
	// the loss under no_grad. Asked once the roles and the graphs of the
	// file's own backward calls are known: what the callee back-propagates
	// (BackpropParams, kept) then rests on them, as it does when asked
	// outside this walk.
	var more []NodeID
	for _, id := range localCalls {
		def := m.LocalCallee(id)
		_, known := m.memo[backpropParamsKey{def}]
		for _, a := range m.backpropArgs(id) {
			if c := m.resultHeld(a); c != NoNode && m.LocalCallee(c) != NoNode {
				more = append(more, f.Unparen(a))
			}
		}
		if !known {
			// Worked out while the evidence is not whole: asked again
			// once it is.
			delete(m.memo, backpropParamsKey{def})
		}
	}
	for _, t := range more {
		m.traceGraph(t, 0, true)
	}
	// A parameter used as a module (`for p in src.parameters()` in
	// `soft_update(self, target, src)`) is handed modules: what each call
	// of its function in the file passes for it is one, and may be a
	// parameter of another function in turn.
	e := m.evidence
	for i := 0; i < len(e.moduleParams) && i < 64; i++ {
		args, ok := m.paramArgs(e.moduleParams[i])
		if !ok {
			continue
		}
		for _, a := range args {
			m.noteRole(a, CallableModel)
		}
	}
}

// backpropTarget returns the value a back-propagating call (as
// IsBackwardCall tells them) back-propagates, or NoNode. The qualified
// forms come first: `torch.autograd.backward(loss)` is a method call
// named backward, whose receiver is the module, not the loss.
func (m *Model) backpropTarget(call NodeID) NodeID {
	if !m.IsBackwardCall(call) {
		return NoNode
	}
	f := m.File
	args := m.Args(call)
	switch q := m.CallName(call); {
	case q == "torch.autograd.backward" || q == "torch.autograd.grad":
		if len(args) > 0 {
			return args[0]
		}
		if q == "torch.autograd.backward" {
			return m.Keyword(call, "tensors")
		}
		return m.Keyword(call, "outputs")
	case m.MethodName(call) == "manual_backward" || m.lossScalerCall(call):
		if len(args) > 0 {
			return args[0]
		}
		return NoNode
	}
	recv := m.Receiver(call)
	if name := strings.ToLower(lastName(f, recv)); len(args) > 0 && (backwardWrappers[name] || strings.HasSuffix(name, "engine")) {
		return args[0] // accelerator.backward(loss)
	}
	// `scaler.scale(loss).backward()`
	if inner := f.Unparen(recv); f.Kind(inner) == KindCall && m.MethodName(inner) == "scale" {
		if a := m.Args(inner); len(a) > 0 {
			return a[0]
		}
	}
	return recv
}

// noteRole records that calling callee does what role says.
func (m *Model) noteRole(callee NodeID, role Callable) {
	e := m.evidence
	k, ok := m.calleeKey(callee)
	if !ok {
		return
	}
	if old, seen := e.roles[k]; seen && old == CallableModel {
		return // a module that computes its own loss stays a module
	}
	e.roles[k] = role
	if k.scope >= 0 {
		if b := m.ResolveName(k.name, k.scope, ^uint32(0)); b != nil && b.Kind == BindParam {
			if old := e.paramRoles[k.name]; old != CallableModel {
				e.paramRoles[k.name] = role
			}
			if role == CallableModel && !slices.Contains(e.moduleParams, b) {
				e.moduleParams = append(e.moduleParams, b)
			}
		}
	}
}

// calleeKey keys a callee expression for evidence: a plain name or an
// attribute chain of names, not a call or subscript.
func (m *Model) calleeKey(callee NodeID) (evKey, bool) {
	f := m.File
	callee = f.Unparen(callee)
	switch f.Kind(callee) {
	case KindIdentifier:
		if f.TextIs(callee, "self") {
			return evKey{}, false
		}
		if b := m.Resolve(callee); b != nil {
			switch b.Kind {
			case BindImport, BindFunction, BindClass:
				return evKey{}, false
			}
			return evKey{b.Scope, f.Name(callee)}, true
		}
		return evKey{-1, f.Name(callee)}, true
	case KindAttribute:
		for o := callee; ; {
			switch f.Kind(o) {
			case KindAttribute:
				o = f.Field(o, FieldObject)
				continue
			case KindIdentifier:
				if m.QualifiedName(callee) != "" {
					return evKey{}, false // a library's function
				}
				return evKey{attrScope, strings.Join(strings.Fields(f.Text(callee)), "")}, true
			}
			return evKey{}, false
		}
	}
	return evKey{}, false
}

// evidenceRole returns what the file's uses say calling callee does.
func (m *Model) evidenceRole(callee NodeID) Callable {
	k, ok := m.calleeKey(callee)
	if !ok {
		return CallableUnknown
	}
	e := m.ev()
	if r, ok := e.roles[k]; ok {
		return r
	}
	if k.scope >= 0 {
		if b := m.ResolveName(k.name, k.scope, ^uint32(0)); b != nil && b.Kind == BindParam {
			return e.paramRoles[k.name]
		}
	}
	return CallableUnknown
}

// traceGraph follows a back-propagated value to what it was computed
// from and reports whether it reached a forward pass or another origin
// of a graph (a module call, a loss of one, a local function, a method
// of an object). Only the names on such paths are recorded as carrying
// a graph: `y = y.cuda()` next to a loss is not. top is true for the
// value a backward call names itself, which carries a graph whatever it
// is bound by.
func (m *Model) traceGraph(e NodeID, depth int, top bool) bool {
	f := m.File
	if depth > 12 || e == NoNode {
		return false
	}
	e = f.Unparen(e)
	switch f.Kind(e) {
	case KindIdentifier:
		return m.traceBinding(m.Resolve(e), depth, top)
	case KindAttribute:
		return m.traceComputed(f.Field(e, FieldObject), depth+1)
	case KindSubscript:
		return m.traceComputed(f.Field(e, FieldValue), depth+1)
	case KindBinaryOperator:
		if op := f.Field(e, FieldOperator); f.TextIs(op, "*") || f.TextIs(op, "/") {
			// One factor of a product with a graph is enough for its
			// backward (`-dist.log_prob(a) * reward`): where one is seen
			// to carry one, what the other comes from is not taken for
			// an origin of a graph on that evidence alone.
			m.evidence.factors++
			l := m.traceComputed(f.Field(e, FieldLeft), depth+1)
			r := m.traceComputed(f.Field(e, FieldRight), depth+1)
			m.evidence.factors--
			if l || r {
				return true
			}
		}
		l := m.traceComputed(f.Field(e, FieldLeft), depth+1)
		r := m.traceComputed(f.Field(e, FieldRight), depth+1)
		return l || r
	case KindUnaryOperator:
		return m.traceComputed(f.Field(e, FieldArgument), depth+1)
	case KindCall:
		return m.traceCall(e, depth, false)
	}
	return false
}

// traceBinding is traceGraph for the value a binding holds.
func (m *Model) traceBinding(b *Binding, depth int, top bool) bool {
	f := m.File
	ev := m.evidence
	if b == nil || depth > 12 {
		return false
	}
	if done, seen := ev.traced[b]; seen {
		if top {
			ev.graph[b] = true
		}
		return done
	}
	ev.traced[b] = false
	ok := false
	switch b.Kind {
	case BindAssign, BindWithTarget:
		for _, v := range m.storesInto(b) {
			// `out[i:j] = model(x)` into the back-propagated `out`.
			ok = m.traceComputed(v, depth+1) || ok
		}
		switch {
		case ok:
		case literalValue(f, b.Value):
		case b.Unpacked && m.elementNoGraph(f.Unparen(b.Value), b.Index):
			// `loss, n, w = criterion(...)`: the callee returns a number there.
		case b.Unpacked && m.hostSibling(b):
			// `s2, r, done, _ = env.step(a)` and `torch.tensor(s2)`: the
			// call returns host data, not a graph.
		case b.Unpacked && b.Kind == BindAssign && f.Kind(f.Unparen(b.Value)) == KindIdentifier:
			// `out = model(x); recon, mu = out`: unpacked from what the
			// call produced, as `recon, mu = model(x)` is.
			if v := m.AssignedValue(f.Unparen(b.Value)); v != NoNode && f.Kind(f.Unparen(v)) == KindCall {
				ok = m.traceProducer(f.Unparen(v), depth+1)
			} else {
				ok = m.traceGraph(b.Value, depth+1, false)
			}
		case b.Unpacked:
			ok = m.traceProducer(f.Unparen(b.Value), depth+1)
		default:
			ok = m.traceGraph(b.Value, depth+1, false)
		}
	case BindAugAssign:
		if m.GradModeAt(b.Stmt) != GradDisabled {
			// What is added with grad disabled brings no graph.
			ok = m.traceComputed(b.Value, depth+1)
		}
		if prior := m.ResolveName(f.Text(b.Name), b.Scope, f.N(b.Stmt).Start); prior != nil && prior != b {
			ok = m.traceBinding(prior, depth+1, false) || ok
		}
	}
	ev.traced[b] = ok
	if !ok && ev.factors > 0 {
		delete(ev.traced, b) // traced again where unknown methods count
	}
	if ok || top {
		ev.graph[b] = true
	}
	return ok
}

// hostSibling reports whether another name unpacked by the statement
// that binds b is made into a tensor in its scope (`torch.tensor(s2)`,
// `torch.from_numpy(obs)`): what the call returns is host data.
func (m *Model) hostSibling(b *Binding) bool {
	f := m.File
	found := false
	f.Walk(m.Scopes[b.Scope].Node, func(id NodeID) {
		if found || f.Kind(id) != KindCall || m.scopeOf[id] != b.Scope {
			return
		}
		switch m.CallName(id) {
		case "torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.FloatTensor", "torch.Tensor":
		default:
			return
		}
		args := m.Args(id)
		if len(args) == 0 || f.Kind(f.Unparen(args[0])) != KindIdentifier {
			return
		}
		// Any binding of the name that statement makes: in a loop, the
		// first iteration's tensor is made from what was bound before it
		// (`obs = env.reset()`), the next ones' from what it unpacked.
		r, c, ok := m.bindingsOf(f.Unparen(args[0]))
		if r == nil || !ok {
			return
		}
		for i := c.first; i >= 0; i = m.binds[i].next {
			if r := &m.binds[i]; r != b && r.Unpacked && r.Stmt == b.Stmt {
				found = true
				return
			}
		}
	})
	return found
}

// resultHeld returns the call whose result a name holds, alone or
// unpacked (`logit, _ = self.predict_logits(x)`), or NoNode.
func (m *Model) resultHeld(a NodeID) NodeID {
	f := m.File
	a = f.Unparen(a)
	if f.Kind(a) != KindIdentifier {
		return NoNode
	}
	if b := m.Resolve(a); b != nil && b.Kind == BindAssign && f.Kind(f.Unparen(b.Value)) == KindCall {
		return f.Unparen(b.Value)
	}
	return NoNode
}

// storesInto returns the values written into the object that binding b
// holds by subscript assignments in its scope (`out[i] = v`), while no
// other binding of the name is made there: the object is filled in place.
func (m *Model) storesInto(b *Binding) []NodeID {
	f := m.File
	if b.Kind != BindAssign || b.Unpacked || f.Kind(b.Name) != KindIdentifier {
		return nil
	}
	if c, ok := m.bindIndex[bindKey{b.Scope, f.view(b.Name)}]; !ok || c.first != c.last {
		return nil
	}
	name := f.Text(b.Name)
	body := m.Scopes[b.Scope].Node
	var out []NodeID
	f.Walk(body, func(id NodeID) {
		if f.Kind(id) != KindAssignment || m.scopeOf[id] != b.Scope {
			return
		}
		t := f.Field(id, FieldLeft)
		if f.Kind(t) == KindSubscript && f.TextIs(f.Unparen(f.Field(t, FieldValue)), name) {
			out = append(out, f.Field(id, FieldRight))
		}
	})
	return out
}

// traceComputed follows an operand only when it is computed (a call, or
// a name assigned from one): a number, a parameter or a loop variable
// next to a loss says nothing.
func (m *Model) traceComputed(e NodeID, depth int) bool {
	f := m.File
	e = f.Unparen(e)
	switch f.Kind(e) {
	case KindCall, KindBinaryOperator, KindUnaryOperator, KindSubscript, KindAttribute:
		return m.traceGraph(e, depth, false)
	case KindIdentifier:
		if b := m.Resolve(e); b != nil && (b.Kind == BindAssign || b.Kind == BindAugAssign) && (computedValue(f, b.Value) || m.unpackedComputed(b)) {
			return m.traceGraph(e, depth, false)
		}
	}
	return false
}

// traceCall follows a graph-carrying call to its callee and arguments.
//
// unpacked says the result is unpacked (`loss, logs = crit(model, x)`):
// a callee returning a tuple whose first element is a loss is a loss
// function, whatever its arguments.
func (m *Model) traceCall(call NodeID, depth int, unpacked bool) bool {
	f := m.File
	if m.scalarResult(call) {
		return false // `coef * loss` with `def coef(self) -> float`
	}
	if method := m.MethodName(call); method != "" {
		recv := m.Receiver(call)
		switch {
		case detachingMethods[method]:
			return false
		case graphPreserving[method]:
			return m.traceComputed(recv, depth+1)
		}
		if q := m.QualifiedName(f.Field(call, FieldFunction)); q != "" {
			m.noteProjectResult(call) // `utils.predict(model, x)`
			// `F.mse_loss(pred, y)`: the prediction comes first, the
			// target after it is data.
			if args := m.Args(call); isFunctionalLoss(q) && len(args) > 0 {
				return m.traceComputed(args[0], depth+1)
			}
			return false
		}
		if k := f.Kind(f.Unparen(recv)); k == KindCall || k == KindSubscript {
			return m.traceComputed(recv, depth+1)
		}
		if fn := f.Unparen(f.Field(call, FieldFunction)); m.selfSubmodule(fn) {
			return m.traceUnknownCallee(call, fn, depth, unpacked)
		}
		if m.plainLibraryObject(f.Unparen(recv)) {
			return false // `args = parser.parse_args()`: options, not tensors
		}
		if m.isDistribution(recv) && m.traceDistribution(recv, depth+1) {
			return true // `dist.log_prob(a)`, dist made from a model's output
		}
		return m.traceProducer(call, depth)
	}
	fn := f.Field(call, FieldFunction)
	q := m.QualifiedName(fn)
	switch {
	case q != "":
		m.noteProjectResult(call)
		ok := false
		if name, isTorch := strings.CutPrefix(q, "torch."); isTorch && !nonDifferentiable[name] {
			for _, a := range m.Args(call) {
				ok = m.traceComputed(a, depth+1) || ok
			}
		}
		return ok
	case m.LocalCallee(call) != NoNode:
		def := m.LocalCallee(call)
		if ps := m.GraphParams(def); len(ps) > 0 && !m.returnsGraph(def) {
			// A helper whose result is made from its arguments (`flip(batch)`
			// returns a modified copy): the graph, if any, comes from them.
			ok, args := false, m.Args(call)
			for _, i := range ps {
				if i < len(args) {
					ok = m.traceComputed(args[i], depth+1) || ok
				}
			}
			// What it computes on the way is back-propagated too
			// (`pred = _predict(model, x); return F.mse_loss(pred, y)`).
			m.traceReturns(def, depth)
			return ok
		}
		return m.markReturnsGraph(def, depth)
	}
	if b := m.Resolve(f.Unparen(fn)); b != nil && b.Kind == BindClass {
		return false
	}
	if _, ok := m.calleeKey(fn); !ok {
		return false
	}
	return m.traceUnknownCallee(call, fn, depth, unpacked)
}

// traceUnknownCallee records what a graph-carrying call of a callee the
// file does not define does.
func (m *Model) traceUnknownCallee(call, fn NodeID, depth int, unpacked bool) bool {
	f := m.File
	// An unknown callee: a loss when an argument leads to a forward pass
	// (`crit(net(x), y)`) or its name says so (`criterion(out)`, where out
	// comes from what this file cannot see), else the forward pass itself.
	// The first argument that leads to a graph is the prediction; what
	// follows it (the target, `batch.y`) is data, and is not marked.
	fed := false
	for _, a := range m.Args(call) {
		if fed = m.traceComputed(a, depth+1); fed {
			break
		}
	}
	switch name := nameCallable(lastName(f, fn)); {
	case fed || unpacked && name != CallableModel || name == CallableLoss:
		// An unpacked result (`loss, logs = compute(batch)`) is taken for
		// a loss and its logs, but not where the callee's name says model
		// (`pred, aux = model(x)`, pred compared with the target).
		m.noteRole(fn, CallableLoss)
	case slices.ContainsFunc(m.Args(call), m.requiresGradInput):
		// `func(z).sum().backward()` with `z.requires_grad_(True)`: the
		// graph may be the input's alone, so the callee may hold no
		// parameter (an activation function plotted with its slope).
	default:
		m.noteRole(fn, CallableModel)
	}
	return true
}

// requiresGradInput reports whether arg is a name of its function bound
// to a tensor made to require grad: by its factory
// (`torch.zeros(n, requires_grad=True)`), by `x.requires_grad_()` or by
// `x.requires_grad = True`.
func (m *Model) requiresGradInput(arg NodeID) bool {
	f := m.File
	arg = f.Unparen(arg)
	if f.Kind(arg) != KindIdentifier {
		return false
	}
	b := m.Resolve(arg)
	if b == nil {
		return false
	}
	if b.Kind == BindAssign && b.Value != NoNode && m.makesLeaf(b.Value, 0) {
		return true
	}
	return m.leavesMadeIn(m.ScopeNode(arg))[f.Text(arg)]
}

type leavesKey struct{ scope NodeID }

// leavesMadeIn returns the names that scope makes require grad in place
// (`x.requires_grad_()`, `x.requires_grad = True`), found in one walk.
func (m *Model) leavesMadeIn(scope NodeID) map[string]bool {
	return m.Memo(leavesKey{scope}, func() any {
		f := m.File
		names := map[string]bool{}
		f.Walk(scope, func(n NodeID) {
			switch f.Kind(n) {
			case KindCall:
				if r := f.Unparen(m.Receiver(n)); f.Kind(r) == KindIdentifier && m.leafCall(n) {
					names[f.Text(r)] = true
				}
			case KindAssignment:
				l := f.Field(n, FieldLeft)
				if f.Kind(l) == KindAttribute && f.TextIs(f.Field(l, FieldAttribute), "requires_grad") &&
					f.Kind(f.Field(l, FieldObject)) == KindIdentifier && f.Kind(f.Field(n, FieldRight)) == KindTrue {
					names[f.Text(f.Field(l, FieldObject))] = true
				}
			}
		})
		return names
	}).(map[string]bool)
}

// projectRef returns the ref of what call calls when it may be a
// function or method of another file of the project (`predict(m, x)`
// imported, `self.predict_logits(x)` of a base class there), else "".
func (m *Model) projectRef(call NodeID) string {
	f := m.File
	if m.LocalCallee(call) != NoNode {
		return ""
	}
	ref := m.calleeRef(call)
	if ref == "" {
		if fn := f.Unparen(f.Field(call, FieldFunction)); f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldObject), "self") {
			ref = m.inheritedMethodRef(m.EnclosingClass(call), f.Text(f.Field(fn, FieldAttribute)))
		}
	}
	if ref == "" || strings.HasPrefix(ref, "#") || !strings.Contains(ref, ".") {
		return ""
	}
	return ref
}

// noteProjectResult records that the result of call, a call of a
// function or method of another file of the project, is
// back-propagated: the project tells its file.
func (m *Model) noteProjectResult(call NodeID) {
	if ref := m.projectRef(call); ref != "" {
		m.evidence.projectResults[ref] = true
	}
}

// selfSubmodule reports whether `self.name`, called, calls an attribute
// that its class holds rather than a method: no method of the class has
// that name, and the class or a base class of the file assigns it, or
// the class has no base class that could define it.
func (m *Model) selfSubmodule(attr NodeID) bool {
	f := m.File
	if f.Kind(attr) != KindAttribute || !f.TextIs(f.Field(attr, FieldObject), "self") {
		return false
	}
	class := m.EnclosingClass(attr)
	if class == NoNode || m.MethodOf(class, f.Text(f.Field(attr, FieldAttribute))) != NoNode {
		return false
	}
	return len(m.ClassBases(class)) == 0 || m.selfAttrs(class).count[f.Text(attr)] > 0 || m.selfAttrValue(attr) != NoNode
}

// traceDistribution traces what a torch distribution (`Categorical(
// logits=logits)`, or a name bound to one) is made from: its log-probs
// and entropies carry their graph.
func (m *Model) traceDistribution(dist NodeID, depth int) bool {
	f := m.File
	dist = f.Unparen(dist)
	if f.Kind(dist) == KindIdentifier {
		dist = f.Unparen(m.AssignedValue(dist))
	}
	ok := false
	f.Children(f.Field(dist, FieldArguments), func(c NodeID) bool {
		switch f.Kind(c) {
		case KindKeywordArgument:
			ok = m.traceComputed(f.Field(c, FieldValue), depth) || ok
		case KindDictionarySplat, KindListSplat:
		default:
			ok = m.traceComputed(c, depth) || ok
		}
		return true
	})
	return ok
}

// traceProducer records a method callee (`model.compute_loss(...)`) or
// an unpacked call (`loss, logs = crit(out, y)`) whose result carries a
// graph.
func (m *Model) traceProducer(call NodeID, depth int) bool {
	f := m.File
	if f.Kind(call) != KindCall {
		return false
	}
	m.noteProjectResult(call)
	fn := f.Unparen(f.Field(call, FieldFunction))
	if def := m.LocalCallee(call); def != NoNode {
		return m.markReturnsGraph(def, depth)
	}
	if m.QualifiedName(fn) != "" {
		return false
	}
	if f.Kind(fn) == KindAttribute && m.MethodName(call) != "" {
		if m.selfSubmodule(fn) {
			return m.traceCall(call, depth+1, false) // `self.g12(x)`: a submodule, or a loss
		}
		if m.evidence.factors > 0 {
			return false
		}
		if k, ok := m.producerKey(fn); ok {
			m.evidence.producers[k] = true
			return true
		}
		return false
	}
	return m.traceCall(call, depth+1, true)
}

// producerKey names a method callee for producers: by its text
// (`model.compute_loss`, for a parameter or an attribute of self in
// every function of the file), prefixed by its function's scope where
// its object is a name assigned in a function (`dist.log_prob`, whose
// `dist = Categorical(...)` differs from one function to the next).
func (m *Model) producerKey(fn NodeID) (string, bool) {
	f := m.File
	k, ok := m.calleeKey(fn)
	if !ok {
		return "", false
	}
	root := fn
	for f.Kind(root) == KindAttribute {
		root = f.Unparen(f.Field(root, FieldObject))
	}
	if b := m.Resolve(root); f.Kind(root) == KindIdentifier && b != nil && b.Kind == BindAssign && b.Scope != 0 {
		return fmt.Sprintf("%d:%s", b.Scope, k.name), true
	}
	return k.name, true
}

// markReturnsGraph records that a function of this file returns a value
// that is back-propagated, and so does what it returns from a function
// of its own (`return generate_iic(s, t)`). It reports false for one
// that returns parsed command-line arguments: `loss / args.accum_steps`
// back-propagates no graph of args.
func (m *Model) markReturnsGraph(def NodeID, depth int) bool {
	if m.returnsParsedArgs(def) || m.returnsDetached(def) {
		return false
	}
	if m.evidence.returnsGraph[def] {
		return true
	}
	m.evidence.returnsGraph[def] = true
	m.traceReturns(def, depth)
	return true
}

// returnsDetached reports whether every value a function of this file
// returns visibly carries no autograd history (`return samples.cpu()`
// with `samples = G.sample(n).detach()`): a backward through what a
// caller computes from it does not reach the function.
func (m *Model) returnsDetached(def NodeID) bool {
	vals := m.ReturnValues(def)
	for _, v := range vals {
		if v == NoNode || !m.detachedValue(v, 0) {
			return false
		}
	}
	return len(vals) > 0
}

// reshaping are the tensor methods that give their receiver's data, and
// its history, moved, cast or viewed otherwise, taking no other tensor.
var reshaping = map[string]bool{
	"cpu": true, "cuda": true, "to": true, "float": true, "double": true, "half": true, "bfloat16": true,
	"view": true, "reshape": true, "squeeze": true, "unsqueeze": true, "contiguous": true, "flatten": true,
	"clone": true, "permute": true, "transpose": true, "t": true,
}

// detachedValue reports whether v visibly carries no autograd history: a
// detached tensor (`.detach()`, `.item()`, `.numpy()`), moved, cast or
// viewed after that (`x.detach().cpu()`), a plain Python value, or a name
// every binding reaching v binds to one of these.
func (m *Model) detachedValue(v NodeID, depth int) bool {
	f := m.File
	v = f.Unparen(v)
	if depth > 8 {
		return false
	}
	switch f.Kind(v) {
	case KindCall:
		switch method := m.MethodName(v); {
		case method == "":
		case detachingMethods[method]:
			return true
		case reshaping[method]:
			return m.detachedValue(m.Receiver(v), depth+1)
		}
	case KindIdentifier:
		if b := m.Resolve(v); b == nil || b.Kind != BindAssign {
			break
		}
		vals, ok := m.assignedValues(v)
		if !ok || len(vals) == 0 || slices.ContainsFunc(vals, func(a NodeID) bool { return !m.detachedValue(a, depth+1) }) {
			return false
		}
		return !m.WrittenInPlace(m.ScopeNode(v), f.Text(v))
	}
	return m.plainValue(v, depth+1)
}

// WrittenInPlace reports whether function fn writes into the tensor a
// name holds: a store into an element (`out[mask] = g(x)[mask]`) or an
// in-place method (`out.add_(g(x))`), which may bring another graph in.
func (m *Model) WrittenInPlace(fn NodeID, name string) bool {
	f := m.File
	found := false
	f.Walk(fn, func(id NodeID) {
		if found || m.ScopeNode(id) != fn {
			return
		}
		switch f.Kind(id) {
		case KindAssignment, KindAugmentedAssignment:
			left := f.Unparen(f.Field(id, FieldLeft))
			for f.Kind(left) == KindSubscript || f.Kind(left) == KindAttribute && f.Kind(f.Unparen(f.Field(left, FieldObject))) == KindSubscript {
				if f.Kind(left) == KindAttribute {
					left = f.Unparen(f.Field(left, FieldObject))
				}
				left = f.Unparen(f.Field(left, FieldValue))
				found = found || f.Kind(left) == KindIdentifier && f.TextIs(left, name)
			}
		case KindCall:
			method := m.MethodName(id)
			r := f.Unparen(m.Receiver(id))
			found = strings.HasSuffix(method, "_") && !strings.HasPrefix(method, "_") && method != "requires_grad_" &&
				f.Kind(r) == KindIdentifier && f.TextIs(r, name)
		}
	})
	return found
}

// traceReturns records that what a function of this file returns is
// back-propagated, and so is what that was computed from:
// `return F.mse_loss(_predict(model, x), y)`.
func (m *Model) traceReturns(def NodeID, depth int) {
	f := m.File
	for _, v := range m.ReturnValues(def) {
		if v == NoNode {
			continue
		}
		if v = f.Unparen(v); f.Kind(v) == KindDictionary {
			// `return {"rgb": rgb, "depth": d}`: the caller takes an entry
			// out to back-propagate, any of them.
			f.Children(v, func(pair NodeID) bool {
				if f.Kind(pair) == KindPair {
					m.traceComputed(f.Field(pair, FieldValue), depth+1)
				}
				return true
			})
			continue
		}
		m.traceComputed(v, depth+1)
	}
}

// returnsParsedArgs reports whether a function of this file returns the
// command-line arguments an argument parser parsed
// (`return parser.parse_args()`, directly or through a name).
func (m *Model) returnsParsedArgs(def NodeID) bool {
	f := m.File
	for _, v := range m.ReturnValues(def) {
		v = f.Unparen(v)
		if f.Kind(v) == KindIdentifier {
			v = f.Unparen(m.AssignedValue(v))
		}
		if f.Kind(v) == KindCall {
			switch m.MethodName(v) {
			case "parse_args", "parse_known_args":
				return true
			}
		}
	}
	return false
}

// literalValue reports whether a value is a literal: a number, string,
// None, or an empty container.
func literalValue(f *File, v NodeID) bool {
	switch f.Kind(f.Unparen(v)) {
	case KindList, KindDictionary, KindTuple, KindSet:
		return true
	}
	return ScalarLiteral(f, v)
}

// ScalarLiteral reports whether a value is a number, a string, True,
// False or None written as such.
func ScalarLiteral(f *File, v NodeID) bool {
	switch f.Kind(f.Unparen(v)) {
	case KindInteger, KindFloat, KindString, KindTrue, KindFalse, KindNone:
		return true
	}
	return false
}

// unpackedComputed reports whether b is a name unpacked from a name
// bound to a computed value (`out = model(x); recon, mu = out`).
func (m *Model) unpackedComputed(b *Binding) bool {
	f := m.File
	if b.Kind != BindAssign || !b.Unpacked || f.Kind(f.Unparen(b.Value)) != KindIdentifier {
		return false
	}
	v := m.AssignedValue(f.Unparen(b.Value))
	return v != NoNode && computedValue(f, v)
}

// computedValue reports whether a value is computed from other values.
func computedValue(f *File, v NodeID) bool {
	switch f.Kind(f.Unparen(v)) {
	case KindCall, KindBinaryOperator, KindUnaryOperator, KindSubscript, KindAttribute:
		return true
	}
	return false
}

// ResultBackpropagated reports whether the file back-propagates through
// what function def returns: a caller of it, or of a method of its name
// on an object, back-propagates a value computed from its result
// (`log_prob = policy.evaluate(s); (-log_prob).mean().backward()`).
func (m *Model) ResultBackpropagated(def NodeID) bool {
	e := m.ev()
	if e.returnsGraph[def] {
		return true
	}
	if o := m.lookup(m.localRef(def), WantBackprop); o != nil && o.ResultBackprop {
		return true // by a caller in another file
	}
	if m.EnclosingClass(def) == NoNode {
		return false
	}
	suffix := "." + m.FunctionName(def)
	for name := range e.producers {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// ConditionalInFunction reports whether node id runs only on some paths
// through its function: under an if, an else, an except or a match.
func (m *Model) ConditionalInFunction(id NodeID) bool {
	return conditionalWithin(m.File, id, m.ScopeNode(id))
}

// elementNoGraph reports whether the element at index (a Binding.Index)
// of what call returns is a plain number or string on every return of a
// function or `__call__` of this file: `return loss, 75.0 * rampup(t)`.
func (m *Model) elementNoGraph(call NodeID, index int) bool {
	f := m.File
	if f.Kind(call) != KindCall || index == -1 {
		return false
	}
	def := m.LocalCallee(call)
	if def == NoNode {
		if fn := f.Unparen(f.Field(call, FieldFunction)); f.Kind(fn) == KindIdentifier {
			if c := m.receiverClass(fn); f.Kind(c) == KindIdentifier {
				if cb := m.Resolve(c); cb != nil && cb.Kind == BindClass {
					def = m.MethodOf(cb.Stmt, "__call__")
				}
			}
		}
	}
	if def == NoNode {
		return false
	}
	vals := m.ReturnValues(def)
	for _, v := range vals {
		v = f.Unparen(v)
		if k := f.Kind(v); k != KindExpressionList && k != KindTuple {
			return false
		}
		kids := f.ChildList(v)
		if i := elementPos(index, len(kids)); i < 0 || !m.plainValue(kids[i], 0) {
			return false
		}
	}
	return len(vals) > 0
}

// plainValue reports whether a value is a Python number, string or bool
// that no tensor flows into: a literal, a cast (`float(...)`, `.item()`),
// `math` or `numpy` arithmetic, a tensor's sizes (`x.size(0)`,
// `x.shape[0]`), `max`/`min`/`abs`/`round` of these, a
// parameter declared a scalar, a name whose every binding is one (a
// counter), an attribute of self assigned once to one, a local function
// that returns one, or arithmetic on these.
func (m *Model) plainValue(v NodeID, depth int) bool {
	f := m.File
	v = f.Unparen(v)
	if depth > 8 {
		return false
	}
	if ScalarLiteral(f, v) {
		return true
	}
	switch f.Kind(v) {
	case KindBinaryOperator:
		return m.plainValue(f.Field(v, FieldLeft), depth+1) && m.plainValue(f.Field(v, FieldRight), depth+1)
	case KindUnaryOperator:
		return m.plainValue(f.Field(v, FieldArgument), depth+1)
	case KindIdentifier:
		b := m.Resolve(v)
		if b != nil && b.Kind == BindParam {
			return m.plainParam(b)
		}
		if b == nil || b.Kind != BindAssign && b.Kind != BindAugAssign {
			return false
		}
		c, ok := m.bindIndex[bindKey{b.Scope, f.view(v)}]
		if !ok {
			return false
		}
		// Every binding of the name in its scope: `n = 0`, `n += 1`.
		for i := c.first; i >= 0; i = m.binds[i].next {
			o := &m.binds[i]
			if o.Kind != BindAssign && o.Kind != BindAugAssign || o.Unpacked && !m.sizes(o.Value) || !o.Unpacked && !m.plainValue(o.Value, depth+1) {
				return false
			}
		}
		return true
	case KindSubscript:
		// `x.shape[0]`: a Python int.
		a := f.Unparen(f.Field(v, FieldValue))
		return f.Kind(a) == KindAttribute && f.TextIs(f.Field(a, FieldAttribute), "shape")
	case KindAttribute:
		if f.TextIs(f.Field(v, FieldAttribute), "ndim") {
			return true
		}
		// `self.weight` that its class assigns once, a plain value.
		obj, class := f.Field(v, FieldObject), m.EnclosingClass(v)
		if !f.TextIs(obj, "self") || class == NoNode {
			return false
		}
		attrs := m.selfAttrs(class)
		return attrs.count[f.Text(v)] == 1 && attrs.last[f.Text(v)] != NoNode && m.plainValue(attrs.last[f.Text(v)], depth+1)
	case KindCall:
		if q := m.CallName(v); castBuiltins[q] || strings.HasPrefix(q, "math.") || strings.HasPrefix(q, "numpy.") {
			return true
		}
		if q := m.CallName(v); q == "max" || q == "min" || q == "abs" || q == "round" {
			args := m.Args(v)
			for _, a := range args {
				if !m.plainValue(a, depth+1) {
					return false
				}
			}
			return len(args) > 0
		}
		switch m.MethodName(v) {
		case "item", "tolist", "size", "numel", "dim":
			return true // Python numbers, or a torch.Size of them
		}
		def := m.LocalCallee(v)
		if def == NoNode {
			return false
		}
		vals := m.ReturnValues(def)
		for _, r := range vals {
			if !m.plainValue(r, depth+1) {
				return false
			}
		}
		return len(vals) > 0
	}
	return false
}

// sizes reports whether v is a tensor's sizes, unpacked into Python ints
// (`n, c = x.shape`, `n, c = x.size()`).
func (m *Model) sizes(v NodeID) bool {
	f := m.File
	v = f.Unparen(v)
	switch f.Kind(v) {
	case KindAttribute:
		return f.TextIs(f.Field(v, FieldAttribute), "shape")
	case KindCall:
		return m.MethodName(v) == "size" && len(m.Args(v)) == 0
	}
	return false
}

// plainParam reports whether a parameter is declared a Python scalar: by
// its annotation (`w: float`) or by a number as its default (`w=10.0`).
func (m *Model) plainParam(b *Binding) bool {
	f := m.File
	p := f.Parent(b.Name)
	if k := f.Kind(p); (k == KindTypedParameter || k == KindTypedDefaultParameter) && scalarType(f, f.Field(p, FieldType)) {
		return true
	}
	if k := f.Kind(p); k == KindDefaultParameter || k == KindTypedDefaultParameter {
		switch f.Kind(f.Unparen(f.Field(p, FieldValue))) {
		case KindInteger, KindFloat:
			return true
		}
	}
	return false
}

// plainLibraries are libraries whose objects' methods return no tensor:
// command lines, configurations, files, logs.
var plainLibraries = []string{"ctypes.", "argparse.", "configparser.", "logging.", "json.", "yaml.", "omegaconf.", "easydict.",
	"ml_collections.", "collections.", "pathlib.", "csv.", "tqdm.", "datetime.", "random.", "types."}

// ctypesLoaders are the ctypes classes that load a C library.
var ctypesLoaders = map[string]bool{"CDLL": true, "WinDLL": true, "OleDLL": true, "PyDLL": true}

// plainLibraryObject reports whether recv is an object made by one of the
// plainLibraries (`parser = argparse.ArgumentParser()`).
func (m *Model) plainLibraryObject(recv NodeID) bool {
	class := m.receiverClass(recv)
	if class == NoNode {
		return false
	}
	q := m.QualifiedName(class)
	if q == "" && m.File.Kind(class) == KindIdentifier && ctypesLoaders[m.File.Text(class)] {
		q = "ctypes." // `from ctypes import *`
	}
	for _, p := range plainLibraries {
		if strings.HasPrefix(q, p) {
			return true
		}
	}
	return false
}
