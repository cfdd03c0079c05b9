package analyzer

import "slices"

// EvalArg returns the position, among a call's positional arguments, of
// a name or attribute that the call's own function switched to
// evaluation mode before the call, with no switch of it back to training
// between (`model.eval()` then `hit_rate(model, loader)`), or -1. Only a
// module has `.eval()`: the call hands that parameter a module in
// evaluation mode. The switch must sit in a block that holds the call,
// so that it runs whenever the call does.
func (m *Model) EvalArg(call NodeID) int {
	f := m.File
	scope := m.ScopeNode(call)
	switches := m.Memo(switchesKey{scope}, func() any { return m.modeSwitches(scope) }).([]modeSwitchAt)
	if len(switches) == 0 {
		return -1 // most scopes: no call to look at
	}
	args := m.Args(call)
	at := f.N(call).Start
	for i, a := range args {
		a = f.Unparen(a)
		if k := f.Kind(a); k != KindIdentifier && k != KindAttribute {
			continue
		}
		text := f.Text(a)
		on := false
		for _, s := range switches {
			if s.at >= at {
				break
			}
			if s.recv != text {
				continue
			}
			// A switch back anywhere between ends it; one to evaluation
			// counts where it runs whenever the call does.
			on = s.eval && f.Contains(f.Parent(s.stmt), call)
		}
		if on {
			return i
		}
	}
	return -1
}

// modeSwitchAt is a `.eval()` or `.train()` call of a scope: where it
// starts, the statement it is, the text of its receiver and which mode it
// sets.
type modeSwitchAt struct {
	at   uint32
	stmt NodeID
	recv string
	eval bool
}

type switchesKey struct{ scope NodeID }

// modeSwitches returns the mode switches of a scope's own code, in
// source order.
func (m *Model) modeSwitches(scope NodeID) []modeSwitchAt {
	f := m.File
	var out []modeSwitchAt
	f.Walk(scope, func(id NodeID) {
		if f.Kind(id) != KindCall || m.ScopeNode(id) != scope {
			return
		}
		eval, train := m.ModeSwitch(id)
		if !eval && !train {
			return
		}
		stmt := id
		if p := f.Parent(id); f.Kind(p) == KindExpressionStatement {
			stmt = p
		}
		out = append(out, modeSwitchAt{at: f.N(id).Start, stmt: stmt, recv: f.Text(f.Unparen(m.Receiver(id))), eval: eval})
	})
	return out
}

// EvalCalls returns the calls that make def, a function of this file,
// evaluation code: every call of it in the project hands one parameter a
// module switched to evaluation mode (Object.EvalCalls). Nil otherwise.
func (m *Model) EvalCalls(def NodeID) []ParamCall {
	if o := m.lookup(m.localRef(def), WantEvalCalls); o != nil {
		return o.EvalCalls
	}
	return nil
}

// CalleeEvalCalls is EvalCalls of the project function a call runs.
func (m *Model) CalleeEvalCalls(call NodeID) []ParamCall {
	if o := m.lookup(m.calleeRef(call), WantEvalCalls); o != nil {
		return o.EvalCalls
	}
	return nil
}

// EvalParamCall returns, for e a name of a parameter of its function
// (or an attribute of one, `model.decoder`), the first of the calls that
// each hand that parameter a module switched to evaluation mode
// (EvalCalls), or nil where not every call of the project does.
func (m *Model) EvalParamCall(e NodeID) *ParamCall {
	f := m.File
	for e = f.Unparen(e); f.Kind(e) == KindAttribute; e = f.Unparen(f.Field(e, FieldObject)) {
	}
	if f.Kind(e) != KindIdentifier {
		return nil
	}
	b := m.Resolve(e)
	if b == nil || b.Kind != BindParam || !m.evalParam(b) {
		return nil
	}
	calls := m.EvalCalls(f.Parent(f.Parent(b.Stmt)))
	return &calls[0]
}

// evalParam reports whether b binds the parameter that every call of
// its function hands a module switched to evaluation mode.
func (m *Model) evalParam(b *Binding) bool {
	f := m.File
	def := f.Parent(f.Parent(b.Stmt))
	if f.Kind(def) != KindFunctionDefinition || f.Parent(b.Stmt) != f.Field(def, FieldParameters) {
		return false
	}
	calls := m.EvalCalls(def)
	return len(calls) > 0 && slices.Index(m.positionalParams(def), b.Name) == calls[0].Index
}

// InstanceForward returns the forward method, of a class of this file,
// that calling fn runs (`model(x)`, `model.forward(x)` on an instance of
// it), or NoNode; NoNode too where the class overrides __call__.
func (m *Model) InstanceForward(fn NodeID) NodeID {
	f := m.File
	recv := f.Unparen(fn)
	if f.Kind(recv) == KindAttribute && f.TextIs(f.Field(recv, FieldAttribute), "forward") {
		recv = f.Unparen(f.Field(recv, FieldObject))
	}
	class := m.receiverClass(recv)
	cb := m.Resolve(class)
	if class == NoNode || f.Kind(class) != KindIdentifier || cb == nil || cb.Kind != BindClass || m.MethodOf(cb.Stmt, "__call__") != NoNode {
		return NoNode
	}
	return m.MethodOf(cb.Stmt, "forward")
}
