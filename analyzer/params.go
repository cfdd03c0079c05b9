package analyzer

// What the calls of a function of this file pass for its parameters: a
// parameter known by no annotation (`def train(model, criterion)`) is
// known by the values its callers give it, where the file shows them all.

// paramFunction returns the function definition whose parameter list
// binds b, a parameter's binding; NoNode for a lambda's.
func (m *Model) paramFunction(b *Binding) NodeID {
	f := m.File
	def := f.Parent(f.Parent(b.Stmt))
	if f.Kind(def) != KindFunctionDefinition || f.Parent(b.Stmt) != f.Field(def, FieldParameters) {
		return NoNode
	}
	return def
}

// ParamValues returns, for a name that refers to a parameter of a
// function of this file, what every call of that function in the file
// passes for it: the argument given by position or by keyword, else the
// parameter's default. The calls of a method are those through self or
// an instance of its class; the calls of __init__, those of its class.
// ok is false when the file shows no call, when a call's argument is
// hidden (`f(*args)`, `f(**kw)`) or missing, or when the function (or
// the class) is used other than by calling it, so that calls the file
// cannot see may give it something else. Calls in other files are not
// seen: what this file passes is one use of the function.
func (m *Model) ParamValues(use NodeID) (vals []NodeID, ok bool) {
	f := m.File
	b := m.Resolve(use)
	if b == nil || b.Kind != BindParam {
		return nil, false
	}
	def := m.paramFunction(b)
	if def == NoNode {
		return nil, false // a lambda's
	}
	switch f.Kind(b.Stmt) {
	case KindIdentifier, KindDefaultParameter, KindTypedParameter, KindTypedDefaultParameter:
	default:
		return nil, false // *args, **kwargs
	}
	calls, ok := m.callsOf(def)
	if !ok {
		return nil, false
	}
	name := f.Text(b.Name)
	for _, c := range calls {
		v, ok := m.argOrDefault(c, def, name)
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
	return vals, len(vals) > 0
}

// argOrDefault returns the value a call gives parameter name of function
// def: its argument, by keyword or position, or the parameter's default.
// ok is false where that is not known (a splat, no default).
func (m *Model) argOrDefault(call, def NodeID, name string) (NodeID, bool) {
	f := m.File
	pos := -1
	for i, p := range m.positionalParams(def) {
		if f.TextIs(p, name) {
			pos = i
		}
	}
	v, known := m.argFor(call, pos, name)
	if !known {
		return NoNode, false
	}
	if v != NoNode {
		return v, true
	}
	f.Children(f.Field(def, FieldParameters), func(c NodeID) bool {
		if k := f.Kind(c); (k == KindDefaultParameter || k == KindTypedDefaultParameter) && f.TextIs(f.Field(c, FieldName), name) {
			v = f.Field(c, FieldValue)
		}
		return v == NoNode
	})
	return v, v != NoNode
}

// ParamAnnotation returns the type annotation of the parameter a name
// refers to (`criterion: nn.CrossEntropyLoss`), or NoNode.
func (m *Model) ParamAnnotation(use NodeID) NodeID {
	b := m.Resolve(use)
	if b == nil || b.Kind != BindParam {
		return NoNode
	}
	return paramType(m.File, b.Stmt)
}

type callsOfKey struct{ def NodeID }

type callsOfAnswer struct {
	calls []NodeID
	ok    bool
}

// CallsOf is callsOf, for rules.
func (m *Model) CallsOf(def NodeID) ([]NodeID, bool) { return m.callsOf(def) }

// callsOf returns the calls of a function of this file other than its
// own calls of itself: for __init__, the calls of its class. ok is false
// when the function or its class is also used other than by calling it
// (a callback, a base class, `cls = Net`), or when nothing calls it.
func (m *Model) callsOf(def NodeID) ([]NodeID, bool) {
	ans := m.Memo(callsOfKey{def}, func() any {
		f := m.File
		var calls []NodeID
		if class := m.EnclosingClass(def); class != NoNode && f.TextIs(f.Field(def, FieldName), "__init__") && m.defScope[class] == m.scopeOf[def] {
			var ok bool
			if calls, ok = m.classCalls(class); !ok {
				return callsOfAnswer{}
			}
		} else {
			m.indexCalls()
			if m.escapes[def] {
				return callsOfAnswer{}
			}
			for _, c := range m.callSites[def] {
				if !f.Contains(def, c) {
					calls = append(calls, c)
				}
			}
		}
		return callsOfAnswer{calls, len(calls) > 0}
	}).(callsOfAnswer)
	return ans.calls, ans.ok
}

// classCalls returns the calls that construct a class of this file
// (`Net(...)`); ok is false when its name is used otherwise, but in an
// annotation: as a base class, whose constructor passes its own
// arguments, or handed on as a value.
func (m *Model) classCalls(class NodeID) (calls []NodeID, ok bool) {
	m.indexCalls()
	if m.classEscapes[class] {
		return nil, false
	}
	return m.classSites[class], true
}

// inAnnotation reports whether a node is part of a type annotation.
func inAnnotation(f *File, id NodeID) bool {
	for p := f.Parent(id); p != NoNode; p = f.Parent(p) {
		switch f.Kind(p) {
		case KindType:
			return true
		case KindExpressionStatement, KindCall, KindFunctionDefinition, KindClassDefinition, KindBlock:
			return false
		}
	}
	return false
}

// argFor returns the argument a call passes at position pos or by
// keyword name, NoNode when it passes none there; known is false when an
// unpacked argument (`*args`, `**kw`) may hold it.
func (m *Model) argFor(call NodeID, pos int, name string) (arg NodeID, known bool) {
	f := m.File
	arg, known = NoNode, true
	i, splat := 0, false
	f.Children(f.Field(call, FieldArguments), func(a NodeID) bool {
		switch f.Kind(a) {
		case KindKeywordArgument:
			if f.TextIs(f.Field(a, FieldName), name) {
				arg = f.Field(a, FieldValue)
			}
		case KindListSplat:
			if pos >= i && !splat {
				known = false
			}
			splat = true
		case KindDictionarySplat:
			known = false
		default:
			if !splat && pos >= 0 && i == pos {
				arg = a
			}
			i++
		}
		return true
	})
	if arg != NoNode {
		return arg, true
	}
	return NoNode, known
}
