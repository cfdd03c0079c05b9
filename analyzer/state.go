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
