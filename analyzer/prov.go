package analyzer

import (
	"slices"
	"sort"
	"strings"
)

// Provenance in statement order. A name read at some point of a
// function holds what the bindings that reach that point gave it: the
// last one before it in the function's text and, inside a loop, those
// later in the loop's body, which reach it through the loop's back edge.
// A name re-bound in another loop, or after the loop, does not reach
// back. The questions below are answered over those reaching bindings,
// and over element keys (`losses[1]`, `out["loss"]`) for the values held
// in containers.

// ReachingBindings returns the bindings of the name use refers to that
// may reach it: the last one before it in the function's text and, where
// that one runs only on some paths (in a branch, a loop or a try), the
// ones before it, back to one that runs whenever the use does; and the
// bindings of the same name that follow use inside a loop around it.
func (m *Model) ReachingBindings(use NodeID) []*Binding {
	b := m.Resolve(use)
	if b == nil {
		return nil
	}
	if b.Scope != m.scopeOf[use] {
		return []*Binding{b}
	}
	return m.reachingAt(m.File.Text(use), b.Scope, use, m.File.N(use).Start)
}

// assignedValues returns the values that the bindings reaching use assign
// (`x = value`, none unpacking), and false where one of them is another
// kind of binding (a parameter, an import, `x += ...`, `a, x = ...`).
func (m *Model) assignedValues(use NodeID) ([]NodeID, bool) {
	rb := m.ReachingBindings(use)
	vals := make([]NodeID, 0, len(rb))
	for _, b := range rb {
		if b.Kind != BindAssign || b.Unpacked {
			return nil, false
		}
		vals = append(vals, b.Value)
	}
	return vals, true
}

// reachingAt returns the bindings of name in scope s that may reach a
// read at node at, which lies at byte offset pos.
func (m *Model) reachingAt(name string, s ScopeID, at NodeID, pos uint32) []*Binding {
	f := m.File
	key := bindKey{s, name}
	c, ok := m.bindIndex[key]
	if !ok {
		return nil
	}
	var out []*Binding
	var dom *Binding // a binding every path to at in its block runs
	// visit takes the bindings before at from the nearest back, those at
	// one position in the chain's order, until one that every path runs.
	visit := func(o *Binding) bool {
		if !superseded(f, out, o) {
			// `x /= t` before `x = Variable(x)` in the same block: only the
			// later reaches. A superseded one every path runs still ends the
			// walk, the older ones behind it.
			out = append(out, o)
		}
		if o.Kind == BindParam || o.Kind == BindFunction || o.Kind == BindClass || o.Kind == BindImport {
			return false
		}
		if f.Unconditional(o.Stmt, commonAncestor(f, o.Stmt, at)) {
			dom = o
			return false
		}
		return true
	}
	if idx := m.sortedChain(key, c); idx != nil {
		// A name bound many times (`latents = ...` down a long
		// function): the index, not a sort of the chain for each read.
	next:
		for hi := m.searchChain(idx, pos); hi > 0; {
			lo, p := hi-1, m.bindingPos(&m.binds[idx[hi-1]])
			for lo > 0 && m.bindingPos(&m.binds[idx[lo-1]]) == p {
				lo--
			}
			for k := lo; k < hi; k++ {
				if !visit(&m.binds[idx[k]]) {
					break next
				}
			}
			hi = lo
		}
		return m.backEdgeBindings(name, s, at, out, dom)
	}
	var before []*Binding
	for i := c.first; i >= 0; i = m.binds[i].next {
		if o := &m.binds[i]; m.bindingPos(o) < pos {
			before = append(before, o)
		}
	}
	sort.SliceStable(before, func(i, j int) bool { return m.bindingPos(before[i]) > m.bindingPos(before[j]) })
	for _, o := range before {
		if !visit(o) {
			break
		}
	}
	return m.backEdgeBindings(name, s, at, out, dom)
}

// superseded reports whether binding o is bound again, on every path
// from it, by bindings of later (all after it): by one plain assignment
// that runs whenever the block holding both does, or by an if whose
// every arm, else included, assigns it so.
func superseded(f *File, later []*Binding, o *Binding) bool {
	rebinds := func(p *Binding) bool {
		return (p.Kind == BindAssign || p.Kind == BindWithTarget) && p.Stmt != o.Stmt && f.N(p.Stmt).Start >= f.N(o.Stmt).End
	}
	var ifs []NodeID
	for _, p := range later {
		if !rebinds(p) {
			continue
		}
		if f.Unconditional(p.Stmt, commonAncestor(f, p.Stmt, o.Stmt)) {
			return true
		}
		for s := enclosingIf(f, p.Stmt); s != NoNode && f.N(s).Start >= f.N(o.Stmt).End; s = enclosingIf(f, s) {
			if !slices.Contains(ifs, s) {
				ifs = append(ifs, s)
			}
		}
	}
	for _, s := range ifs {
		if f.Unconditional(s, commonAncestor(f, s, o.Stmt)) && everyArmRebinds(f, s, func(arm NodeID) bool {
			return slices.ContainsFunc(later, func(p *Binding) bool { return rebinds(p) && f.Contains(arm, p.Stmt) && f.Unconditional(p.Stmt, arm) })
		}) {
			return true
		}
	}
	return false
}

// enclosingIf returns the if statement nearest around n in its
// function, or NoNode.
func enclosingIf(f *File, n NodeID) NodeID {
	for p := f.Parent(n); p != NoNode; p = f.Parent(p) {
		switch f.Kind(p) {
		case KindIfStatement:
			return p
		case KindFunctionDefinition, KindLambda, KindClassDefinition:
			return NoNode
		}
	}
	return NoNode
}

// everyArmRebinds reports whether the if statement s has an else and
// binds holds of each of its arms' blocks.
func everyArmRebinds(f *File, s NodeID, binds func(arm NodeID) bool) bool {
	if !binds(f.Field(s, FieldConsequence)) {
		return false
	}
	hasElse := false
	for _, c := range f.ChildList(s) {
		switch f.Kind(c) {
		case KindElifClause:
			if !binds(f.Field(c, FieldConsequence)) {
				return false
			}
		case KindElseClause:
			hasElse = true
			if !binds(f.Field(c, FieldBody)) {
				return false
			}
		}
	}
	return hasElse
}

// commonAncestor returns the innermost node that holds both a and b.
func commonAncestor(f *File, a, b NodeID) NodeID {
	for p := f.Parent(b); p != NoNode; p = f.Parent(p) {
		if f.Contains(p, a) {
			return p
		}
	}
	return Root
}

// backEdgeBindings adds to out the bindings of name in scope s that lie
// after at inside a for or while loop holding at.
func (m *Model) backEdgeBindings(name string, s ScopeID, at NodeID, out []*Binding, dom *Binding) []*Binding {
	f := m.File
	loop := m.statementLoop(at)
	if loop == NoNode {
		return out
	}
	for l := m.statementLoop(loop); l != NoNode; l = m.statementLoop(l) {
		loop = l // the outermost loop: its back edge reaches every iteration
	}
	key := bindKey{s, name}
	c, ok := m.bindIndex[key]
	if !ok {
		return out
	}
	pos := f.N(at).Start
	body := f.Field(loop, FieldBody)
	var later []int32 // the chain's bindings after at, in its order
	if idx := m.sortedChain(key, c); idx != nil {
		for _, i := range idx[m.searchChain(idx, pos+1):] {
			if m.bindingPos(&m.binds[i]) > f.N(body).End {
				break
			}
			later = append(later, i)
		}
		slices.Sort(later) // the chain's order is the order of m.binds
	} else {
		for i := c.first; i >= 0; i = m.binds[i].next {
			later = append(later, i)
		}
	}
	for _, i := range later {
		o := &m.binds[i]
		if m.bindingPos(o) <= pos || !f.Contains(body, o.Stmt) {
			continue
		}
		// The back edge of the innermost loop around both comes back to
		// at through dom, when that loop holds dom: `loss = crit(...)`
		// then `loss.backward()` each iteration, whatever the loop binds
		// to loss later.
		if dom != nil {
			l := m.statementLoop(at)
			for l != NoNode && !f.Contains(f.Field(l, FieldBody), o.Stmt) {
				l = m.statementLoop(l)
			}
			if l != NoNode && f.Contains(f.Field(l, FieldBody), dom.Stmt) {
				continue
			}
		}
		out = append(out, o)
	}
	return out
}

// backpropReach is what the backward calls of a function run through.
type backpropReach struct {
	binds map[*Binding]bool
	// keys are the element and attribute keys (`losses[1]`,
	// `self.total`) read on the way, without whitespace.
	keys map[string]bool
	fn   NodeID
}

type backpropReachKey struct{ fn NodeID }

// backpropReach follows the values that the backward calls of fn
// back-propagate to the bindings that reach them, and on through the
// values those bindings hold: every binding met gives part of the graph
// some backward call runs through.
func (m *Model) backpropReach(fn NodeID) *backpropReach {
	return m.Memo(backpropReachKey{fn}, func() any {
		f := m.File
		r := &backpropReach{binds: map[*Binding]bool{}, keys: map[string]bool{}, fn: fn}
		f.Walk(fn, func(id NodeID) {
			if f.Kind(id) != KindCall {
				return
			}
			if !m.IsBackwardCall(id) {
				for _, a := range m.backpropArgs(id) {
					m.reachExpr(r, a, 0)
				}
				if m.assignsSelfAttr(fn) {
					for _, name := range m.backpropAttrsOf(id) {
						// `self.loss_G = total; super().backward_G()`.
						m.reachSelfAttr(r, fn, "self."+name)
					}
				}
				return
			}
			if recv := m.Receiver(id); recv != NoNode && m.MethodName(id) == "backward" {
				m.reachExpr(r, recv, 0)
			}
			f.Children(f.Field(id, FieldArguments), func(c NodeID) bool {
				if f.Kind(c) != KindKeywordArgument || f.TextIs(f.Field(c, FieldName), "outputs") ||
					f.TextIs(f.Field(c, FieldName), "tensors") {
					m.reachExpr(r, c, 0)
				}
				return true
			})
		})
		return r
	}).(*backpropReach)
}

// reachSelfAttr reaches the values that fn assigns to attr (`self.loss`),
// alone or in a tuple of targets, or adds to it.
func (m *Model) reachSelfAttr(r *backpropReach, fn NodeID, attr string) {
	f := m.File
	if r.keys["="+attr] {
		return
	}
	r.keys[attr], r.keys["="+attr] = true, true
	f.Walk(fn, func(id NodeID) {
		if k := f.Kind(id); k != KindAssignment && k != KindAugmentedAssignment || m.EnclosingFunction(id) != fn {
			return
		}
		hit := false
		f.Walk(f.Field(id, FieldLeft), func(t NodeID) {
			if !hit && f.Kind(t) == KindAttribute && compactText(f, t) == attr {
				hit = true
			}
		})
		if hit {
			m.reachExpr(r, f.Field(id, FieldRight), 1)
		}
	})
}

type backpropAttrsKey struct{ def NodeID }

// BackpropAttrs returns the attributes of self (without `self.`) whose
// graph a backward call of method def runs through
// (`self.loss_G.backward()`), or that a method it calls on self
// back-propagates.
func (m *Model) BackpropAttrs(def NodeID) []string {
	return m.MemoRecursive(backpropAttrsKey{def}, []string(nil), func() any {
		f := m.File
		if m.EnclosingClass(def) == NoNode {
			return []string(nil)
		}
		var out []string
		add := func(name string) {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if f.Kind(id) != KindCall || m.EnclosingFunction(id) != def {
				return
			}
			t := m.backpropTarget(id)
			if t == NoNode {
				for _, name := range m.backpropAttrsOf(id) {
					add(name)
				}
				return
			}
			for t = f.Unparen(t); f.Kind(t) == KindCall && m.MethodName(t) != "" && !detachingMethods[m.MethodName(t)]; {
				t = f.Unparen(m.Receiver(t)) // `self.loss.mean().backward()`
			}
			if f.Kind(t) == KindAttribute && f.TextIs(f.Field(t, FieldObject), "self") {
				add(f.Text(f.Field(t, FieldAttribute)))
			}
		})
		return out
	}).([]string)
}

// backpropAttrsOf returns the attributes of self that a call of a method
// on self (`self.backward_G()`, `super().backward_G()`) back-propagates:
// a method of this file, or of a base class in another file.
func (m *Model) backpropAttrsOf(call NodeID) []string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindAttribute {
		return nil
	}
	name, super := m.selfCall(call)
	class := m.EnclosingClass(call)
	if name == "" || class == NoNode {
		return nil
	}
	if !super {
		if def := m.selfMethod(class, name); def != NoNode {
			return m.BackpropAttrs(def)
		}
	} else {
		for _, b := range m.ClassBases(class) {
			if cb := m.Resolve(f.Unparen(b)); cb != nil && cb.Kind == BindClass {
				if def := m.selfMethod(cb.Stmt, name); def != NoNode {
					return m.BackpropAttrs(def)
				}
			}
		}
	}
	if m.facts == nil {
		return nil
	}
	for _, r := range m.baseMethodRefs(class, name) {
		// WantParams alone: a method without such facts is answered
		// nil, which does not change as the project is solved.
		if o := m.lookup(r, WantParams); o != nil {
			return o.BackpropAttrs
		}
	}
	return nil
}

// selfCall returns the name of the method a call calls on self
// (`self.name(...)`, super false) or on super() (`super().name(...)`,
// super true); "" for any other call.
func (m *Model) selfCall(call NodeID) (name string, super bool) {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindAttribute {
		return "", false
	}
	obj := f.Unparen(f.Field(fn, FieldObject))
	switch {
	case f.TextIs(obj, "self"):
	case f.Kind(obj) == KindCall && f.TextIs(f.Field(obj, FieldFunction), "super"):
		super = true
	default:
		return "", false
	}
	return f.Text(f.Field(fn, FieldAttribute)), super
}

type assignsSelfAttrKey struct{ fn NodeID }

// assignsSelfAttr reports whether function fn assigns or adds to an
// attribute of self: only then can a method it calls back-propagate what
// fn computed through self.
func (m *Model) assignsSelfAttr(fn NodeID) bool {
	return m.Memo(assignsSelfAttrKey{fn}, func() any {
		f := m.File
		found := false
		f.Walk(fn, func(id NodeID) {
			if found {
				return
			}
			if k := f.Kind(id); (k == KindAssignment || k == KindAugmentedAssignment) && m.EnclosingFunction(id) == fn {
				f.Walk(f.Field(id, FieldLeft), func(t NodeID) {
					if f.Kind(t) == KindAttribute && f.TextIs(f.Field(t, FieldObject), "self") {
						found = true
					}
				})
			}
		})
		return found
	}).(bool)
}

// baseMethodRefs returns the refs of method name in the bases of class
// that other files of the project define, in order, as Python's method
// resolution meets them first (`class Seq(Mixin, Base)`).
func (m *Model) baseMethodRefs(class NodeID, name string) []string {
	f := m.File
	var out []string
	for _, b := range m.ClassBases(class) {
		b = f.Unparen(b)
		if k := f.Kind(b); k != KindIdentifier && k != KindAttribute {
			continue
		}
		if cb := m.Resolve(b); cb != nil && cb.Kind == BindClass {
			continue
		}
		if q := m.QualifiedName(b); q != "" && !isLibraryName(q) {
			out = append(out, q+"."+name)
		}
	}
	return out
}

// backpropVia returns, for the summary of method def, the refs of the
// methods of base classes in other files that it calls on self or
// super(), whose back-propagated attributes the project adds to its own.
func (m *Model) backpropVia(def NodeID) []string {
	f := m.File
	class := m.EnclosingClass(def)
	if class == NoNode || !m.assignsSelfAttr(def) {
		return nil // what it back-propagates on self, it put there
	}
	var out []string
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if f.Kind(id) != KindCall || m.EnclosingFunction(id) != def {
			return
		}
		name, super := m.selfCall(id)
		if name == "" || !super && m.selfMethod(class, name) != NoNode {
			return
		}
		for _, r := range m.baseMethodRefs(class, name) {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	})
	return out
}

func (m *Model) reachExpr(r *backpropReach, e NodeID, depth int) {
	f := m.File
	e = f.Unparen(e)
	if e == NoNode || depth > 64 {
		return
	}
	switch f.Kind(e) {
	case KindIdentifier:
		for _, b := range m.ReachingBindings(e) {
			m.reachBinding(r, b, depth+1)
		}
		m.reachAppended(r, e, depth+1)
		return
	case KindAttribute:
		if nonGradAttributes[f.Text(f.Field(e, FieldAttribute))] {
			return
		}
		if f.TextIs(f.Field(e, FieldObject), "self") && r.fn != Root {
			m.reachSelfAttr(r, r.fn, compactText(f, e)) // `self.loss = total` before `self.loss.backward()`
			return
		}
		r.keys[compactText(f, e)] = true
		m.reachExpr(r, f.Field(e, FieldObject), depth+1)
		return
	case KindSubscript:
		r.keys[compactText(f, e)] = true
		m.reachExpr(r, f.Field(e, FieldValue), depth+1)
		return
	case KindKeywordArgument:
		m.reachExpr(r, f.Field(e, FieldValue), depth+1)
		return
	case KindCall:
		if detachingMethods[m.MethodName(e)] {
			return
		}
		if m.MethodName(e) != "" {
			m.reachExpr(r, m.Receiver(e), depth+1)
		}
		f.Children(f.Field(e, FieldArguments), func(c NodeID) bool {
			m.reachExpr(r, c, depth+1)
			return true
		})
		return
	case KindLambda, KindString, KindConcatenatedString:
		return
	}
	f.Children(e, func(c NodeID) bool {
		m.reachExpr(r, c, depth+1)
		return true
	})
}

// reachAppended reaches what the function adds to a list that name
// holds (`losses.append(-log_prob * r)`, then `torch.stack(losses)`).
func (m *Model) reachAppended(r *backpropReach, name NodeID, depth int) {
	f := m.File
	key := "+" + f.Text(name)
	if r.fn == NoNode || r.keys[key] {
		return
	}
	r.keys[key] = true
	f.Walk(r.fn, func(id NodeID) {
		if f.Kind(id) != KindCall || m.ScopeNode(id) != m.ScopeNode(name) {
			return
		}
		switch m.MethodName(id) {
		case "append", "extend", "insert":
		default:
			return
		}
		if recv := f.Unparen(m.Receiver(id)); f.Kind(recv) == KindIdentifier && f.Text(recv) == f.Text(name) {
			if args := m.Args(id); len(args) > 0 {
				m.reachExpr(r, args[len(args)-1], depth)
			}
		}
	})
}

func (m *Model) reachBinding(r *backpropReach, b *Binding, depth int) {
	if r.binds[b] {
		return
	}
	r.binds[b] = true
	switch b.Kind {
	case BindAssign, BindWithTarget:
		m.reachExpr(r, b.Value, depth)
	case BindLoopTarget:
		m.reachExpr(r, b.Value, depth)
	case BindAugAssign:
		m.reachExpr(r, b.Value, depth)
		f := m.File
		for _, o := range m.reachingAt(f.Text(b.Name), b.Scope, b.Stmt, f.N(b.Stmt).Start) {
			if o != b {
				m.reachBinding(r, o, depth+1)
			}
		}
	}
}

// BackpropagatedAt reports whether the value that stmt (an assignment or
// augmented assignment) gives target reaches a backward call of fn: the
// graph it holds is then back-propagated on purpose. A name is followed
// in statement order; an attribute or element key by its text.
func (m *Model) BackpropagatedAt(fn, stmt, target NodeID) bool {
	f := m.File
	r := m.backpropReach(fn)
	target = f.Unparen(target)
	switch f.Kind(target) {
	case KindIdentifier:
		b := m.ResolveName(f.Text(target), m.scopeOf[target], f.N(stmt).End+1)
		return b != nil && b.Stmt == stmt && r.binds[b]
	case KindSubscript:
		return r.keys[compactText(f, target)]
	}
	return m.BackpropKeys(fn, fn)[f.Text(target)] || r.keys[compactText(f, target)]
}

// compactText is a node's text without whitespace.
func compactText(f *File, id NodeID) string {
	t := f.Text(id)
	b := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ' ', '\t', '\n', '\r', '\\':
		default:
			b = append(b, t[i])
		}
	}
	return string(b)
}

// lossUnpacking records the unpacked bindings that hold the loss a
// backward call runs through itself, or arithmetic on it, and the
// statements that bind them: `loss, logs = crit(out, y)` then
// `loss.backward()`. The other names such a statement unpacks are the
// values the loss comes with (counts, logged numbers), not parts of its
// graph, unless something else shows they are.
type lossUnpacking struct {
	binds map[*Binding]bool
	stmts map[NodeID]bool
}

type lossUnpackingKey struct{}

func (m *Model) lossUnpacking() *lossUnpacking {
	return m.Memo(lossUnpackingKey{}, func() any {
		f := m.File
		u := &lossUnpacking{binds: map[*Binding]bool{}, stmts: map[NodeID]bool{}}
		seen := map[*Binding]bool{}
		var walk func(e NodeID, depth int)
		walk = func(e NodeID, depth int) {
			e = f.Unparen(e)
			if depth > 16 {
				return
			}
			switch f.Kind(e) {
			case KindIdentifier:
				for _, b := range m.ReachingBindings(e) {
					if seen[b] {
						continue
					}
					seen[b] = true
					switch {
					case b.Kind == BindAssign && b.Unpacked:
						u.binds[b] = true
						u.stmts[b.Stmt] = true
					case b.Kind == BindAssign, b.Kind == BindAugAssign:
						walk(b.Value, depth+1)
					}
				}
			case KindBinaryOperator:
				walk(f.Field(e, FieldLeft), depth+1)
				walk(f.Field(e, FieldRight), depth+1)
			case KindUnaryOperator:
				walk(f.Field(e, FieldArgument), depth+1)
			case KindCall:
				if lossScalings[m.MethodName(e)] {
					walk(m.Receiver(e), depth+1)
				}
			}
		}
		for i := range f.Nodes {
			if id := NodeID(i); f.Nodes[i].Kind == KindCall {
				if t := m.backpropTarget(id); t != NoNode {
					walk(t, 0)
				}
			}
		}
		return u
	}).(*lossUnpacking)
}

// lossScalings are methods that scale or cast a loss without reducing a
// tensor to one: a value reduced before its backward (`out.pow(2).mean()`)
// is an output, not the loss.
var lossScalings = map[string]bool{
	"float": true, "double": true, "half": true, "to": true, "cuda": true, "mul": true, "div": true,
	"add": true, "sub": true, "neg": true, "squeeze": true,
}

// besideLoss reports whether an unpacked binding is one of the values a
// back-propagated loss was unpacked with, and not the loss. It is asked
// of what a function this file cannot see returns: a local function's
// returns say what each element holds.
func (m *Model) besideLoss(b *Binding) bool {
	u := m.lossUnpacking()
	if !u.stmts[b.Stmt] || u.binds[b] {
		return false
	}
	v := m.File.Unparen(b.Value)
	// A model's outputs (`loss, logits = model(x, y)`) all come from its
	// forward pass; so do those of a method of the project that runs one
	// (`pred, loss_t, dist = model.forward_boost(x)`), unless its name says
	// it computes a loss (`total, rec, reg = model.loss(u, i)`: the terms).
	if m.LocalCallee(v) != NoNode || m.IsForwardCall(v) || m.lossForward(v) != NoNode {
		return false // elementCarries asks the function itself
	}
	if name := m.calleeName(v); name != "" && !lossLikeName(name) && !strings.Contains(strings.ToLower(name), "loss") {
		if h := m.Helper(v); h != nil && h.Forward != nil {
			return false
		}
	}
	return true
}

// calleeName returns the last name of what a call calls: `f` of `f(x)`,
// `forward_boost` of `model.forward_boost(x)`; "" for anything else.
func (m *Model) calleeName(call NodeID) string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	switch f.Kind(fn) {
	case KindIdentifier:
		return f.Text(fn)
	case KindAttribute:
		return f.Text(f.Field(fn, FieldAttribute))
	}
	return ""
}

type graphParamsKey struct{ def NodeID }

// GraphParams returns the positional parameters of a function of this
// file (self and cls not counted) whose graph its result keeps: a return
// computes from the parameter, directly or through names re-bound on the
// way (`pred = pred[:, 0]`), by operations that keep autograd history.
// A call passing a value with a graph there gets a result with one.
func (m *Model) GraphParams(def NodeID) []int {
	return m.Memo(graphParamsKey{def}, func() any {
		params := m.positionalParams(def)
		var rets []NodeID
		for _, v := range m.ReturnValues(def) {
			if v != NoNode {
				rets = append(rets, v)
			}
		}
		return m.paramsReaching(def, params, rets)
	}).([]int)
}

// shallowGraphParams is GraphParams read from def's body alone: the calls
// it makes of the file's functions end the trail.
func (m *Model) shallowGraphParams(def NodeID) []int {
	return m.Memo(shallowGraphParamsKey{def}, func() any {
		var rets []NodeID
		for _, v := range m.ReturnValues(def) {
			if v != NoNode {
				rets = append(rets, v)
			}
		}
		return m.paramsReachingOpts(def, m.positionalParams(def), rets, deriveShallow)
	}).([]int)
}

type shallowGraphParamsKey struct{ def NodeID }

// paramsReaching returns the indexes of the parameters of def that some
// of the expressions derive from.
func (m *Model) paramsReaching(def NodeID, params, exprs []NodeID) []int {
	return m.paramsReachingOpts(def, params, exprs, 0)
}

// paramsReachingVia is paramsReaching, following the calls of def's
// parameters into their arguments where viaParams is set.
func (m *Model) paramsReachingVia(def NodeID, params, exprs []NodeID, viaParams bool) []int {
	if viaParams {
		return m.paramsReachingOpts(def, params, exprs, deriveViaParams)
	}
	return m.paramsReachingOpts(def, params, exprs, 0)
}

// paramsReachingOpts is paramsReaching, derivesFrom following what opts
// say.
func (m *Model) paramsReachingOpts(def NodeID, params, exprs []NodeID, opts deriveOpts) []int {
	var out []int
	for i, p := range params {
		for _, e := range exprs {
			if m.derivesFrom(e, def, func(b *Binding) bool { return b.Kind == BindParam && b.Name == p }, 0, opts) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

type backpropParamsKey struct{ def NodeID }

// BackpropParams returns the positional parameters of a function of
// this file (self and cls not counted) whose graph a backward call of
// its body runs through: `loss.backward()`, `scaler.scale(loss).backward()`
// or `torch.autograd.backward(loss)` on a value derived from the
// parameter.
//
// A parameter passed on to a function that back-propagates it
// (`self.model_backward(loss)`) counts too.
func (m *Model) BackpropParams(def NodeID) []int {
	// A recursive call back-propagates nothing more.
	return m.MemoRecursive(backpropParamsKey{def}, []int(nil), func() any {
		f := m.File
		var targets []NodeID
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if f.Kind(id) != KindCall || m.EnclosingFunction(id) != def {
				return
			}
			if t := m.backpropTarget(id); t != NoNode {
				targets = append(targets, t)
			} else {
				targets = append(targets, m.backpropArgs(id)...)
			}
		})
		if targets == nil {
			return []int(nil)
		}
		return m.paramsReachingVia(def, m.positionalParams(def), targets, true)
	}).([]int)
}

// backpropArgs returns the arguments a call passes to parameters whose
// graph its callee back-propagates (BackpropParams), for a function of
// this file or of the project.
func (m *Model) backpropArgs(call NodeID) []NodeID {
	var params []int
	f := m.File
	if def := m.LocalCallee(call); def != NoNode {
		params = m.BackpropParams(def)
	} else if ref := m.calleeRef(call); ref != "" && !strings.HasPrefix(ref, "#") {
		if o := m.lookup(ref, WantParams); o != nil {
			params = o.BackpropParams
		}
	} else if def, ref := m.callMethod(call); def != NoNode || ref != "" {
		// `loss_scaler(loss, optimizer)`, an instance of a class of the
		// project whose __call__ back-propagates its loss.
		if def != NoNode {
			params = m.BackpropParams(def)
		} else if o := m.lookup(ref, WantParams); o != nil {
			params = o.BackpropParams
		}
	} else if fn := f.Unparen(f.Field(call, FieldFunction)); ref == "" && m.facts != nil && f.Kind(fn) == KindAttribute &&
		f.TextIs(f.Field(fn, FieldObject), "self") {
		// `self.model_backward_and_update(loss)` of a base class of
		// another file.
		if r := m.inheritedMethodRef(m.EnclosingClass(call), f.Text(f.Field(fn, FieldAttribute))); r != "" {
			if o := m.lookup(r, WantParams); o != nil {
				params = o.BackpropParams
			}
		}
	} else if ref := m.modelMethodRef(call); ref != "" && m.facts != nil {
		// `mine.train_step(z, opt)`, mine a model of no class the file
		// knows: the project's methods of that name, each of a module
		// class, back-propagate what they are given there.
		if o := m.lookup(ref, WantParams); o != nil {
			params = o.BackpropParams
		}
	}
	if len(params) == 0 {
		return nil
	}
	args := m.Args(call)
	var out []NodeID
	for _, i := range params {
		if i < len(args) && f.Kind(args[i]) != KindListSplat {
			out = append(out, args[i])
		}
	}
	return out
}

// callMethod returns the `__call__` method (def in this file, or the ref
// of one in another) that calling an instance of a class of the project
// runs (`scaler(loss, opt)`, scaler bound to `Scaler()`). A module's call
// runs its forward; its class defines no `__call__` of its own.
func (m *Model) callMethod(call NodeID) (def NodeID, ref string) {
	if m.File.TextIs(m.File.Unparen(m.File.Field(call, FieldFunction)), "self") {
		return NoNode, ""
	}
	ref, def = m.classMethod(m.calledClass(call), "__call__")
	if strings.HasPrefix(ref, "#") {
		ref = ""
	}
	return def, ref
}

// PositionalParams returns the names of the parameters of function def
// that positional arguments fill, less a method's self or cls.
func (m *Model) PositionalParams(def NodeID) []NodeID { return m.positionalParams(def) }

// positionalParams returns the names of def's positional parameters, self
// and cls of a method left out, and none after a bare `*` (keyword-only).
func (m *Model) positionalParams(def NodeID) []NodeID {
	f := m.File
	var out []NodeID
	first := true
	f.Children(f.Field(def, FieldParameters), func(c NodeID) bool {
		name := c
		switch f.Kind(c) {
		case KindDefaultParameter, KindTypedDefaultParameter:
			name = f.Field(c, FieldName)
		case KindTypedParameter:
			name = f.FirstChild(c)
		case KindIdentifier:
		case KindListSplatPattern, KindDictionarySplatPattern:
			return false
		default:
			return !f.TextIs(c, "*") // `*` starts the keyword-only parameters; `/` ends the positional-only ones
		}
		if first && m.EnclosingClass(def) != NoNode && (f.TextIs(name, "self") || f.TextIs(name, "cls")) {
			first = false
			return true
		}
		first = false
		out = append(out, name)
		return true
	})
	return out
}

// argFeedsResult reports whether a call of a local function passes a
// value with a graph as a parameter whose graph the result keeps.
func (m *Model) argFeedsResult(call, def NodeID) bool {
	return m.argsFeed(call, m.GraphParams(def))
}

// argsFeed reports whether a call passes a value with a graph as one of
// the positional parameters params.
func (m *Model) argsFeed(call NodeID, params []int) bool {
	args := m.Args(call)
	for _, i := range params {
		if i < len(args) && m.argFeeds(args[i]) {
			return true
		}
	}
	return false
}

// argFeeds reports whether an argument passes a value with a graph (a
// `*args` splat passes none that a parameter index names).
func (m *Model) argFeeds(a NodeID) bool {
	return m.File.Kind(a) != KindListSplat && m.carry(a) == carryYes
}

// inheritedSelfAttr finds the value last assigned to the `self.x` key in
// the nearest base class of this file that assigns it (a loss function
// set in a base class's __init__), or NoNode.
func (m *Model) inheritedSelfAttr(class NodeID, key string) NodeID {
	return m.nearestBase(class, func(base NodeID) NodeID {
		if v, ok := m.selfAttrs(base).last[key]; ok {
			return v
		}
		return NoNode
	})
}

// nearestBase visits the base classes of class defined in this file,
// nearest first (breadth-first, each once), and returns the first
// answer of find that is not NoNode.
func (m *Model) nearestBase(class NodeID, find func(base NodeID) NodeID) NodeID {
	seen := map[NodeID]bool{class: true}
	queue := []NodeID{class}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, b := range m.ClassBases(c) {
			b = m.File.Unparen(b)
			if m.File.Kind(b) != KindIdentifier {
				continue
			}
			cb := m.Resolve(b)
			if cb == nil || cb.Kind != BindClass || seen[cb.Stmt] {
				continue
			}
			seen[cb.Stmt] = true
			if v := find(cb.Stmt); v != NoNode {
				return v
			}
			queue = append(queue, cb.Stmt)
		}
	}
	return NoNode
}

// ContainerBackpropagated reports whether a container that code at `at`
// adds to (a list, a dictionary, `self.outputs`) is back-propagated by a
// backward call of fn: for a name, one of the bindings that reach `at`
// is one a backward runs through (`torch.stack(losses).sum().backward()`);
// a name re-bound elsewhere, or an element stored beside a
// back-propagated one, is not.
func (m *Model) ContainerBackpropagated(fn, at, base NodeID) bool {
	f := m.File
	base = f.Unparen(base)
	r := m.backpropReach(fn)
	if f.Kind(base) == KindIdentifier {
		b := m.ResolveName(f.Text(base), m.scopeOf[base], f.N(at).Start)
		if b == nil {
			return false
		}
		if r.binds[b] {
			return true
		}
		for _, o := range m.backEdgeBindings(f.Text(base), b.Scope, at, nil, nil) {
			if r.binds[o] {
				return true
			}
		}
		return false
	}
	return m.BackpropKeys(fn, fn)[f.Text(base)] || r.keys[compactText(f, base)]
}

// DetachedElements reports whether the name use holds a container
// whose only sign of a graph is an element that a backward call runs
// through (`out["loss"].backward()`, where out comes from a method this
// file cannot see), and that element was replaced by a value without a
// graph (`out["loss"] = out["loss"].detach()`) before use.
func (m *Model) DetachedElements(use NodeID) bool {
	f := m.File
	use = f.Unparen(use)
	if f.Kind(use) != KindIdentifier {
		return false
	}
	b := m.Resolve(use)
	if b == nil || b.Kind != BindAssign || b.Unpacked {
		return false
	}
	v := f.Unparen(b.Value)
	if f.Kind(v) != KindCall || m.IsForwardCall(v) || m.IsLossCall(v) || m.LocalCallee(v) != NoNode ||
		strings.HasPrefix(m.CallName(v), "torch.") {
		return false
	}
	if o := m.lookup(m.calleeRef(v), WantReturns); o != nil && o.ReturnsGraph {
		return false
	}
	// The elements back-propagated, and any other use of the whole.
	name := f.Text(use)
	fn := m.ScopeNode(use)
	elems := map[string]bool{}
	whole := false
	for i := range f.Nodes {
		id := NodeID(i)
		if f.Nodes[i].Kind != KindCall || m.ScopeNode(id) != fn {
			continue
		}
		t := m.backpropTarget(id)
		if t == NoNode {
			continue
		}
		t = f.Unparen(t)
		for f.Kind(t) == KindCall && graphPreserving[m.MethodName(t)] {
			t = f.Unparen(m.Receiver(t))
		}
		switch {
		case f.Kind(t) == KindSubscript && f.TextIs(f.Field(t, FieldValue), name) && literalIndex(f, t):
			if m.Resolve(f.Field(t, FieldValue)) == b {
				elems[compactText(f, t)] = true
			}
		case f.Kind(t) == KindIdentifier && f.TextIs(t, name):
			whole = whole || m.Resolve(t) == b
		}
	}
	if whole || len(elems) == 0 {
		return false
	}
	// Each replaced after the binding, before the use, in the same block.
	block := f.Parent(b.Stmt)
	for f.Kind(block) == KindExpressionStatement {
		block = f.Parent(block)
	}
	for i := range f.Nodes {
		id := NodeID(i)
		if f.Nodes[i].Kind != KindAssignment || f.N(id).Start < f.N(b.Stmt).End || f.N(id).End > f.N(use).Start {
			continue
		}
		left := f.Field(id, FieldLeft)
		if k := compactText(f, left); elems[k] && f.Kind(left) == KindSubscript && f.Parent(f.Parent(id)) == block &&
			!m.CarriesGraph(f.Field(id, FieldRight)) {
			delete(elems, k)
		}
	}
	return len(elems) == 0
}

// literalIndex reports whether a subscript's index is a string or number.
func literalIndex(f *File, sub NodeID) bool {
	switch f.Kind(f.Unparen(f.Field(sub, FieldSubscript))) {
	case KindString, KindInteger:
		return true
	}
	return false
}
