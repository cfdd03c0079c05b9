package rules

import (
	"slices"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// Where a graph goes: does a value's autograd history reach a
// differentiation? Three answers, and unknown is one of them: a value
// handed to code the file does not show, stored in an attribute or
// returned to callers nobody sees may be back-propagated there.

// fate is the answer for one value.
type fate uint8

const (
	// fateNo: every way the value goes ends its graph before any
	// differentiation: on the host, as indices, detached, or dropped.
	fateNo fate = iota
	// fateUnknown: some way leads to code whose use of it is not seen.
	fateUnknown
	// fateYes: some way reaches a backward() or torch.autograd.grad.
	fateYes
)

// join is the answer for a value that goes several ways: yes when one
// reaches a differentiation, unknown when one is unknown.
func (a fate) join(b fate) fate { return max(a, b) }

// fateApart follows value e (a forward pass's output, or what it became)
// through what the function does with it, and says whether its graph
// reaches a differentiation; at is the first place where the answer
// became unknown (NoNode for a known answer). For a value made where sw
// ran (NoNode for none), a use that never runs where sw did
// (exclusiveArms: `if phase == "train": loss.backward()` after `else:
// model.eval()`) is not followed.
func fateApart(m *analyzer.Model, e, sw analyzer.NodeID) (fate, analyzer.NodeID) {
	w := fateWalk{m: m, at: analyzer.NoNode, apart: sw}
	return w.answer(w.value(e, 0))
}

// answer returns r with the place where it became unknown, NoNode for a
// known answer.
func (w *fateWalk) answer(r fate) (fate, analyzer.NodeID) {
	if r != fateUnknown {
		return r, analyzer.NoNode
	}
	return r, w.at
}

type fateWalk struct {
	m  *analyzer.Model
	at analyzer.NodeID
	// last is the node of the value at the use being answered.
	last analyzer.NodeID
	// seen are the names whose uses are being answered: a value that
	// comes back to one (`x[i] = x[j]`) adds no way of its own.
	seen map[analyzer.NodeID]bool
	// strict: an answer that decides whether a finding exists, rather
	// than how sure it is, takes no project function's result for an end.
	strict bool
	// apart: where the value is made after a switch that some uses
	// never run with (fateApart); NoNode for none.
	apart analyzer.NodeID
	// local: a value returned goes where callers take it, unknown here.
	local bool
	// totals counts the ways that end in a running total nothing reads
	// (unreadTotal), visited the uses of names followed.
	totals, visited int
}

// uses joins the answers for the uses of the name a binding binds,
// skipping those that skip says to.
func (w *fateWalk) uses(name analyzer.NodeID, depth int, skip func(u analyzer.NodeID) bool) fate {
	if w.seen[name] {
		return fateNo
	}
	if w.seen == nil {
		w.seen = map[analyzer.NodeID]bool{}
	}
	w.seen[name] = true
	defer delete(w.seen, name)
	r := fateNo
	for _, u := range w.m.ReachedUsesOf(name) {
		if skip != nil && skip(u) || w.apart != analyzer.NoNode && exclusiveArms(w.m, w.apart, u) {
			continue
		}
		w.visited++
		if r = r.join(w.value(u, depth+1)); r == fateYes {
			break
		}
	}
	return r
}

func (w *fateWalk) unknown(at analyzer.NodeID) fate {
	if w.at == analyzer.NoNode {
		w.at = at
	}
	return fateUnknown
}

func (w *fateWalk) value(e analyzer.NodeID, depth int) fate {
	m, f := w.m, w.m.File
	if depth > 48 {
		return w.unknown(e) // a way too long to follow
	}
	e, p := useOf(f, e)
	w.last = e
	switch f.Kind(p) {
	case analyzer.KindAttribute:
		name, call, ok := attributeUse(f, e, p)
		if !ok {
			return w.unknown(p)
		}
		if call == analyzer.NoNode {
			switch name {
			case "mean", "stddev", "variance", "probs", "logits", "loc", "scale", "mode", "T", "real", "imag":
				return w.value(p, depth+1)
			}
			if analyzer.NonGradAttribute(name) {
				return fateNo // `x.shape`, `x.ndim`, `x.data`
			}
			return w.unknown(p)
		}
		switch {
		case m.IsBackwardCall(call):
			return fateYes
		case w.local && name == "numpy":
			// Read without a detach on the way, which raises on a tensor
			// that requires grad: the code says there is no graph (its
			// callers disable grad), or what it reads has none.
			return w.unknown(call)
		case name == "detach" || name == "detach_" || hostEndMethods[name]:
			return fateNo
		case passMethods[name], analyzer.TensorMethod(name), name == "log_prob", name == "rsample", name == "entropy":
			return w.value(call, depth+1)
		}
		return w.unknown(call)
	case analyzer.KindSubscript, analyzer.KindUnaryOperator, analyzer.KindBinaryOperator, analyzer.KindBooleanOperator:
		return w.value(p, depth+1)
	case analyzer.KindConditionalExpression:
		if f.Field(p, analyzer.FieldCondition) == e {
			return fateNo
		}
		return w.value(p, depth+1)
	case analyzer.KindComparisonOperator, analyzer.KindInterpolation:
		return fateNo
	case analyzer.KindExpressionStatement, analyzer.KindDeleteStatement:
		return fateNo // computed and dropped, or deleted
	case analyzer.KindExpressionList:
		switch f.Kind(f.Parent(p)) {
		case analyzer.KindDeleteStatement:
			return fateNo // `del d1, d2`
		case analyzer.KindReturnStatement:
			return w.value(p, depth+1) // `return acc, torch.cat(outs)`: returned as the other parts are
		}
	case analyzer.KindReturnStatement:
		// The project's callers say: a result they back-propagate is,
		// one they do not is not (a function nothing calls assumes its
		// grad mode already).
		if fn := m.ScopeNode(p); fn != analyzer.Root && m.ResultBackpropagated(fn) {
			return fateYes
		}
		if w.local {
			return w.unknown(p)
		}
		return fateNo
	case analyzer.KindListComprehension, analyzer.KindGeneratorExpression:
		if f.Field(p, analyzer.FieldBody) == e {
			return w.value(p, depth+1) // `[model(x) for x in loader]`: where the list goes
		}
	case analyzer.KindKeywordArgument:
		return w.argument(f.Parent(p), depth)
	case analyzer.KindArgumentList:
		return w.argument(p, depth)
	case analyzer.KindTuple, analyzer.KindList:
		if args := f.Parent(p); f.Kind(args) == analyzer.KindArgumentList {
			call := f.Parent(args)
			if q := m.CallName(call); q == "torch.cat" || q == "torch.stack" {
				return w.argument(args, depth)
			}
			// `balancer.step([loss_a, loss_b])`: a function of the
			// project given the list says what it does with its elements.
			if r, known := w.projectArgument(call, p, depth); known {
				return r
			}
		}
		// `outputs = [outputs]`: a sequence bound to a name, where its
		// uses take it.
		if a := f.Parent(p); f.Kind(a) == analyzer.KindAssignment && f.Field(a, analyzer.FieldRight) == p &&
			f.Kind(f.Field(a, analyzer.FieldLeft)) == analyzer.KindIdentifier {
			return w.value(p, depth+1)
		}
		return w.unknown(p)
	case analyzer.KindAssignment:
		if f.Field(p, analyzer.FieldLeft) == e {
			return fateNo // `out[:, :6] = 0`: written into, not taken anywhere
		}
		if f.Field(p, analyzer.FieldRight) != e {
			return w.unknown(p)
		}
		if left := f.Field(p, analyzer.FieldLeft); w.local && runningSum(f, left, f.Field(p, analyzer.FieldRight)) {
			return w.unknown(p) // `total = total + loss`: a running total, as above
		}
		r := w.targets(f.Field(p, analyzer.FieldLeft), depth)
		if outer := f.Parent(p); f.Kind(outer) == analyzer.KindAssignment && f.Field(outer, analyzer.FieldRight) == p {
			r = r.join(w.value(p, depth+1))
		}
		return r
	case analyzer.KindAugmentedAssignment:
		if f.Field(p, analyzer.FieldRight) == e {
			if w.local {
				// A running total (`total += loss`): where it ends is
				// TL101's question, not this pass's, unless nothing ever
				// reads it (`entropy += dist.entropy().mean()` in a
				// rollout whose update leaves it out): it keeps the
				// graphs, and takes them nowhere.
				if left := f.Field(p, analyzer.FieldLeft); f.Kind(left) == analyzer.KindIdentifier && unreadTotal(m, left) {
					w.totals++
					return fateNo
				}
				return w.unknown(p)
			}
			return w.targets(f.Field(p, analyzer.FieldLeft), depth)
		}
		if f.Field(p, analyzer.FieldLeft) == e {
			if f.Kind(e) == analyzer.KindIdentifier {
				return w.uses(e, depth, nil) // `total /= n`: where the new total goes
			}
			return fateNo // `losses[-1] /= n`: changed in place, in the container the walk follows
		}
	case analyzer.KindForStatement, analyzer.KindForInClause:
		// `for loss in losses:`, `[h.data for h in hidden]`: each element.
		if f.Field(p, analyzer.FieldRight) == e {
			left := f.Field(p, analyzer.FieldLeft)
			if kids := f.ChildList(left); m.CallName(e) == "enumerate" && len(kids) == 2 &&
				(f.Kind(left) == analyzer.KindPatternList || f.Kind(left) == analyzer.KindTuplePattern) {
				return w.targets(kids[1], depth) // `for i, out in enumerate(outs)`: i is a count
			}
			return w.targets(left, depth)
		}
	}
	return w.unknown(p)
}

// projectArgument answers for arg passed to call of a function of the
// project, from its facts: known is false where they say nothing.
func (w *fateWalk) projectArgument(call, arg analyzer.NodeID, depth int) (r fate, known bool) {
	known, backprop, kept, dropped := w.m.ArgUse(call, arg)
	return w.argUse(call, depth, known, backprop, kept, dropped)
}

// argUse is projectArgument's answer from what ArgUse says of the
// argument.
func (w *fateWalk) argUse(call analyzer.NodeID, depth int, known, backprop, kept, dropped bool) (r fate, ok bool) {
	switch {
	case !known:
		return fateNo, false
	case backprop:
		return fateYes, true
	case w.local && !kept && dropped:
		// Ended there: every use of it in the function ends its graph
		// (CutParams, DropsArgs), and nothing of it comes back.
		return fateNo, true
	case w.local && !kept:
		// Neither handed back nor seen to end there: the function may
		// keep it where its facts do not show (a rollout storage's
		// `feed`), for a backward elsewhere.
		return w.unknown(call), true
	case kept || w.strict:
		return w.value(call, depth+1), true
	}
	return fateNo, true
}

// argument answers for a value passed to the call whose argument list
// is args.
// differentiatingFunctions are library functions that differentiate the
// loss they are given (an inner step of meta-learning).
var differentiatingFunctions = map[string]bool{
	"torchmeta.utils.gradient_based.gradient_update_parameters": true,
	"torchmeta.utils.gradient_update_parameters":                true,
}

func (w *fateWalk) argument(args analyzer.NodeID, depth int) fate {
	m, f := w.m, w.m.File
	call := f.Parent(args)
	if f.Kind(call) != analyzer.KindCall {
		return w.unknown(args)
	}
	if m.IsBackwardCall(call) {
		return fateYes // torch.autograd.grad(out, x), torch.autograd.backward(loss)
	}
	if w.local && forwardDifferentiates(m, call) {
		// A module whose forward differentiates what it is given (a
		// Sobolev distillation loss's torch.autograd.grad).
		return fateYes
	}
	if q := m.CallName(call); q != "" {
		switch {
		case differentiatingFunctions[q]:
			return fateYes // torchmeta's gradient_update_parameters(model, inner_loss): a step of test-time adaptation
		case q == "torchviz.make_dot" || q == "torchviz.dot.make_dot":
			return fateYes // draws the recorded graph: under no_grad there is none to draw
		case hostFunctions[q] || likeFunctions[q]:
			return fateNo
		case passFunctions[q] || strings.HasPrefix(q, "torch.distributions.") || strings.HasPrefix(q, "torch.nn.functional."):
			return w.value(call, depth+1)
		}
		for _, pre := range hostPrefixes {
			if strings.HasPrefix(q, pre) {
				return fateNo
			}
		}
	}
	switch name := m.MethodName(call); {
	case (hostEndMethods[name] || likeMethods[name]) && m.LocalCallee(call) == analyzer.NoNode:
		return fateNo // a library's; a method of this file says below what it does
	case appendMethods[name]:
		return w.appended(call, depth)
	}
	// What a function of the project does with the argument, asked
	// once: one that back-propagates it (`mine.train_step(z, opt)`, a
	// critic's update, also a model's method) differentiates it there.
	arg := argOf(f, args, w.last)
	var known, backprop, kept, dropped bool
	if arg != analyzer.NoNode {
		known, backprop, kept, dropped = m.ArgUse(call, arg)
	}
	if backprop {
		return fateYes
	}
	// A loss, or another model run on it (or a method of one): the graph
	// goes on in what it returns.
	fn := f.Unparen(f.Field(call, analyzer.FieldFunction))
	if c := m.ClassifyCallee(fn); c == analyzer.CallableLoss || m.IsForwardCall(call) || m.FreeLayerCall(call) ||
		f.Kind(fn) == analyzer.KindAttribute && m.ClassifyCallee(f.Field(fn, analyzer.FieldObject)) == analyzer.CallableModel {
		// A layer without parameters (`self.softmax = nn.Softmax(-1)`)
		// hands on its input's graph too.
		if w.local && !m.FreeLayerCall(call) && !seenForward(m, call) {
			// Of no class the code shows (`criterionKD`, one of several
			// losses chosen by a flag): its forward may differentiate.
			return w.unknown(call)
		}
		return w.value(call, depth+1)
	}
	// A function of the project: its facts say whether it
	// back-propagates the argument, and whether its result keeps it. A
	// strict walk follows its result whatever they say: they may not
	// show every way a result keeps a graph.
	if r, ok := w.argUse(call, depth, known, false, kept, dropped); ok {
		return r
	}
	switch q := m.CallName(call); {
	case strings.HasPrefix(q, "torch.distributed."), fateNoBuiltins[q]:
		return fateNo // a collective on the value, or a question about it
	case strings.HasPrefix(q, "torch.nn.utils.clip_grad"):
		return fateNo // reads and scales gradients, records nothing
	case fatePassBuiltins[q], strings.HasPrefix(q, "torch.") && !strings.Contains(strings.TrimPrefix(q, "torch."), "."):
		return w.value(call, depth+1) // `enumerate(out)`, `torch.where(...)`: it goes on in the result
	}
	if f.Kind(fn) == analyzer.KindAttribute && stringLiteral(f, f.Field(fn, analyzer.FieldObject)) {
		return fateNo // `"{:.3f}".format(loss)`, also over literals joined across lines
	}
	return w.unknown(call)
}

// runningSum reports whether an assignment of right to left adds to what
// left held: `total = total + loss` (not `outs = torch.cat(outs)`).
func runningSum(f *analyzer.File, left, right analyzer.NodeID) bool {
	right = f.Unparen(right)
	if f.Kind(left) != analyzer.KindIdentifier || f.Kind(right) != analyzer.KindBinaryOperator {
		return false
	}
	for _, side := range []analyzer.NodeID{f.Field(right, analyzer.FieldLeft), f.Field(right, analyzer.FieldRight)} {
		if side = f.Unparen(side); f.Kind(side) == analyzer.KindIdentifier && f.TextIs(side, f.Text(left)) {
			return true
		}
	}
	return false
}

// forwardDifferentiates reports whether call runs the forward of a module
// that back-propagates or asks for gradients (ForwardSteps, or the
// forward of a class of this file).
func forwardDifferentiates(m *analyzer.Model, call analyzer.NodeID) bool {
	if forwardStepsDifferentiate(m, call) {
		return true
	}
	def := m.ForwardDef(call)
	return def != analyzer.NoNode && defUsesGradients(m, def)
}

// forwardStepsDifferentiate is forwardDifferentiates by ForwardSteps
// alone, in whatever file the module's class is.
func forwardStepsDifferentiate(m *analyzer.Model, call analyzer.NodeID) bool {
	s := m.ForwardSteps(call)
	return s != nil && (s.Backward != nil || s.Grads != nil)
}

// seenForward reports whether the class whose forward a call runs is
// known: a torch function (`F.mse_loss`), or an instance of a class the
// code names where it is made (`nn.MSELoss()`, a class of the project),
// whose facts say whether its forward differentiates (gradientUse).
func seenForward(m *analyzer.Model, call analyzer.NodeID) bool {
	return strings.HasPrefix(m.CallName(call), "torch.") || m.ForwardDef(call) != analyzer.NoNode || m.CalledClassName(call) != ""
}

// likeMethods take from a tensor argument its shape, dtype or device
// alone (`top.expand_as(scores)`): none of its graph.
var likeMethods = map[string]bool{"expand_as": true, "view_as": true, "reshape_as": true, "type_as": true}

// likeFunctions make a new tensor of a tensor argument's shape, dtype and
// device alone (`torch.randn_like(action)`): none of its graph.
var likeFunctions = map[string]bool{
	"torch.zeros_like": true, "torch.ones_like": true, "torch.empty_like": true, "torch.full_like": true,
	"torch.rand_like": true, "torch.randn_like": true, "torch.randint_like": true,
}

// fatePassBuiltins hand on what they are given, in what they return.
var fatePassBuiltins = map[string]bool{
	"enumerate": true, "zip": true, "list": true, "tuple": true, "iter": true, "reversed": true, "sorted": true,
	"dict": true, "max": true, "min": true, "sum": true, "abs": true,
}

// fateNoBuiltins look at a value without keeping it.
var fateNoBuiltins = map[string]bool{"type": true, "isinstance": true, "id": true, "hasattr": true, "callable": true}

// argOf returns the argument of an argument list that holds node e (the
// value, or a keyword argument of it).
func argOf(f *analyzer.File, args, e analyzer.NodeID) analyzer.NodeID {
	for n := e; n != analyzer.NoNode; n = f.Parent(n) {
		if f.Parent(n) == args {
			return n
		}
	}
	return analyzer.NoNode
}

// targets answers for the names an assignment binds the value to.
func (w *fateWalk) targets(target analyzer.NodeID, depth int) fate {
	m, f := w.m, w.m.File
	switch f.Kind(target) {
	case analyzer.KindIdentifier:
		if f.TextIs(target, "_") {
			return fateNo // thrown away, whatever else `_` names
		}
		return w.uses(target, depth, nil) // a name never read drops the value
	case analyzer.KindPatternList, analyzer.KindTuplePattern:
		r := fateNo
		for _, t := range f.ChildList(target) {
			r = r.join(w.targets(t, depth))
		}
		return r
	case analyzer.KindSubscript:
		// `preds[:, i] = out`: copied into a tensor or list of this
		// function, it goes where that does.
		base := f.Unparen(f.Field(target, analyzer.FieldValue))
		if f.Kind(base) != analyzer.KindIdentifier {
			break
		}
		b := m.Resolve(base)
		if b == nil || b.Kind != analyzer.BindAssign || b.Unpacked {
			break
		}
		key := stringKey(f, target)
		return w.uses(b.Name, depth, func(u analyzer.NodeID) bool {
			if entryStored(f, u) != analyzer.NoNode {
				return true // another store into it
			}
			if q := f.Parent(u); f.Kind(q) == analyzer.KindSubscript && f.Field(q, analyzer.FieldValue) == u {
				if k := stringKey(f, q); key != "" && k != "" && k != key {
					return true // another entry of a dict (`out["loss"]` beside `out["epoch_loss"]`)
				}
			}
			return false
		})
	case analyzer.KindAttribute:
		// `self.q_values = net(x)`, back-propagated by another method of
		// the class (`loss = crit(self.q_values, y); loss.backward()`).
		if f.TextIs(f.Field(target, analyzer.FieldObject), "self") {
			if class := m.EnclosingClass(target); class != analyzer.NoNode && m.BackpropKeys(class, class)[compactText(f, target)] {
				return fateYes
			}
		}
	}
	return w.unknown(target) // an attribute, or a container from elsewhere
}

// entryStored returns the assignment that stores into an entry of u,
// a name (`preds[:, i] = out` for u `preds`), or NoNode.
func entryStored(f *analyzer.File, u analyzer.NodeID) analyzer.NodeID {
	q := f.Parent(u)
	if f.Kind(q) != analyzer.KindSubscript || f.Field(q, analyzer.FieldValue) != u {
		return analyzer.NoNode
	}
	if a := f.Parent(q); f.Kind(a) == analyzer.KindAssignment && f.Field(a, analyzer.FieldLeft) == q {
		return a
	}
	return analyzer.NoNode
}

// appended answers for a list a value is appended to: where the list
// goes, when it is a name made by a literal in this function.
func (w *fateWalk) appended(call analyzer.NodeID, depth int) fate {
	m, f := w.m, w.m.File
	recv := f.Unparen(m.Receiver(call))
	if f.Kind(recv) == analyzer.KindAttribute && f.TextIs(f.Field(recv, analyzer.FieldObject), "self") {
		// `self.log_probs.append(log_prob)`: a method of the class that
		// back-propagates what the attribute holds (REINFORCE's update at
		// the episode's end) trains through it.
		if class := m.EnclosingClass(call); class != analyzer.NoNode && m.BackpropKeys(class, class)[f.Text(recv)] {
			return fateYes
		}
		return w.unknown(call)
	}
	if f.Kind(recv) != analyzer.KindIdentifier {
		return w.unknown(call)
	}
	b := m.Resolve(recv)
	if b == nil || b.Kind != analyzer.BindAssign || f.Kind(f.Unparen(bindingValue(m, b))) != analyzer.KindList {
		return w.unknown(call)
	}
	return w.uses(b.Name, depth, func(u analyzer.NodeID) bool {
		return storedInto(m, u, appendMethods) // another value appended
	})
}

// graphEndsApart reports whether the graph of a forward call's output
// ends along every way the output goes, before any of it can be
// back-propagated (fateApart's no), for a pass made where sw ran.
func graphEndsApart(m *analyzer.Model, call, sw analyzer.NodeID) bool {
	w := fateWalk{m: m, at: analyzer.NoNode, strict: true, apart: sw}
	return w.value(call, 0) == fateNo
}

// graphEndsHere reports whether the graph of a forward call's output
// ends along every way the output goes in its own function, before any
// of it can be back-propagated: graphEndsApart, with a value returned
// to callers not an end.
func graphEndsHere(m *analyzer.Model, call analyzer.NodeID) bool {
	w := fateWalk{m: m, at: analyzer.NoNode, strict: true, apart: analyzer.NoNode, local: true}
	// A total nobody reads ends what it is given, but where it is the
	// only place the outputs go (`total += crit(model(x), y)`), TL101's
	// finding is the one to make.
	return w.value(call, 0) == fateNo && (w.totals == 0 || w.visited > w.totals)
}

// heldFate answers fateApart for what a name holds after node at binds or
// fills it (`total += loss`, `outs.append(out)`): where its later uses
// take it. Only a name of the function is followed; an attribute, an
// entry or a name from elsewhere is not answered (ok false).
func heldFate(m *analyzer.Model, name, at analyzer.NodeID) (r fate, unseen analyzer.NodeID, ok bool) {
	f := m.File
	name = f.Unparen(name)
	if f.Kind(name) == analyzer.KindSubscript {
		name = f.Unparen(f.Field(name, analyzer.FieldValue)) // `losses[i] += loss`: where `losses` goes
	}
	if f.Kind(name) != analyzer.KindIdentifier {
		return fateNo, analyzer.NoNode, false
	}
	bound := name // `total += loss` binds total anew
	if f.Kind(at) != analyzer.KindAugmentedAssignment || f.Field(at, analyzer.FieldLeft) != name {
		b := m.Resolve(name)
		if b == nil || b.Kind != analyzer.BindAssign || m.ScopeNode(b.Name) != m.ScopeNode(at) {
			return fateNo, analyzer.NoNode, false
		}
		bound = b.Name
	}
	w := fateWalk{m: m, at: analyzer.NoNode}
	r = w.uses(bound, 0, func(u analyzer.NodeID) bool {
		if f.Contains(at, u) {
			return true
		}
		return storedInto(m, u, storeMethods) // another value stored the same way adds no way of its own
	})
	r, unseen = w.answer(r)
	return r, unseen, true
}

// laterFate answers, for the names a backward at call runs through
// (uses, one use of each name in it), where their values go after it:
// yes when some later use reaches another differentiation, unknown when
// one goes to code whose use of it is not seen (that place in unseen).
// Names the function does not bind itself are not followed.
func laterFate(m *analyzer.Model, call analyzer.NodeID, uses []analyzer.NodeID) (r fate, unseen analyzer.NodeID) {
	f := m.File
	w := fateWalk{m: m, at: analyzer.NoNode}
	end := f.N(call).End
	for _, u := range uses {
		if f.Kind(u) != analyzer.KindIdentifier {
			continue
		}
		for _, b := range m.ReachingBindings(u) {
			if b.Kind != analyzer.BindAssign || m.ScopeNode(b.Name) != m.ScopeNode(call) {
				continue
			}
			r = r.join(w.uses(b.Name, 0, func(x analyzer.NodeID) bool { return f.N(x).Start < end }))
			if r == fateYes {
				return r, analyzer.NoNode
			}
		}
	}
	return w.answer(r)
}

// consumedByBackward reports whether the graph of a value stored or
// summed had its own backward() without retain_graph (backpropagated,
// retained for its step): such a graph cannot be back-propagated again,
// so where the container goes changes nothing. A sibling entry of a dict
// of outputs back-propagated is no backward of this one.
func consumedByBackward(f *analyzer.File, value analyzer.NodeID, backpropagated, retained bool) bool {
	return backpropagated && !retained && dictEntry(f, value) == analyzer.NoNode
}

// stringKey returns the text of the string a subscript indexes by
// (`out["loss"]`), or "".
func stringKey(f *analyzer.File, sub analyzer.NodeID) string {
	if k := f.Unparen(f.Field(sub, analyzer.FieldSubscript)); f.Kind(k) == analyzer.KindString {
		return f.Text(k)
	}
	return ""
}

// storeMethods put a value into a container; appendMethods, at its end.
var (
	storeMethods  = map[string]bool{"append": true, "extend": true, "insert": true, "appendleft": true, "add": true}
	appendMethods = map[string]bool{"append": true, "extend": true}
)

// storedInto reports whether use u of a container's name is the receiver
// of a call of one of methods (`outs` in `outs.append(v)`).
func storedInto(m *analyzer.Model, u analyzer.NodeID, methods map[string]bool) bool {
	f := m.File
	q := f.Parent(u)
	if f.Kind(q) != analyzer.KindAttribute || f.Field(q, analyzer.FieldObject) != u {
		return false
	}
	c := f.Parent(q)
	return f.Kind(c) == analyzer.KindCall && methods[m.MethodName(c)]
}

// bindingValue returns the value a binding gives its name: for a name
// unpacked from a tuple of as many values (`losses, outs = [], []`), its
// own; NoNode where that is not seen.
func bindingValue(m *analyzer.Model, b *analyzer.Binding) analyzer.NodeID {
	f := m.File
	if !b.Unpacked {
		return b.Value
	}
	pattern := f.Parent(b.Name)
	vals := f.Unparen(b.Value)
	if k := f.Kind(pattern); k != analyzer.KindPatternList && k != analyzer.KindTuplePattern {
		return analyzer.NoNode
	}
	if k := f.Kind(vals); k != analyzer.KindExpressionList && k != analyzer.KindTuple {
		return analyzer.NoNode
	}
	names, values := f.ChildList(pattern), f.ChildList(vals)
	if i := slices.Index(names, b.Name); i >= 0 && len(names) == len(values) {
		return values[i]
	}
	return analyzer.NoNode
}

// unreadTotal reports whether the running total that name (the target
// of an augmented assignment) names is never read but to be added into
// again: every use the binding reaches is the target of another such
// assignment, and it is a local name of a function or of module-level
// code whose later uses the walk sees.
func unreadTotal(m *analyzer.Model, name analyzer.NodeID) bool {
	f := m.File
	sc, inner := m.ScopeNode(name), false
	f.Walk(sc, func(id analyzer.NodeID) {
		// Read by a function nested in its scope (or a `global`
		// statement's), whose uses the binding does not reach.
		if !inner && f.Kind(id) == analyzer.KindIdentifier && f.TextIs(id, f.Text(name)) && m.ScopeNode(id) != sc {
			b := m.Resolve(id)
			inner = b == nil || m.ScopeNode(b.Name) == sc
		}
	})
	if inner {
		return false
	}
	for _, u := range m.ReachedUsesOf(name) {
		p := f.Parent(u)
		if f.Kind(p) != analyzer.KindAugmentedAssignment || f.Field(p, analyzer.FieldLeft) != u {
			return false
		}
		if op := f.Field(p, analyzer.FieldOperator); !f.TextIs(op, "+=") && !f.TextIs(op, "-=") {
			return false // `mu /= n`: the total, scaled, goes on
		}
	}
	return true
}
