package analyzer

import (
	"slices"
	"strings"
)

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
	if IsNotebook(m.File.Path) {
		return m.notebookEvalCalls(def)
	}
	if o := m.lookup(m.localRef(def), WantEvalCalls); o != nil {
		return o.EvalCalls
	}
	return nil
}

// CalleeEvalCalls is EvalCalls of the project function a call runs.
func (m *Model) CalleeEvalCalls(call NodeID) []ParamCall {
	if def := m.LocalCallee(call); def != NoNode && IsNotebook(m.File.Path) {
		return m.notebookEvalCalls(def)
	}
	if o := m.lookup(m.calleeRef(call), WantEvalCalls); o != nil {
		return o.EvalCalls
	}
	return nil
}

type notebookEvalKey struct{ def NodeID }

// notebookEvalCalls is EvalCalls for a function of a notebook, which the
// project's facts do not hold (no file imports a notebook): its calls
// are all in the notebook. A function nested in another, a method, and
// one used other than by calling it have none.
func (m *Model) notebookEvalCalls(def NodeID) []ParamCall {
	return m.Memo(notebookEvalKey{def}, func() any {
		f := m.File
		if f.Kind(def) != KindFunctionDefinition || m.EnclosingFunction(f.Parent(def)) != NoNode || m.EnclosingClass(def) != NoNode {
			return []ParamCall(nil)
		}
		calls, ok := m.callsOf(def)
		if !ok {
			return []ParamCall(nil)
		}
		param := -1
		var out []ParamCall
		for _, c := range calls {
			i := m.EvalArg(c)
			if i < 0 || param >= 0 && i != param || m.GradModeAt(c) != GradEnabled {
				return []ParamCall(nil)
			}
			param = i
			if len(out) < 3 {
				s := m.localSite(m.site(c))
				s.Text = m.defName(def)
				out = append(out, ParamCall{Index: i, Site: s})
			}
		}
		return out
	}).([]ParamCall)
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
	def := m.paramFunction(b)
	if def == NoNode {
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

// summarizeModuleArgs sets Module of each call summary from the calls it
// stands for (ids, parallel to calls): the arguments every one of them
// hands a module.
func (m *Model) summarizeModuleArgs(calls []CallSummary, ids [][]NodeID) {
	f := m.File
	worth := false
	for _, group := range ids {
		for _, id := range group {
			if f.FirstChild(f.Field(id, FieldArguments)) != NoNode {
				worth = true
			}
		}
	}
	if !worth {
		return // most files: no call of the project's functions with arguments
	}
	// A value its name makes a loss or no model (`loss_op`, handed to a
	// helper that calls it) is none of the modules meant here, whatever
	// the code does with it: a loss module's output is back-propagated.
	named := make([][]uint16, len(ids))
	for i, group := range ids {
		var frozen uint16
		for j, id := range group {
			var b uint16
			if FrozenAtCall != nil {
				b = FrozenAtCall(m, id)
			}
			if j == 0 {
				frozen = b
			} else {
				frozen &= b
			}
			// A frozen module records no graph: none of the modules meant.
			named[i] = append(named[i], m.notLossArgs(id)&^b)
		}
		calls[i].Frozen = frozen
	}
	// What the code does with a value, not its name: one pass of the
	// file without names for all the calls.
	m.WithoutNames(func() bool {
		for i, group := range ids {
			var bits uint16
			for j, id := range group {
				b := named[i][j]
				if b != 0 {
					b &= m.ModuleArgs(id)
				}
				if j == 0 {
					bits = b
				} else {
					bits &= b
				}
				if bits == 0 {
					break
				}
			}
			calls[i].Module = bits
		}
		return false
	})
}

// notLossArgs returns, as bits by position, the positional arguments of
// call (the first 16) that are models by what the model knows, names
// included (not a loss, as `loss_op` is by its name): those ModuleArgs may
// find modules by evidence alone.
func (m *Model) notLossArgs(call NodeID) uint16 {
	f := m.File
	return m.ArgBits(call, func(a NodeID) bool {
		name := f.Text(a)
		if f.Kind(a) == KindAttribute {
			name = f.Text(f.Field(a, FieldAttribute))
		}
		if l := strings.ToLower(name); f.Kind(a) != KindCall && (lossLikeName(name) || strings.Contains(l, "loss") || strings.Contains(l, "crit")) {
			// A loss module (`loss_op`) is back-propagated through like a
			// model: its name tells it apart.
			return false
		}
		return f.TextIs(a, "self") || m.instanceOf(a, 0) == CallableModel
	})
}

// ModuleArgs returns the positional arguments of call that the code
// shows are modules recording a graph, whatever their names, as bits by
// position (the first 16): `self` in a method of a module class, a name
// bound to a module's construction or used as one (`.parameters()`,
// `.eval()`), a module built in the call. Asked without names
// (WithoutNames) for evidence alone.
func (m *Model) ModuleArgs(call NodeID) uint16 {
	return m.ArgBits(call, m.moduleArg)
}

// ArgBits returns, as bits by position, the positional arguments of call
// among the first 16, up to a `*args` (the positions after it are not
// known), that are names, attributes or calls and that is holds of
// (unparenthesized): the arguments a call summary tells of.
func (m *Model) ArgBits(call NodeID, is func(a NodeID) bool) uint16 {
	f := m.File
	var bits uint16
	for i, a := range m.Args(call) {
		if i >= 16 || f.Kind(a) == KindListSplat {
			break
		}
		a = f.Unparen(a)
		switch f.Kind(a) {
		case KindIdentifier, KindAttribute, KindCall:
			if is(a) {
				bits |= 1 << i
			}
		}
	}
	return bits
}

// moduleArg reports whether a, an argument of a call, is a module that
// records a graph by the code's evidence.
func (m *Model) moduleArg(a NodeID) bool {
	f := m.File
	if f.TextIs(a, "self") {
		if b := m.Resolve(a); b == nil || b.Kind != BindParam {
			return false
		}
		class := m.EnclosingClass(a)
		return class != NoNode && m.IsModuleClass(class) && !m.selfFree(class)
	}
	if f.Kind(a) == KindIdentifier {
		if b := m.Resolve(a); b != nil && b.Kind == BindParam {
			// The caller's own parameter: what its callers hand it is
			// theirs to show, not what its name's uses in this file say.
			return false
		}
	}
	return m.instanceOf(a, 0) == CallableModel && !m.NoGraphValue(a) || m.parameterFunction(a)
}

// ModuleParamCall returns, for e a name of a parameter of its function,
// the first of the calls of the project that each hand that parameter a
// module (Object.ModuleCalls), or nil where not every call does.
func (m *Model) ModuleParamCall(e NodeID) *ParamCall {
	return m.handedParam(e, false)
}

// FrozenParamCall returns, for e a name of a parameter of its function,
// the first of the calls of the project that each hand that parameter a
// module frozen before the call (Object.FrozenCalls), or nil where not
// every call does.
func (m *Model) FrozenParamCall(e NodeID) *ParamCall {
	return m.handedParam(e, true)
}

// handedParam is ModuleParamCall, or FrozenParamCall where frozen.
func (m *Model) handedParam(e NodeID, frozen bool) *ParamCall {
	f := m.File
	e = f.Unparen(e)
	if f.Kind(e) != KindIdentifier {
		return nil
	}
	if b := m.Resolve(e); b != nil && b.Kind == BindParam {
		return m.paramHanded(b, frozen)
	}
	return nil
}

// moduleParam returns the first of the calls of the project that each
// hand the parameter b binds a module, or nil.
func (m *Model) moduleParam(b *Binding) *ParamCall {
	return m.paramHanded(b, false)
}

// paramHanded returns the first of the calls of the project that each
// hand the parameter b binds a module (frozen before the call, where
// frozen), or nil.
func (m *Model) paramHanded(b *Binding, frozen bool) *ParamCall {
	def := m.paramFunction(b)
	if def == NoNode {
		return nil
	}
	o := m.lookup(m.localRef(def), WantModuleCalls)
	if o == nil {
		return nil
	}
	calls := o.ModuleCalls
	if frozen {
		calls = o.FrozenCalls
	}
	i := slices.Index(m.positionalParams(def), b.Name)
	for k := range calls {
		if calls[k].Index == i {
			return &calls[k]
		}
	}
	return nil
}
