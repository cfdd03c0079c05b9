package analyzer

import "strings"

// The less direct ways a value comes from an activation (see
// ActivationOf): a model calling itself, a model or module handed in as
// a parameter, one element of a returned tuple, and the probabilities of
// a distribution built from logits.

// selfCallTarget resolves `self(x)` and `self.__call__(x)` in a method of
// a class to what the call runs: the class's own __call__ where it
// defines one, else, for an nn.Module, its forward, defined in this file
// (def) or by a base class that another file of the project may define
// (ref). NoNode and "" for any other call.
func (m *Model) selfCallTarget(call NodeID) (def NodeID, ref string) {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	isCall := f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldObject), "self") &&
		f.TextIs(f.Field(fn, FieldAttribute), "__call__")
	if !f.TextIs(fn, "self") && !isCall {
		return NoNode, ""
	}
	class := m.EnclosingClass(call)
	if class == NoNode {
		return NoNode, ""
	}
	if def := m.selfMethod(class, "__call__"); def != NoNode {
		return def, ""
	}
	if !m.IsModuleClass(class) {
		return NoNode, ""
	}
	if def := m.selfMethod(class, "forward"); def != NoNode {
		return def, ""
	}
	return NoNode, m.inheritedMethodRef(class, "forward")
}

// exportedActivation is returnsActivation for the file's summary: what
// other files are told a function returns must hold for what they pass
// it, so a parameter is not known there by what this file's calls pass.
func (m *Model) exportedActivation(def NodeID) (Activation, *Site) {
	m.exporting = true
	defer func() { m.exporting = false }()
	return m.returnsActivation(def, 0)
}

// defActivation reports the activation every return of a function
// returns: def, of this file, or the function another file of the
// project defines as ref.
func (m *Model) defActivation(def NodeID, ref string, depth int) (Activation, *Site) {
	if def != NoNode {
		a, at := m.returnsActivation(def, depth+1)
		if at != nil && at.Path == "" {
			at = m.localSite(at)
		}
		return a, at
	}
	if ref == "" || strings.HasPrefix(ref, "#") {
		return NoActivation, nil
	}
	if o := m.lookup(ref, WantActivation); o != nil && o.Activation != NoActivation {
		return o.Activation, o.ActivationAt
	}
	return NoActivation, nil
}

// instanceActivation reports the activation calling an instance of class
// returns: that of its forward, in this file or another of the project.
func (m *Model) instanceActivation(class NodeID, depth int) (Activation, *Site) {
	f := m.File
	if f.Kind(class) == KindIdentifier {
		if cb := m.Resolve(class); cb != nil && cb.Kind == BindClass {
			return m.defActivation(m.MethodOf(cb.Stmt, "forward"), "", depth)
		}
	}
	if q := m.QualifiedName(class); q != "" && !isLibraryName(q) {
		return m.defActivation(NoNode, q+".forward", depth)
	}
	return NoActivation, nil
}

// paramSource returns the parameter a callee stands for: the callee
// itself, a name bound to the parameter moved or cast (`net =
// model.to(device)`), or an attribute of self assigned it once
// (`self.model = model` in __init__). NoNode when it stands for none.
func (m *Model) paramSource(callee NodeID) NodeID {
	f := m.File
	for range 4 {
		callee = f.Unparen(callee)
		for moduleSelfMethods[m.MethodName(callee)] {
			callee = f.Unparen(m.Receiver(callee)) // `model.to(device)`: the same module
		}
		switch f.Kind(callee) {
		case KindIdentifier:
			b := m.Resolve(callee)
			if b == nil {
				return NoNode
			}
			if b.Kind == BindParam {
				return callee
			}
			if b.Kind != BindAssign || b.Unpacked || b.Value == NoNode {
				return NoNode
			}
			callee = b.Value
		case KindAttribute:
			if !f.TextIs(f.Field(callee, FieldObject), "self") {
				return NoNode
			}
			callee = m.SelfAttrOnce(callee)
		default:
			return NoNode
		}
	}
	return NoNode
}

// paramCallActivation reports the activation a call of a parameter
// returns (`model(x)` in `def train(model, loader)`): that of calling
// what every call of its function in this file passes for it, where
// they all agree (ParamValues).
func (m *Model) paramCallActivation(callee NodeID, depth int) (Activation, *Site) {
	p := m.paramSource(callee)
	if p == NoNode || depth > 8 || m.exporting {
		return NoActivation, nil
	}
	vals, ok := m.ParamValues(p)
	if !ok {
		return NoActivation, nil
	}
	var a Activation
	var at *Site
	for _, v := range vals {
		va, vat := m.calledActivation(v, depth+1)
		if va == NoActivation || a != NoActivation && va != a {
			return NoActivation, nil
		}
		if a == NoActivation {
			a, at = va, vat
		}
	}
	return a, at
}

// calledActivation reports the activation calling a value returns: an
// activation module (an nn.Softmax, an nn.Sequential ending in one), an
// instance of a model class whose forward returns one, or a parameter
// given such values.
func (m *Model) calledActivation(v NodeID, depth int) (Activation, *Site) {
	f := m.File
	v = f.Unparen(v)
	if a := m.activationModule(v, 0); a != NoActivation {
		return a, m.site(v)
	}
	var class NodeID
	if f.Kind(v) == KindCall {
		class = m.madeBy(constructed(f, v), 0)
	} else {
		class = m.receiverClass(v)
	}
	if class != NoNode {
		if a, at := m.instanceActivation(class, depth); a != NoActivation {
			return a, at
		}
	}
	return m.paramCallActivation(v, depth)
}

// elementActivation reports the activation of the element at index (a
// Binding.Index) of a value unpacked into names: of a tuple written out
// (`probs, y = F.softmax(z, 1), t`), or of the tuple every return of the
// function a call runs builds (`return logits, probs`), also through a
// name bound to either.
func (m *Model) elementActivation(v NodeID, index, depth int) (Activation, *Site) {
	f := m.File
	v = f.Unparen(v)
	if depth > 8 {
		return NoActivation, nil
	}
	switch f.Kind(v) {
	case KindIdentifier:
		// `out = self.policy(s)`, then `logits, probs = out`.
		b := m.Resolve(v)
		if b == nil || b.Kind != BindAssign || b.Unpacked || b.Value == NoNode || !f.Contains(m.ScopeNode(v), b.Stmt) || m.mayNotReach(b.Stmt, v) {
			return NoActivation, nil
		}
		return m.elementActivation(b.Value, index, depth+1)
	case KindExpressionList, KindTuple:
		kids := f.ChildList(v)
		if i := elementPos(index, len(kids)); i >= 0 && f.Kind(kids[i]) != KindListSplat {
			return m.activationOf(kids[i], depth+1)
		}
	case KindCall:
		def := m.bodyOf(v)
		if def == NoNode {
			def, _ = m.selfCallTarget(v)
		}
		if def != NoNode {
			a, at := m.returnsElementActivation(def, index, depth+1)
			if at != nil && at.Path == "" {
				at = m.localSite(at)
			}
			return a, at
		}
	}
	return NoActivation, nil
}

type elementActivationKey struct {
	def       NodeID
	index     int
	exporting bool
}

// returnsElementActivation reports the activation of the element at
// index of the tuple every return of a function builds, where they all
// build one and agree on it.
func (m *Model) returnsElementActivation(def NodeID, index, depth int) (Activation, *Site) {
	f := m.File
	ans := m.Memo(elementActivationKey{def, index, m.exporting}, func() any {
		var elems []NodeID
		for _, r := range m.ReturnValues(def) {
			r = f.Unparen(r)
			if k := f.Kind(r); k != KindExpressionList && k != KindTuple {
				return activationAnswer{}
			}
			kids := f.ChildList(r)
			i := elementPos(index, len(kids))
			if i < 0 || f.Kind(kids[i]) == KindListSplat {
				return activationAnswer{}
			}
			elems = append(elems, kids[i])
		}
		return m.sameActivation(elems, depth)
	}).(activationAnswer)
	return ans.a, ans.at
}

// subscriptElementActivation reports the activation of `v[i]`, an
// integer index into a tuple (`self.policy(s)[1]`, or `out[1]` with `out
// = self.policy(s)`).
func (m *Model) subscriptElementActivation(sub NodeID, depth int) (Activation, *Site) {
	f := m.File
	i, ok := intLiteral(f, f.Unparen(f.Field(sub, FieldSubscript)))
	if !ok {
		return NoActivation, nil
	}
	if i < 0 {
		i-- // Binding.Index counts from the end from -2
	}
	return m.elementActivation(f.Field(sub, FieldValue), i, depth)
}

// intLiteral reads an integer literal, negative or not.
func intLiteral(f *File, e NodeID) (int, bool) {
	neg := false
	if f.Kind(e) == KindUnaryOperator && strings.HasPrefix(f.Text(e), "-") {
		neg, e = true, f.Unparen(f.Field(e, FieldArgument))
	}
	if f.Kind(e) != KindInteger {
		return 0, false
	}
	n := 0
	for _, c := range f.Text(e) {
		if c < '0' || c > '9' || n > 1000 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		return -n, true
	}
	return n, true
}

// distributionFamilies are the torch.distributions classes whose probs
// are computed from their logits by an activation: a softmax over the
// categories, a sigmoid for a binary outcome.
var distributionFamilies = map[string]Activation{
	"Categorical": Softmax, "OneHotCategorical": Softmax, "OneHotCategoricalStraightThrough": Softmax,
	"RelaxedOneHotCategorical": Softmax, "Multinomial": Softmax,
	"Bernoulli": Sigmoid, "RelaxedBernoulli": Sigmoid, "ContinuousBernoulli": Sigmoid, "Binomial": Sigmoid,
	"Geometric": Sigmoid, "NegativeBinomial": Sigmoid,
}

// distributionProbs reports the activation the `.probs` of a
// distribution computes: the softmax of the logits a Categorical was
// built from (`Categorical(logits=z).probs`), the sigmoid of a
// Bernoulli's, or the probabilities it was given, where they are the
// output of that activation. dist is the distribution: a call of its
// class, a name bound to one in its function, or a call of a function
// of this file that returns one.
func (m *Model) distributionProbs(dist NodeID, depth int) (Activation, *Site) {
	f := m.File
	dist = f.Unparen(dist)
	if dist == NoNode || depth > 8 {
		return NoActivation, nil
	}
	switch f.Kind(dist) {
	case KindIdentifier:
		b := m.Resolve(dist)
		if b == nil || b.Kind != BindAssign || b.Unpacked || b.Value == NoNode || !f.Contains(m.ScopeNode(dist), b.Stmt) || m.mayNotReach(b.Stmt, dist) {
			return NoActivation, nil
		}
		return m.distributionProbs(b.Value, depth+1)
	case KindCall:
		q := m.CallName(dist)
		if strings.HasPrefix(q, "torch.distributions.") {
			fam := distributionFamilies[q[strings.LastIndexByte(q, '.')+1:]]
			if fam == NoActivation {
				return NoActivation, nil
			}
			if m.Keyword(dist, "logits") != NoNode {
				return fam, m.site(dist)
			}
			if p := m.Keyword(dist, "probs"); p != NoNode {
				if a, at := m.activationOf(p, depth+1); a == fam {
					return a, at
				}
			}
			return NoActivation, nil
		}
		def := m.LocalCallee(dist)
		if def == NoNode {
			return NoActivation, nil
		}
		var out activationAnswer
		for _, r := range m.ReturnValues(def) {
			a, at := m.distributionProbs(r, depth+1)
			if a == NoActivation || out.a != NoActivation && out.a != a {
				return NoActivation, nil
			}
			if out.a == NoActivation {
				out = activationAnswer{a, at}
			}
		}
		if out.at != nil && out.at.Path == "" {
			out.at = m.localSite(out.at)
		}
		return out.a, out.at
	}
	return NoActivation, nil
}
