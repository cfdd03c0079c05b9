package analyzer

import (
	"slices"
	"strings"
)

type dropsKey struct{ def NodeID }

// DropsArgs reports whether function def ends the graph of whatever it is
// given: nothing it returns can carry autograd history (indices, values
// read on the host, comparisons, None), and its body keeps nothing where it
// outlives the call. A selector that returns the indices of the best
// scores is one (`return masked.argmax(-1)`); so is one that draws
// from them.
//
// The body is held to what can be seen whole: calls of torch, NumPy and
// the builtins, and methods of its own names and parameters, none of
// them one that stores (`append`, `put`); no attribute or global is
// written, nothing is yielded, no function is defined in it, and no
// function of the project or of an unknown library is called, since
// any of them could keep what it is handed.
func (m *Model) DropsArgs(def NodeID) bool {
	return m.Memo(dropsKey{def}, func() any { return m.dropsArgs(def) }).(bool)
}

func (m *Model) dropsArgs(def NodeID) bool {
	if !m.KeepsNothing(def) {
		return false
	}
	for _, v := range m.ReturnValues(def) {
		if !m.graphFree(def, v, 0) {
			return false
		}
	}
	return true
}

// KeepsNothing reports whether def's body, seen whole (as DropsArgs
// reads it), keeps nothing of what it is given where it outlives the
// call: it writes no attribute or global, yields nothing, defines no
// function and calls nothing that may store. What it is given then
// ends in it, or in what it returns.
func (m *Model) KeepsNothing(def NodeID) bool {
	return m.Memo(keepsNothingKey{def}, func() any { return m.keepsNothing(def) }).(bool)
}

type keepsNothingKey struct{ def NodeID }

func (m *Model) keepsNothing(def NodeID) bool {
	f := m.File
	if f.Kind(def) != KindFunctionDefinition || len(m.positionalParams(def)) == 0 {
		return false
	}
	ok := true
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if !ok {
			return
		}
		switch f.Kind(id) {
		case KindYield, KindGlobalStatement, KindNonlocalStatement, KindFunctionDefinition, KindLambda,
			KindClassDefinition, KindAwait:
			ok = false
		case KindAssignment, KindAugmentedAssignment:
			f.Walk(f.Field(id, FieldLeft), func(t NodeID) {
				if f.Kind(t) == KindAttribute {
					ok = false
				}
			})
		case KindCall:
			ok = m.seenWhole(def, id)
		}
	})
	return ok
}

// storingMethods keep their argument in their object.
var storingMethods = map[string]bool{
	"append": true, "extend": true, "add": true, "insert": true, "put": true, "push": true, "store": true,
	"save": true, "update": true, "setdefault": true, "add_": true, "copy_": true, "record": true,
	"register_buffer": true, "register_hook": true, "__setitem__": true, "put_nowait": true, "send": true,
}

// dropsBuiltins are builtins that keep nothing of what they are given.
var dropsBuiltins = map[string]bool{
	"len": true, "int": true, "float": true, "bool": true, "range": true, "enumerate": true, "zip": true,
	"min": true, "max": true, "abs": true, "sum": true, "list": true, "tuple": true, "isinstance": true,
	"print": true, "round": true, "sorted": true, "str": true,
}

// seenWhole reports whether a call in def's body is one whose effect
// DropsArgs can see: a library function of torch, NumPy, math or random,
// a builtin, or a method that stores nothing of such a call's result or
// of a name of def.
func (m *Model) seenWhole(def, call NodeID) bool {
	f := m.File
	if libraryCall(m.CallName(call)) {
		return true
	}
	fn := f.Unparen(f.Field(call, FieldFunction))
	switch f.Kind(fn) {
	case KindIdentifier:
		return dropsBuiltins[f.Text(fn)] && m.Resolve(fn) == nil
	case KindAttribute:
		return !storingMethods[f.Text(f.Field(fn, FieldAttribute))] && m.localReceiver(def, f.Field(fn, FieldObject))
	}
	return false
}

// libraryCall reports whether q names a function of torch, NumPy, math
// or random that keeps nothing of its arguments.
func libraryCall(q string) bool {
	if strings.HasPrefix(q, "torch.distributed.") || q == "torch.save" {
		return false
	}
	for _, pre := range []string{"torch.", "numpy.", "math.", "random."} {
		if strings.HasPrefix(q, pre) {
			return true
		}
	}
	return false
}

// localReceiver reports whether e, the object of a method call in def,
// is a name of def (not self), an element or a tensor attribute of one
// (`target.data`), what a call seen whole returns
// (`Categorical(logits=q).sample()`), a number, or arithmetic or a
// comparison of such values (`(pred == target).sum()`).
func (m *Model) localReceiver(def, e NodeID) bool {
	f := m.File
	e = f.Unparen(e)
	switch f.Kind(e) {
	case KindIdentifier:
		if f.TextIs(e, "self") || f.TextIs(e, "cls") {
			return false
		}
		b := m.Resolve(e)
		return b != nil && m.ScopeNode(b.Stmt) == def
	case KindSubscript:
		return m.localReceiver(def, f.Field(e, FieldValue))
	case KindAttribute:
		return nonGradAttributes[f.Text(f.Field(e, FieldAttribute))] && m.localReceiver(def, f.Field(e, FieldObject))
	case KindCall:
		return m.seenWhole(def, e)
	case KindInteger, KindFloat:
		return true
	case KindBinaryOperator:
		return m.localReceiver(def, f.Field(e, FieldLeft)) && m.localReceiver(def, f.Field(e, FieldRight))
	case KindUnaryOperator:
		return m.localReceiver(def, f.Field(e, FieldArgument))
	case KindComparisonOperator:
		local := true
		f.Children(e, func(c NodeID) bool {
			local = m.localReceiver(def, c)
			return local
		})
		return local
	}
	return false // `self.log.write(x)`: a method of an object of unknown class
}

// graphFree reports whether a value returned by def can carry no
// autograd history, whatever def is given.
func (m *Model) graphFree(def, v NodeID, depth int) bool {
	f := m.File
	if v == NoNode {
		return true
	}
	v = f.Unparen(v)
	switch f.Kind(v) {
	case KindNone, KindTrue, KindFalse, KindInteger, KindFloat, KindString,
		KindComparisonOperator, KindBooleanOperator, KindNotOperator:
		return true
	case KindTuple, KindList:
		free := true
		f.Children(v, func(c NodeID) bool {
			free = m.graphFree(def, c, depth)
			return free
		})
		return free
	case KindCall:
		switch q := m.CallName(v); q {
		case "int", "float", "bool", "len", "torch.argmax", "torch.argmin", "torch.multinomial", "torch.bernoulli":
			return true
		}
		if q := m.CallName(v); strings.HasPrefix(q, "numpy.") || strings.HasPrefix(q, "math.") {
			return true // an array or a number: NumPy refuses a tensor that requires grad
		}
		name := m.MethodName(v)
		return name == "sample" || detachingMethods[name] && name != "zero_" && name != "detach" && name != "detach_"
	case KindSubscript:
		// `q.max(dim=-1)[1]`: the indices of a max, a min, a sort.
		val, idx := f.Unparen(f.Field(v, FieldValue)), f.Field(v, FieldSubscript)
		if f.Kind(val) == KindCall && f.Kind(idx) == KindInteger && f.TextIs(idx, "1") {
			switch m.MethodName(val) {
			case "max", "min", "topk", "sort", "kthvalue", "mode", "median":
				return true
			}
		}
		return false
	case KindIdentifier:
		if depth > 3 {
			return false
		}
		bs := m.ReachingBindings(v)
		if len(bs) == 0 {
			return false
		}
		for _, b := range bs {
			if b.Kind != BindAssign || m.ScopeNode(b.Stmt) != def || !m.graphFree(def, b.Value, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

type cutParamsKey struct{ def NodeID }

// CutParams returns the positional parameters of def whose every use in
// its body ends their graph: a detaching method called on it (`pred =
// pred.argmax(1).float()`, `x.detach()`, `y.item()`), an attribute that
// holds no graph (`x.shape`), or a non-differentiable torch function
// given it (`torch.argmax(x, 1)`). A loss whose forward does so to the
// prediction adds none of the prediction's graph to what it returns.
func (m *Model) CutParams(def NodeID) []int {
	return m.Memo(cutParamsKey{def}, func() any {
		var out []int
		for i, p := range m.positionalParams(def) {
			uses := m.UsesOf(p)
			if len(uses) > 0 && !slices.ContainsFunc(uses, func(u NodeID) bool { return !m.cutUse(u) }) {
				out = append(out, i)
			}
		}
		return out
	}).([]int)
}

// cutUse reports whether use u of a name ends its graph.
func (m *Model) cutUse(u NodeID) bool {
	f := m.File
	p := f.Parent(u)
	switch f.Kind(p) {
	case KindAttribute:
		if f.Field(p, FieldObject) != u {
			return false
		}
		name := f.Text(f.Field(p, FieldAttribute))
		if nonGradAttributes[name] {
			return true
		}
		call := f.Parent(p)
		return detachingMethods[name] && f.Kind(call) == KindCall && f.Field(call, FieldFunction) == p
	case KindArgumentList:
		q := m.CallName(f.Parent(p))
		name, ok := strings.CutPrefix(q, "torch.")
		return ok && nonDifferentiable[name] || q == "len" || q == "isinstance"
	}
	return false
}

// EndsReturns returns how def ends the graph of every value it returns
// that selected keeps (all where selected is nil): each is a detaching
// call or attribute (`x.detach()`, `loss.item()`, `y.tolist()`,
// `x.detach().cpu().numpy()`, `.data`), arithmetic with numbers on one,
// a tuple of them, or a local name given one. The first such end is
// returned ("detach()", "item()", "tolist()", "data"); "" where some
// return may keep a graph, or def returns nothing.
func (m *Model) EndsReturns(def NodeID, selected func(NodeID) bool) string {
	f := m.File
	if def == NoNode || f.Kind(def) != KindFunctionDefinition {
		return ""
	}
	vals := m.ReturnValues(def)
	if selected != nil {
		vals = slices.DeleteFunc(slices.Clone(vals), func(v NodeID) bool { return v != NoNode && !selected(v) })
	}
	end := ""
	var ends func(v NodeID, depth int) bool
	ends = func(v NodeID, depth int) bool {
		v = f.Unparen(v)
		if depth > 16 {
			return false
		}
		switch f.Kind(v) {
		case KindIdentifier:
			// `result = (y.detach().cpu().numpy() + 1) / 2`, then
			// `return result`: the one value the name is given.
			if a := m.AssignedValue(v); a != NoNode && m.ScopeNode(a) == def {
				return ends(a, depth+1)
			}
			return false
		case KindBinaryOperator:
			// Arithmetic with numbers on what was detached.
			l, r := f.Unparen(f.Field(v, FieldLeft)), f.Unparen(f.Field(v, FieldRight))
			return ends(l, depth+1) && (ScalarLiteral(f, r) || ends(r, depth+1)) || ScalarLiteral(f, l) && ends(r, depth+1)
		case KindTuple, KindExpressionList:
			all := true
			f.Children(v, func(c NodeID) bool {
				all = all && ends(c, depth+1)
				return all
			})
			return all
		}
		e := ""
		switch f.Kind(v) {
		case KindCall:
			switch name := m.MethodName(v); name {
			case "detach", "item", "tolist":
				e = name + "()"
			default:
				// `x.detach().cpu().numpy()`, `x.detach().squeeze()`: what
				// a detach ended, moved or reshaped.
				for r := v; f.Kind(r) == KindCall && detachedMoves[m.MethodName(r)]; {
					if r = f.Unparen(m.Receiver(r)); f.Kind(r) == KindCall && m.MethodName(r) == "detach" {
						e = "detach()"
						break
					}
				}
			}
		case KindAttribute:
			if f.TextIs(f.Field(v, FieldAttribute), "data") {
				e = "data"
			}
		}
		if e == "" {
			return false
		}
		if end == "" {
			end = e
		}
		return true
	}
	if len(vals) == 0 || slices.ContainsFunc(vals, func(v NodeID) bool { return !ends(v, 0) }) {
		return ""
	}
	return end
}

// detachedMoves are the methods that move, convert or reshape a tensor
// with nothing else: on a detached one, their result has no graph either.
var detachedMoves = map[string]bool{
	"cpu": true, "cuda": true, "numpy": true, "to": true, "float": true, "half": true, "double": true, "long": true,
	"squeeze": true, "unsqueeze": true, "view": true, "reshape": true, "contiguous": true, "clone": true, "flatten": true,
	"permute": true, "transpose": true,
}

// ForwardEndsReturns returns, for a call of a module (`vocoder(x)`),
// how its class's forward ends the graph of every value it returns
// (EndsReturns), of a class of this file or of the project, and the
// class's name; "" where the class or its forward is not known or some
// return may keep a graph.
func (m *Model) ForwardEndsReturns(call NodeID) (end, class string) {
	f := m.File
	local, fwd, ref := m.calledForward(call)
	if local {
		if fwd == NoNode || m.ReturnsGraph(fwd) {
			return "", ""
		}
		return m.EndsReturns(fwd, nil), f.Text(f.Field(m.EnclosingClass(fwd), FieldName))
	}
	if ref == "" {
		return "", ""
	}
	o := m.lookup(ref, WantEnds)
	if o == nil || o.EndsReturns == "" {
		return "", ""
	}
	q := strings.TrimSuffix(ref, ".forward")
	return o.EndsReturns, q[strings.LastIndex(q, ".")+1:]
}
