package analyzer

import (
	"slices"
	"sort"
	"strings"
)

// ScopeKind says what introduced a scope.
type ScopeKind uint8

// The kinds of scope Python has.
const (
	ScopeModule ScopeKind = iota
	ScopeClass
	ScopeFunction
	ScopeLambda
	ScopeComprehension
)

// ScopeID indexes Model.Scopes.
type ScopeID int32

// BindingKind says how a name was bound.
type BindingKind uint8

// The ways a name is bound.
const (
	BindImport BindingKind = iota
	BindFunction
	BindClass
	BindAssign
	BindAugAssign
	BindParam
	BindLoopTarget
	BindWithTarget
	BindOther
)

// Binding is one place where a name is bound in a scope.
type Binding struct {
	Kind      BindingKind
	Name      NodeID // the identifier bound (for imports, the node naming it)
	Stmt      NodeID // the statement, definition or clause that binds it
	Value     NodeID // the value assigned (assignments, loop and with targets)
	Unpacked  bool   // the name is one element of an unpacked Value
	Index     int    // its position in a flat unpacking (`a, b = v`): 0, 1, ... from the start, -2, -3, ... from the end after a starred target; else -1
	next      int32  // the next binding of the same name in the same scope
	Qualified string // imports: the qualified name bound
	Scope     ScopeID
}

// Scope is a module, class, function, lambda or comprehension scope.
type Scope struct {
	Kind    ScopeKind
	Node    NodeID // the module, definition, lambda or comprehension
	Parent  ScopeID
	globals map[string]bool
}

// bindKey names the bindings of one name in one scope.
type bindKey struct {
	scope ScopeID
	name  string
}

// bindChain locates the bindings of a key in Model.binds: they are linked
// in source order through Binding.next.
type bindChain struct{ first, last int32 }

// lastBinding returns the last binding of name in scope s, or nil.
func (m *Model) lastBinding(s ScopeID, name string) *Binding {
	if c, ok := m.bindIndex[bindKey{s, name}]; ok {
		return &m.binds[c.last]
	}
	return nil
}

func (m *Model) addBinding(s ScopeID, name string, b Binding) {
	b.next = -1
	b.Scope = s
	i := int32(len(m.binds))
	m.binds = append(m.binds, b)
	k := bindKey{s, name}
	if c, ok := m.bindIndex[k]; ok {
		m.binds[c.last].next = i
		m.bindIndex[k] = bindChain{c.first, i}
		return
	}
	m.bindIndex[k] = bindChain{i, i}
}

// buildScopes assigns a scope to every node and records the bindings of
// each scope, in one pass over the pre-ordered nodes.
func (m *Model) buildScopes() {
	f := m.File
	m.Scopes = append(m.Scopes[:0], Scope{Kind: ScopeModule, Node: Root, Parent: -1})
	m.scopeOf = make([]ScopeID, len(f.Nodes))
	m.binds = make([]Binding, 0, len(f.Nodes)/12+16) // about one binding in 13 nodes on real code
	m.bindIndex = make(map[bindKey]bindChain, len(f.Nodes)/64)
	m.defScope = make(map[NodeID]ScopeID)
	for i := 1; i < len(f.Nodes); i++ {
		id := NodeID(i)
		n := &f.Nodes[i]
		p := n.Parent
		s := m.scopeOf[p]
		if inner, ok := m.defScope[p]; ok && m.opensScope(p, n) {
			s = inner
		}
		if m.evaluatedOutside(p, n) {
			// Error recovery can leave a parameter outside any
			// parameter list, with no function around it.
			if o := m.outerOf(p); o >= 0 {
				s = m.scopeOf[o]
			}
		}
		m.scopeOf[i] = s
		switch n.Kind {
		case KindFunctionDefinition, KindLambda, KindClassDefinition,
			KindListComprehension, KindSetComprehension, KindDictionaryComprehension, KindGeneratorExpression:
			k := ScopeComprehension
			switch n.Kind {
			case KindFunctionDefinition:
				k = ScopeFunction
			case KindLambda:
				k = ScopeLambda
			case KindClassDefinition:
				k = ScopeClass
			}
			m.Scopes = append(m.Scopes, Scope{Kind: k, Node: id, Parent: s})
			m.defScope[id] = ScopeID(len(m.Scopes) - 1)
			if n.Kind == KindFunctionDefinition || n.Kind == KindClassDefinition {
				if name := f.Field(id, FieldName); name != NoNode {
					bk := BindFunction
					if n.Kind == KindClassDefinition {
						bk = BindClass
					}
					m.bind(s, name, Binding{Kind: bk, Stmt: id, Value: NoNode, Index: -1})
				}
			}
		case KindImportStatement:
			m.bindImport(s, id)
		case KindImportFromStatement:
			m.bindImportFrom(s, id)
		case KindAssignment:
			value := f.Field(id, FieldRight)
			for f.Kind(value) == KindAssignment {
				value = f.Field(value, FieldRight)
			}
			m.bindTargets(s, f.Field(id, FieldLeft), Binding{Kind: BindAssign, Stmt: id, Value: value})
		case KindAugmentedAssignment:
			m.bindTargets(s, f.Field(id, FieldLeft), Binding{Kind: BindAugAssign, Stmt: id, Value: f.Field(id, FieldRight)})
		case KindNamedExpression:
			// The walrus binds in the enclosing non-comprehension scope.
			t := s
			for m.Scopes[t].Kind == ScopeComprehension {
				t = m.Scopes[t].Parent
			}
			m.bindTargets(t, f.Field(id, FieldName), Binding{Kind: BindAssign, Stmt: id, Value: f.Field(id, FieldValue)})
		case KindForStatement:
			m.bindTargets(s, f.Field(id, FieldLeft), Binding{Kind: BindLoopTarget, Stmt: id, Value: f.Field(id, FieldRight), Unpacked: true})
		case KindForInClause:
			m.bindTargets(s, f.Field(id, FieldLeft), Binding{Kind: BindLoopTarget, Stmt: id, Value: f.Field(id, FieldRight), Unpacked: true})
		case KindAsPattern:
			if f.Kind(p) == KindWithItem {
				target := f.Field(id, FieldAlias)
				m.bindTargets(s, f.FirstChild(target), Binding{Kind: BindWithTarget, Stmt: id, Value: f.FirstChild(id)})
			}
		case KindParameters, KindLambdaParameters:
			m.bindParams(m.scopeOf[i], id)
		case KindGlobalStatement, KindNonlocalStatement:
			if n.Kind == KindGlobalStatement {
				sc := &m.Scopes[s]
				f.Children(id, func(c NodeID) bool {
					if f.Kind(c) == KindIdentifier {
						if sc.globals == nil {
							sc.globals = map[string]bool{}
						}
						sc.globals[f.Text(c)] = true
					}
					return true
				})
			}
		}
	}
}

// evaluatedOutside reports whether child n of p is evaluated in the scope
// around the function or comprehension that contains it: a parameter's
// default value or annotation, or a comprehension's first iterable.
func (m *Model) evaluatedOutside(p NodeID, n *Node) bool {
	f := m.File
	switch f.Kind(p) {
	case KindDefaultParameter, KindTypedDefaultParameter:
		return n.Field == FieldValue || n.Field == FieldType
	case KindTypedParameter:
		return n.Field == FieldType
	case KindForInClause:
		if n.Field != FieldRight {
			return false
		}
		comp := f.Parent(p)
		first := NoNode
		f.Children(comp, func(c NodeID) bool {
			if f.Kind(c) == KindForInClause {
				first = c
				return false
			}
			return true
		})
		return first == p
	}
	return false
}

// outerOf returns the node whose scope holds what evaluatedOutside
// describes: the function or lambda owning a parameter, or the
// comprehension owning a for clause (each is itself in the outer scope).
func (m *Model) outerOf(p NodeID) NodeID {
	f := m.File
	if f.Kind(p) == KindForInClause {
		return f.Parent(p)
	}
	// parameter → parameters → function_definition or lambda
	return f.Parent(f.Parent(p))
}

// opensScope reports whether child n of the scope-defining node p lies
// inside p's own scope (its body and parameters) rather than the
// enclosing one (its name, decorators, defaults and bases).
func (m *Model) opensScope(p NodeID, n *Node) bool {
	switch m.File.Nodes[p].Kind {
	case KindFunctionDefinition, KindLambda:
		return n.Field == FieldBody || n.Field == FieldParameters
	case KindClassDefinition:
		return n.Field == FieldBody
	}
	return true
}

func (m *Model) bind(s ScopeID, name NodeID, b Binding) {
	b.Name = name
	m.addBinding(s, m.File.Name(name), b)
}

// bindTargets binds every name in an assignment target.
func (m *Model) bindTargets(s ScopeID, target NodeID, b Binding) {
	m.bindTargetsAt(s, target, b, true)
}

// bindTargetsAt binds the names of target; top says whether target is the
// whole left-hand side, so that `a, b = v` records each name's position.
func (m *Model) bindTargetsAt(s ScopeID, target NodeID, b Binding, top bool) {
	f := m.File
	if top {
		b.Index = -1
	}
	switch f.Kind(target) {
	case KindIdentifier:
		m.bind(s, target, b)
	case KindParenthesizedExpression:
		m.bindTargetsAt(s, f.FirstChild(target), b, top)
	case KindPatternList, KindTuplePattern, KindListPattern, KindExpressionList, KindTuple, KindList:
		if values := parallelValues(f, target, b); values != nil {
			// `recon, mu = out[0], out[1]`: each name is bound to its own
			// value, as if assigned one by one.
			for i, c := range f.ChildList(target) {
				eb := b
				eb.Value = values[i]
				m.bindTargetsAt(s, c, eb, true)
			}
			return
		}
		b.Unpacked = true
		elems := f.ChildList(target)
		star := -1
		for i, c := range elems {
			if k := f.Kind(c); k == KindListSplatPattern || k == KindListSplat {
				star = i
			}
		}
		for i, c := range elems {
			eb := b
			eb.Index = -1
			if top && f.Kind(c) == KindIdentifier {
				switch {
				case star < 0 || i < star:
					eb.Index = i
				case i > star:
					eb.Index = i - len(elems) - 1 // from the end: the last is -2
				}
			}
			m.bindTargetsAt(s, c, eb, false)
		}
	case KindListSplatPattern, KindListSplat:
		b.Unpacked = true
		b.Index = -1
		m.bindTargetsAt(s, f.FirstChild(target), b, false)
	}
}

// parallelValues returns the values an assignment of b gives, one for
// each element of its target, where its value is a tuple of as many
// (`a, b = x, y`) and neither side has a starred element; else nil.
func parallelValues(f *File, target NodeID, b Binding) []NodeID {
	if b.Kind != BindAssign || b.Unpacked || b.Value == NoNode {
		return nil
	}
	v := f.Unparen(b.Value)
	if k := f.Kind(v); k != KindExpressionList && k != KindTuple {
		return nil
	}
	elems, values := f.ChildList(target), f.ChildList(v)
	if len(elems) != len(values) || len(elems) == 0 {
		return nil
	}
	for i := range elems {
		if k := f.Kind(elems[i]); k == KindListSplatPattern || k == KindListSplat {
			return nil
		}
		if f.Kind(values[i]) == KindListSplat {
			return nil
		}
	}
	return values
}

func (m *Model) bindParams(s ScopeID, params NodeID) {
	f := m.File
	f.Children(params, func(c NodeID) bool {
		name := NoNode
		switch f.Kind(c) {
		case KindIdentifier:
			name = c
		case KindDefaultParameter, KindTypedDefaultParameter:
			name = f.Field(c, FieldName)
		case KindTypedParameter, KindListSplatPattern, KindDictionarySplatPattern:
			name = f.FirstChild(c)
			if f.Kind(name) == KindListSplatPattern || f.Kind(name) == KindDictionarySplatPattern {
				name = f.FirstChild(name)
			}
		}
		if f.Kind(name) == KindIdentifier {
			m.bind(s, name, Binding{Kind: BindParam, Stmt: c, Value: NoNode, Index: -1})
		}
		return true
	})
}

// bindImport handles `import a.b.c` (binds a to "a") and
// `import a.b.c as x` (binds x to "a.b.c").
func (m *Model) bindImport(s ScopeID, stmt NodeID) {
	f := m.File
	f.Children(stmt, func(c NodeID) bool {
		switch f.Kind(c) {
		case KindDottedName:
			first := f.FirstChild(c)
			m.bind(s, first, Binding{Index: -1, Kind: BindImport, Stmt: stmt, Value: NoNode, Qualified: f.Text(first)})
		case KindAliasedImport:
			name, alias := f.Field(c, FieldName), f.Field(c, FieldAlias)
			if alias != NoNode {
				m.bind(s, alias, Binding{Index: -1, Kind: BindImport, Stmt: stmt, Value: NoNode, Qualified: dotted(f, name)})
			}
		}
		return true
	})
}

// bindImportFrom handles `from a.b import c [as d]`; relative imports bind
// names qualified with their leading dots, which never match a library.
func (m *Model) bindImportFrom(s ScopeID, stmt NodeID) {
	f := m.File
	mod := f.Field(stmt, FieldModuleName)
	prefix := dotted(f, mod)
	f.Children(stmt, func(c NodeID) bool {
		if c == mod || f.N(c).Field != FieldName {
			return true
		}
		switch f.Kind(c) {
		case KindDottedName:
			m.bind(s, f.FirstChild(c), Binding{Index: -1, Kind: BindImport, Stmt: stmt, Value: NoNode, Qualified: prefix + "." + dotted(f, c)})
		case KindAliasedImport:
			name, alias := f.Field(c, FieldName), f.Field(c, FieldAlias)
			if alias != NoNode {
				m.bind(s, alias, Binding{Index: -1, Kind: BindImport, Stmt: stmt, Value: NoNode, Qualified: prefix + "." + dotted(f, name)})
			}
		}
		return true
	})
}

// dotted returns a dotted name's text without whitespace or comments.
func dotted(f *File, id NodeID) string {
	if f.Kind(id) == KindRelativeImport {
		return strings.Join(strings.Fields(f.Text(id)), "")
	}
	var parts []string
	f.Children(id, func(c NodeID) bool {
		if f.Kind(c) == KindIdentifier {
			parts = append(parts, f.Text(c))
		}
		return true
	})
	if len(parts) == 0 {
		return f.Text(id)
	}
	return strings.Join(parts, ".")
}

// Resolve returns the binding that the identifier use refers to, or nil
// for a builtin or an unbound name. Within the use's own scope the last
// binding before the use wins; in an enclosing scope (which has run to
// completion by the time a function body runs) the last binding wins.
func (m *Model) Resolve(use NodeID) *Binding {
	f := m.File
	if f.Kind(use) != KindIdentifier {
		return nil
	}
	// Rules ask it of the same names again and again.
	if m.resolved == nil {
		m.resolved = make([]int32, len(f.Nodes))
	}
	switch r := m.resolved[use]; {
	case r > 0:
		return &m.binds[r-1]
	case r < 0:
		return nil
	}
	// resolveName keeps nothing of the name: a view of the source serves.
	i := m.resolveName(f.view(use), m.scopeOf[use], f.N(use).Start)
	if i < 0 {
		m.resolved[use] = -1
		return nil
	}
	m.resolved[use] = i + 1
	return &m.binds[i]
}

// ResolveName resolves name as if used at byte offset pos in scope s.
func (m *Model) ResolveName(name string, s ScopeID, pos uint32) *Binding {
	if i := m.resolveName(name, s, pos); i >= 0 {
		return &m.binds[i]
	}
	return nil
}

// resolveName is ResolveName as an index into m.binds, -1 for none.
func (m *Model) resolveName(name string, s ScopeID, pos uint32) int32 {
	own := s
	// A comprehension runs where it is written: a name it reads from the
	// scopes around it has the value bound there at that point, not the
	// last one, as a function or lambda called later would see.
	immediate := true
	for s >= 0 {
		sc := &m.Scopes[s]
		if s != 0 && sc.globals[name] {
			// `global name`: the function's own assignments of it (kept
			// in its scope) reach its later uses, in order; before the
			// first, the name is the module's.
			if s == own {
				if c, ok := m.bindIndex[bindKey{s, name}]; ok {
					if i := m.lastBindingBefore(bindKey{s, name}, c, pos); i >= 0 {
						return i
					}
				}
			}
			s = 0
			continue
		}
		if s != own && sc.Kind == ScopeClass {
			s = sc.Parent
			continue
		}
		if c, ok := m.bindIndex[bindKey{s, name}]; ok {
			if s == own || immediate {
				if i := m.lastBindingBefore(bindKey{s, name}, c, pos); i >= 0 {
					return i
				}
			}
			return c.last
		}
		immediate = immediate && sc.Kind == ScopeComprehension
		s = sc.Parent
	}
	return -1
}

// longChain is the number of bindings of one name in one scope above
// which lookups use a sorted index instead of walking the chain.
const longChain = 16

// lastBindingBefore returns the binding of key in effect at pos: the last
// one whose position precedes pos, as an index into m.binds, or -1.
func (m *Model) lastBindingBefore(key bindKey, c bindChain, pos uint32) int32 {
	if idx := m.sortedChain(key, c); idx != nil {
		n := m.searchChain(idx, pos)
		if n == 0 {
			return -1
		}
		return idx[n-1]
	}
	pick := int32(-1)
	for i := c.first; i >= 0; i = m.binds[i].next {
		if m.bindingPos(&m.binds[i]) < pos {
			pick = i
		}
	}
	return pick
}

// sortedChain returns the bindings of a long chain (or of one indexed
// already), as indices into m.binds sorted by position, ties in the
// chain's order; nil for a short chain, which is walked instead.
func (m *Model) sortedChain(key bindKey, c bindChain) []int32 {
	idx, ok := m.chainIndex[key]
	if ok || m.chainLen(c) <= longChain {
		return idx
	}
	for i := c.first; i >= 0; i = m.binds[i].next {
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return m.bindingPos(&m.binds[idx[a]]) < m.bindingPos(&m.binds[idx[b]]) })
	if m.chainIndex == nil {
		m.chainIndex = make(map[bindKey][]int32)
	}
	m.chainIndex[key] = idx
	return idx
}

// searchChain returns how many bindings of a sorted chain come before
// pos.
func (m *Model) searchChain(idx []int32, pos uint32) int {
	return sort.Search(len(idx), func(i int) bool { return m.bindingPos(&m.binds[idx[i]]) >= pos })
}

// chainLen counts the bindings in a chain, stopping past longChain.
func (m *Model) chainLen(c bindChain) int {
	n := 0
	for i := c.first; i >= 0 && n <= longChain; i = m.binds[i].next {
		n++
	}
	return n
}

// AssignedValue returns the value a name was bound to by a plain
// assignment (`x = value`), or NoNode when id is not such a name.
func (m *Model) AssignedValue(id NodeID) NodeID {
	if b := m.Resolve(id); b != nil && b.Kind == BindAssign && !b.Unpacked {
		return b.Value
	}
	return NoNode
}

// bindingPos is the offset from which a binding is in effect: the end of
// an assignment (so `x = x + 1` reads the old x), the start of a
// definition's name.
func (m *Model) bindingPos(b *Binding) uint32 {
	f := m.File
	switch b.Kind {
	case BindAssign, BindAugAssign, BindImport:
		return f.N(b.Stmt).End
	case BindLoopTarget:
		// `for x in x:` reads the old x in its iterable.
		return max(f.N(b.Name).End, f.N(b.Value).End)
	case BindWithTarget:
		return f.N(b.Name).End
	case BindClass, BindFunction:
		// `class Linear(Linear):` names the old Linear in its bases.
		if n := f.N(b.Stmt); n.Kind == KindClassDefinition {
			if body := f.Field(b.Stmt, FieldBody); body != NoNode {
				return f.N(body).Start
			}
		}
		return f.N(b.Name).Start
	}
	return f.N(b.Name).Start
}

// UsesOf returns the identifiers that read the binding an assignment
// target names (`out` in `out = model(x)`), in source order: the names in
// its scope and the scopes nested in it that resolve to that binding,
// less the targets of later plain assignments, which bind the name anew,
// and attribute names (`obj.out`).
func (m *Model) UsesOf(target NodeID) []NodeID {
	f := m.File
	if f.Kind(target) != KindIdentifier {
		return nil
	}
	name := f.Text(target)
	var uses []NodeID
	f.Walk(m.ScopeNode(target), func(id NodeID) {
		if id == target || f.Kind(id) != KindIdentifier || !f.TextIs(id, name) || rebinds(f, id) {
			return
		}
		if p := f.Parent(id); f.Kind(p) == KindAttribute && f.Field(p, FieldAttribute) == id {
			return
		}
		if b := m.Resolve(id); b != nil && b.Name == target {
			uses = append(uses, id)
		}
	})
	return uses
}

// ReachedUsesOf is UsesOf with every use that target's binding may
// reach after it, not only those it is the last binding before: a use
// after an `if` that binds the name again on one path (`if flag: x =
// x.long()`, then `return x`) is one of x's first binding too; so is a
// use before it in a loop around both, which the next iteration reaches
// where nothing binds the name again on the way.
func (m *Model) ReachedUsesOf(target NodeID) []NodeID {
	f := m.File
	if f.Kind(target) != KindIdentifier {
		return nil
	}
	name, from := f.Text(target), f.N(target).End
	if _, c, ok := m.bindingsOf(target); ok {
		for i := c.first; i >= 0; i = m.binds[i].next {
			if b := &m.binds[i]; b.Name == target {
				from = max(from, m.bindingPos(b)) // `x = x.view(...)` reads the old x
			}
		}
	}
	loop := m.EnclosingLoop(target)
	body := NoNode
	if loop != NoNode && m.ScopeNode(loop) == m.ScopeNode(target) {
		body = f.Field(loop, FieldBody)
	}
	// The uses UsesOf gives come first, those other paths reach after.
	var uses, more []NodeID
	for _, id := range m.namesIn(m.ScopeNode(target))[name] {
		if id == target || rebinds(f, id) || paramName(f, id) {
			continue // a parameter's own name in the signature is no use of it
		}
		if p := f.Parent(id); f.Kind(p) == KindAttribute && f.Field(p, FieldAttribute) == id {
			continue
		}
		if b := m.Resolve(id); b != nil && b.Name == target {
			uses = append(uses, id)
			continue
		}
		// A use before the binding is reached only by the loop's next
		// iteration, and only if nothing binds the name again on the
		// way (`z = Q(x)` at the end of the body, `P(z)` at its start).
		before := f.N(id).Start < from
		if before && (body == NoNode || !f.Contains(loop, id)) {
			continue
		}
		reaching := m.ReachingBindings(id)
		for _, b := range reaching {
			if b.Name != target || killed(m, b, reaching, id) {
				continue
			}
			if before && slices.ContainsFunc(reaching, func(o *Binding) bool {
				return o != b && m.bindingPos(o) < f.N(id).Start && f.Contains(body, o.Stmt) && f.Unconditional(o.Stmt, commonAncestor(f, o.Stmt, id))
			}) {
				continue
			}
			more = append(more, id)
			break
		}
	}
	return append(uses, more...)
}

type namesInKey struct{ scope NodeID }

// namesIn returns the identifiers under scope (its nested scopes'
// too), by name, in the order of the tree: one walk of a function
// serves the question of each of its names' uses.
func (m *Model) namesIn(scope NodeID) map[string][]NodeID {
	return m.Memo(namesInKey{scope}, func() any {
		f := m.File
		names := map[string][]NodeID{}
		f.Walk(scope, func(id NodeID) {
			if f.Kind(id) == KindIdentifier {
				name := f.view(id)
				names[name] = append(names[name], id)
			}
		})
		return names
	}).(map[string][]NodeID)
}

// killed reports whether another of the bindings that may reach use
// binds the name again after b, on every path on from b: in a block
// that holds b, at a statement that runs whenever b's does
// (`actions, _ = net(s)` then `actions = list(actions)`, in one branch).
// Where b comes before use, only a binding between them does: one after
// use (`out = out[:, -n:]`, which reads b first, or the loop's later
// statements) reaches use by the next iteration alone.
func killed(m *Model, b *Binding, reaching []*Binding, use NodeID) bool {
	f := m.File
	at := f.N(use).Start
	before := m.bindingPos(b) < at
	for _, o := range reaching {
		if o == b || m.bindingPos(o) <= m.bindingPos(b) || before && m.bindingPos(o) >= at {
			continue
		}
		if f.Unconditional(o.Stmt, commonAncestor(f, o.Stmt, b.Stmt)) {
			return true
		}
	}
	return false
}

// paramName reports whether identifier id names a parameter in a
// function's signature.
func paramName(f *File, id NodeID) bool {
	switch p := f.Parent(id); f.Kind(p) {
	case KindParameters, KindLambdaParameters:
		return true
	case KindDefaultParameter, KindTypedDefaultParameter:
		return f.Field(p, FieldName) == id
	case KindTypedParameter:
		return f.FirstChild(p) == id
	}
	return false
}

// rebinds reports whether identifier id is the target of a plain
// assignment or of a for loop, which binds the name anew rather than
// reading it.
func rebinds(f *File, id NodeID) bool {
	p := f.Parent(id)
	for f.Kind(p) == KindPatternList || f.Kind(p) == KindTuplePattern {
		p = f.Parent(p)
	}
	switch f.Kind(p) {
	case KindAssignment, KindForStatement, KindForInClause:
		// `x = ...`, and a loop's target (`for i, (x, _) in ...`).
		return f.Contains(f.Field(p, FieldLeft), id)
	}
	return false
}
