package analyzer

import "strings"

type stateGraphKey struct{ def NodeID }

// stateGraph reports whether def, the forward of a module class, reads an
// attribute of self that another method of the class sets, with grad
// enabled, to a value with a graph (`self.mask_e = self.embedding(ids)`
// in __init__): a graph built once, outside the forward's calls, that the
// graph of every output shares, so each backward through an output runs
// through it again.
func (m *Model) stateGraph(def NodeID) bool {
	f := m.File
	class := m.EnclosingClass(def)
	if class == NoNode || m.FunctionName(def) != "forward" || !m.IsModuleClass(class) {
		return false
	}
	return m.Memo(stateGraphKey{def}, func() any {
		read, called := map[string]bool{}, map[string]bool{}
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if f.Kind(id) == KindAttribute && f.TextIs(f.Field(id, FieldObject), "self") && f.N(id).Field != FieldLeft {
				read[f.Text(f.Field(id, FieldAttribute))] = true
				if f.N(id).Field == FieldFunction {
					called[f.Text(f.Field(id, FieldAttribute))] = true
				}
			}
		})
		found := false
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if !found && f.Kind(id) == KindAssignment && m.EnclosingFunction(id) == def {
				found = m.carriedState(def, id, read)
			}
		})
		f.Walk(class, func(id NodeID) {
			if found || f.Kind(id) != KindAssignment {
				return
			}
			left := f.Field(id, FieldLeft)
			if f.Kind(left) != KindAttribute || !f.TextIs(f.Field(left, FieldObject), "self") || !read[f.Text(f.Field(left, FieldAttribute))] {
				return
			}
			method := m.EnclosingFunction(id)
			if method == def || method == NoNode || m.EnclosingClass(method) != class {
				return
			}
			v := f.Unparen(f.Field(id, FieldRight))
			// A submodule's output, not a submodule (`self.head =
			// nn.Linear(...)`) nor a parameter (`nn.Parameter(...)`): a
			// pass of one of the object's own modules, one its forward
			// runs on the inputs too (`self.embedding`), with grad enabled.
			if f.Kind(v) != KindCall || m.GradModeAt(id) == GradDisabled {
				return
			}
			sub := f.Unparen(f.Field(v, FieldFunction))
			if !m.selfSubmodule(sub) {
				return
			}
			if called[f.Text(f.Field(sub, FieldAttribute))] || m.IsForwardCall(v) && m.CarriesGraph(v) {
				found = true
			}
		})
		return found
	}).(bool)
}

// carriedState reports whether assignment a of forward def keeps, in an
// attribute of self that a pass of one of the object's modules reads, the
// state that pass returns (`out, (self.h, self.c) = self.rnn(x, (self.h,
// self.c))`), with grad enabled, never detached in the class, nor set by
// a method other than the constructor: each call's graph then runs into
// the previous call's, and every backward through an output runs through
// that again.
func (m *Model) carriedState(def, a NodeID, read map[string]bool) bool {
	f := m.File
	v := f.Unparen(f.Field(a, FieldRight))
	if f.Kind(v) != KindCall || m.GradModeAt(a) == GradDisabled || !m.selfSubmodule(f.Unparen(f.Field(v, FieldFunction))) {
		return false
	}
	var attrs []string
	var collect func(t NodeID)
	collect = func(t NodeID) {
		switch f.Kind(t) {
		case KindAttribute:
			if f.TextIs(f.Field(t, FieldObject), "self") && read[f.Text(f.Field(t, FieldAttribute))] {
				attrs = append(attrs, f.Text(t))
			}
		case KindPatternList, KindTuplePattern, KindListPattern, KindTuple, KindExpressionList, KindParenthesizedExpression:
			f.Children(t, func(c NodeID) bool { collect(c); return true })
		}
	}
	collect(f.Field(a, FieldLeft))
	mentions := func(e NodeID, attr string) bool {
		found := false
		f.Walk(e, func(id NodeID) {
			found = found || f.Kind(id) == KindAttribute && f.TextIs(id, attr)
		})
		return found
	}
	class := m.EnclosingClass(def)
	for _, attr := range attrs {
		if !mentions(f.Field(v, FieldArguments), attr) {
			continue // not fed back into the pass
		}
		// Detached in the forward, or set or detached by another method
		// than the constructor (a `reset()` or `detach_state()` its
		// callers may run every step): not known to carry a graph over.
		cut := false
		f.Walk(class, func(id NodeID) {
			if cut {
				return
			}
			switch f.Kind(id) {
			case KindCall:
				cut = (m.MethodName(id) == "detach" || m.MethodName(id) == "detach_") && mentions(m.Receiver(id), attr)
			case KindAssignment, KindAugmentedAssignment:
				method := m.EnclosingFunction(id)
				cut = method != def && method != NoNode && m.FunctionName(method) != "__init__" && mentions(f.Field(id, FieldLeft), attr)
			}
		})
		if !cut {
			return true
		}
	}
	return false
}

// ForwardStateGraph reports whether call runs the forward of a module
// class of the project whose outputs share a graph built once in its
// object's state (StateGraph): a backward through them every step runs
// through that part again, which needs `retain_graph=True`.
func (m *Model) ForwardStateGraph(call NodeID) bool {
	if !m.IsForwardCall(call) {
		return false
	}
	ref, def := m.classMethod(m.calledClass(call), "forward")
	if def != NoNode {
		return m.stateGraph(def)
	}
	if ref == "" || strings.HasPrefix(ref, "#") {
		return false
	}
	o := m.lookup(ref, WantReturns)
	return o != nil && o.StateGraph
}
