package analyzer

import "slices"

// A function reached through a value: a loss function handed to a
// training loop as a parameter (`train(model, opt, vae_loss, loader)`),
// made by a factory (`loss_fn = make_loss(beta)`) or bound by
// functools.partial. What each element of the tuple it returns holds is
// read in that function, as for a call of it by name.

// calledFunction is what a call runs, when it runs it through a value: a
// function of this file (def) or of another file of the project (ref).
type calledFunction struct {
	def NodeID
	ref string
}

type passedKey struct{ call NodeID }

// passedFunctions returns the functions a call of a value runs, when
// every way the value is bound leads to one: nil for a call by a
// function's own name, or of a value that may hold anything else.
func (m *Model) passedFunctions(call NodeID) []calledFunction {
	f := m.File
	if f.Kind(call) != KindCall {
		return nil
	}
	return m.MemoRecursive(passedKey{call}, []calledFunction(nil), func() any {
		fn := f.Unparen(f.Field(call, FieldFunction))
		if f.Kind(fn) == KindCall {
			return m.functionsOf(fn, 0) // `make_loss(beta)(recon, x)`
		}
		if f.Kind(fn) != KindIdentifier {
			return []calledFunction(nil)
		}
		b := m.Resolve(fn)
		if b == nil || b.Kind != BindParam && (b.Kind != BindAssign || b.Unpacked) {
			return []calledFunction(nil)
		}
		return m.functionsOf(fn, 0)
	}).([]calledFunction)
}

// functionsOf returns the functions a value is: a function of this file
// or an imported one of the project, a parameter given such values at
// every call of its function in this file, a name bound to one, the
// result of a factory of this file that returns a function it defines,
// or functools.partial of one with keyword arguments only. Nil where any
// of these leads elsewhere. An instance of a class of this file that
// defines __call__ is that method.
func (m *Model) functionsOf(e NodeID, depth int) []calledFunction {
	f := m.File
	e = f.Unparen(e)
	if depth > 4 {
		return nil
	}
	switch f.Kind(e) {
	case KindIdentifier:
		b := m.Resolve(e)
		if b == nil {
			return nil
		}
		switch b.Kind {
		case BindFunction:
			return []calledFunction{{def: b.Stmt}}
		case BindImport:
			if q := m.QualifiedName(e); q != "" && !isLibraryName(q) {
				if o := m.lookup(q, WantKind); o != nil && o.Kind == ObjectFunction {
					return []calledFunction{{ref: q}}
				}
			}
		case BindAssign:
			if !b.Unpacked {
				return m.functionsOf(b.Value, depth+1)
			}
		case BindParam:
			args, ok := m.paramArgs(b)
			if !ok {
				return nil
			}
			var out []calledFunction
			for _, a := range args {
				got := m.functionsOf(a, depth+1)
				if got == nil {
					return nil
				}
				out = append(out, got...)
			}
			return out
		}
	case KindCall:
		if q := m.CallName(e); q == "functools.partial" {
			args := m.Args(e)
			if len(args) != 1 {
				return nil // positional arguments bound: positions shift
			}
			return m.functionsOf(args[0], depth+1)
		}
		if fn := f.Unparen(f.Field(e, FieldFunction)); f.Kind(fn) == KindIdentifier {
			// An instance of a class of this file that defines __call__
			// (`criterion = SemiLoss()`), other than a module.
			if cb := m.Resolve(fn); cb != nil && cb.Kind == BindClass {
				if call := m.MethodOf(cb.Stmt, "__call__"); call != NoNode && !m.IsModuleClass(cb.Stmt) {
					return []calledFunction{{def: call}}
				}
				return nil
			}
		}
		def := m.LocalCallee(e)
		if def == NoNode {
			return nil
		}
		var out []calledFunction
		for _, c := range m.returnedClosures(def) {
			out = append(out, calledFunction{def: c})
		}
		return out
	}
	return nil
}

// returnedClosures returns the functions def defines that its returns
// give, one per return, where every return gives one (a factory); else
// nil.
func (m *Model) returnedClosures(def NodeID) []NodeID {
	f := m.File
	var out []NodeID
	for _, r := range m.ReturnValues(def) {
		r = f.Unparen(r)
		if f.Kind(r) != KindIdentifier {
			return nil
		}
		rb := m.Resolve(r)
		if rb == nil || rb.Kind != BindFunction || !f.Contains(def, rb.Stmt) {
			return nil
		}
		out = append(out, rb.Stmt)
	}
	return out
}

// passedElementCarries reports, for a call of a value that runs the
// functions fns, whether element index of the tuple it returns carries
// history: a function of this file returns one there, or computes it from
// a parameter the call gives a graph; one of another file says so in its
// summary.
func (m *Model) passedElementCarries(call NodeID, fns []calledFunction, index int) bool {
	for _, c := range fns {
		if c.ref != "" {
			if o := m.lookup(c.ref, WantReturns); o != nil && o.TupleLen > 0 {
				if i := elementPos(index, o.TupleLen); i >= 0 && slices.Contains(o.GraphElems, i) {
					return true
				}
			}
			continue
		}
		if m.returnsGraphAt(c.def, index) || m.argsFeed(call, m.paramsReaching(c.def, m.positionalParams(c.def), m.elementValues(c.def, index))) {
			return true
		}
	}
	return false
}

// elementValues returns the element index of the tuple each return of
// def builds.
func (m *Model) elementValues(def NodeID, index int) []NodeID {
	f := m.File
	var out []NodeID
	for _, v := range m.ReturnValues(def) {
		v = f.Unparen(v)
		if k := f.Kind(v); k != KindExpressionList && k != KindTuple {
			continue
		}
		kids := f.ChildList(v)
		if i := elementPos(index, len(kids)); i >= 0 {
			out = append(out, kids[i])
		}
	}
	return out
}

// predictionTuple reports whether call returns a tuple whose first
// element is a prediction: unpacked (`recon, mu = model(x)`, also through
// a name bound to the call), that element is the first argument of a
// loss, or of a function that computes no forward pass and whose result
// is back-propagated (`vae_loss(recon, x, mu, logvar)`). The tuple is
// then the outputs of a forward pass, not a loss with the numbers it
// reports.
func (m *Model) predictionTuple(call NodeID) bool {
	return m.predictionCalls()[call]
}

type predictionCallsKey struct{}

func (m *Model) predictionCalls() map[NodeID]bool {
	return m.MemoRecursive(predictionCallsKey{}, map[NodeID]bool{}, func() any {
		f := m.File
		out := map[NodeID]bool{}
		for i := range f.Nodes {
			id := NodeID(i)
			if f.Nodes[i].Kind != KindCall || !m.IsLossCall(id) && !m.lossHelperCall(id) {
				continue
			}
			args := m.Args(id)
			if len(args) == 0 || f.Kind(f.Unparen(args[0])) != KindIdentifier {
				continue
			}
			b := m.Resolve(f.Unparen(args[0]))
			if b == nil || b.Kind != BindAssign || !b.Unpacked || b.Index != 0 {
				continue
			}
			v := f.Unparen(b.Value)
			for range 4 {
				if f.Kind(v) != KindIdentifier {
					break
				}
				v = f.Unparen(m.AssignedValue(v))
			}
			if f.Kind(v) == KindCall && v != id {
				out[v] = true
			}
		}
		return out
	}).(map[NodeID]bool)
}

// lossHelperCall reports whether call runs a function of this file, by
// name or through a value, that computes no forward pass of its own, and
// its result is back-propagated: a loss function of the project.
func (m *Model) lossHelperCall(call NodeID) bool {
	f := m.File
	if def := m.LocalCallee(call); def != NoNode {
		if m.runsOwnForward(def) {
			return false
		}
	} else if fns := m.passedFunctions(call); fns == nil || slices.ContainsFunc(fns, func(c calledFunction) bool {
		return c.def != NoNode && m.runsOwnForward(c.def)
	}) {
		return false
	}
	stmt := f.Parent(call)
	if f.Kind(stmt) != KindAssignment || f.Field(stmt, FieldRight) != call {
		return false
	}
	found := false
	f.Walk(f.Field(stmt, FieldLeft), func(id NodeID) {
		if !found && f.Kind(id) == KindIdentifier {
			if b := m.Resolve(id); b != nil && b.Stmt == stmt && m.ev().graph[b] {
				found = true
			}
		}
	})
	return found
}
