package analyzer

import "strconv"

// FixedIterations reports whether a for loop iterates what the code
// writes out: a list or tuple, or (fixedIterable) a range of a few
// literal values and enumerate or zip of them, where its body reads the
// values (or runs once, `range(1)`) and trains nothing.
func (m *Model) FixedIterations(loop NodeID) bool {
	f := m.File
	if f.Kind(loop) != KindForStatement {
		return false
	}
	it := f.Unparen(f.Field(loop, FieldRight))
	if k := f.Kind(it); k == KindList || k == KindTuple {
		return true
	}
	// A few values of a range or of enumerate or zip are values only
	// where the body reads them and trains nothing (three samples
	// plotted): `for epoch in range(3):` around the steps of training,
	// or `for _ in range(5):` that chains a sampler's passes, repeats.
	once := m.builtinCalled(it) == "range" && rangeLen(f, m.Args(it)) == 1
	return m.fixedIterable(it, 0) && (once || m.readsTargets(loop)) && !m.Loop(loop).Backward && !m.stepsNested(loop)
}

// readsTargets reports whether a for loop's body reads a name its
// targets bind (other than `_`).
func (m *Model) readsTargets(loop NodeID) bool {
	f := m.File
	targets := identifiers(f, f.Field(loop, FieldLeft))
	delete(targets, "_")
	found := false
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		found = found || f.Kind(id) == KindIdentifier && f.N(id).Field != FieldAttribute && targets[f.Text(id)]
	})
	return found
}

// fixedIterable reports whether an iterable is written out in the code:
// a literal list or tuple, a range of a few literal values (`range(3)`),
// or enumerate, zip, reversed or sorted of such iterables.
func (m *Model) fixedIterable(it NodeID, depth int) bool {
	f := m.File
	switch f.Kind(it) {
	case KindList, KindTuple:
		return true
	case KindCall:
		if depth > 4 {
			return false
		}
		args := m.Args(it)
		switch m.builtinCalled(it) {
		case "range":
			// `for i in range(3):`: a few iterations, each written out as
			// much as a literal list's.
			return smallRange(f, args)
		case "enumerate", "reversed", "sorted":
			return len(args) == 1 && m.fixedIterable(f.Unparen(args[0]), depth+1)
		case "zip":
			for _, a := range args {
				if m.fixedIterable(f.Unparen(a), depth+1) {
					return true // zip stops at its shortest iterable
				}
			}
		}
	}
	return false
}

// builtinCalled returns the name of the builtin function call calls
// (`range`, `zip`): a plain name bound nowhere in the file; "" for any
// other call.
func (m *Model) builtinCalled(call NodeID) string {
	f := m.File
	if f.Kind(call) != KindCall {
		return ""
	}
	fn := f.Field(call, FieldFunction)
	if f.Kind(fn) != KindIdentifier || m.Resolve(fn) != nil {
		return ""
	}
	return f.Text(fn)
}

// smallRange reports whether the arguments of a call of range are
// integer literals that give at most five values (`range(3)`,
// `range(1, 4)`).
func smallRange(f *File, args []NodeID) bool {
	n := rangeLen(f, args)
	return n >= 0 && n <= 5
}

// rangeLen returns how many values a call of range with these arguments
// gives, where they are one or two integer literals; -1 otherwise.
func rangeLen(f *File, args []NodeID) int {
	var n []int
	for _, a := range args {
		if f.Kind(a) != KindInteger {
			return -1
		}
		v, err := strconv.Atoi(f.Text(a))
		if err != nil {
			return -1
		}
		n = append(n, v)
	}
	switch len(n) {
	case 1:
		return max(n[0], 0)
	case 2:
		return max(n[1]-n[0], 0)
	}
	return -1
}

// BreaksAfterFirst reports whether a loop's body ends in a `break` that
// every iteration reaches (no `continue` of this loop before it): a smoke
// test's `for batch in loader: ...; break` runs its body once.
func (m *Model) BreaksAfterFirst(loop NodeID) bool {
	f := m.File
	last := NoNode
	f.Children(f.Field(loop, FieldBody), func(c NodeID) bool {
		last = c
		return true
	})
	if f.Kind(last) != KindBreakStatement {
		return false
	}
	skips := false
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		skips = skips || f.Kind(id) == KindContinueStatement && m.EnclosingLoop(id) == loop
	})
	return !skips
}

// RepeatingLoop returns the innermost loop of id's function (or of the
// module's code) that runs id again and again: a while loop, a for loop
// or a comprehension over what the code does not write out, whose body
// does not end in a break every iteration reaches. NoNode where none
// does (`for cfg in (a, b):`, a smoke test's loop that breaks at once).
func (m *Model) RepeatingLoop(id NodeID) NodeID {
	for l := m.EnclosingLoop(id); l != NoNode; l = m.EnclosingLoop(l) {
		if m.Repeats(l) {
			return l
		}
	}
	return NoNode
}

// Repeats reports whether loop, a for or while loop or a comprehension,
// runs its body again and again: a comprehension once per element, a
// loop unless it iterates what the code writes out or breaks at the end
// of every iteration.
func (m *Model) Repeats(loop NodeID) bool {
	if k := m.File.Kind(loop); k != KindForStatement && k != KindWhileStatement {
		return true
	}
	return !m.FixedIterations(loop) && !m.BreaksAfterFirst(loop)
}

// Repeated tells where function def, of this file, is run on every
// iteration of a loop (RepeatingLoop) with grad not disabled there, by a
// call of it or of a function that calls it: a call of this file (call,
// the first found), or, where none is, one in the project (site, as
// CallSummary.Loop records it: its Text names the function the call
// runs). An agent's `get_action(state)` run on every environment step,
// for one.
func (m *Model) Repeated(def NodeID) (call NodeID, site *Site) {
	r := m.MemoRecursive(repeatedKey{def}, repeatedAt{call: NoNode}, func() any {
		m.indexCalls()
		live := func(c NodeID) bool { return !m.File.Contains(def, c) && m.GradModeAt(c) != GradDisabled }
		for _, c := range m.callSites[def] {
			if live(c) && m.RepeatingLoop(c) != NoNode {
				return repeatedAt{call: c}
			}
		}
		for _, c := range m.callSites[def] {
			if fn := m.EnclosingFunction(c); live(c) && fn != NoNode && fn != def {
				if c, site := m.Repeated(fn); c != NoNode || site != nil {
					return repeatedAt{call: c, site: site}
				}
			}
		}
		if o := m.projectNamedCalls(def); o != nil && o.RepeatedBy != nil {
			return repeatedAt{call: NoNode, site: o.RepeatedBy}
		}
		if o := m.lookup(m.localRef(def), WantRepeated); o != nil && o.RepeatedBy != nil {
			return repeatedAt{call: NoNode, site: o.RepeatedBy}
		}
		return repeatedAt{call: NoNode}
	}).(repeatedAt)
	return r.call, r.site
}

type repeatedKey struct{ def NodeID }

type repeatedAt struct {
	call NodeID
	site *Site
}
