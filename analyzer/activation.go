package analyzer

import (
	"path/filepath"
	"slices"
)

// Activation says which output layer a value comes from: probabilities
// of a softmax or a sigmoid, or log-probabilities of a log-softmax.
// Losses that apply one themselves (cross_entropy applies log_softmax,
// the *_with_logits losses a sigmoid) must not be handed its output.
type Activation uint8

// The activations, and NoActivation for a value that is none's output.
const (
	NoActivation Activation = iota
	Softmax
	LogSoftmax
	Sigmoid
)

func (a Activation) String() string {
	switch a {
	case Softmax:
		return "softmax"
	case LogSoftmax:
		return "log_softmax"
	case Sigmoid:
		return "sigmoid"
	}
	return ""
}

// activationFuncs are the functions that compute an activation.
var activationFuncs = map[string]Activation{
	"torch.softmax": Softmax, "torch.nn.functional.softmax": Softmax, "torch.special.softmax": Softmax,
	"torch.log_softmax": LogSoftmax, "torch.nn.functional.log_softmax": LogSoftmax, "torch.special.log_softmax": LogSoftmax,
	"torch.sigmoid": Sigmoid, "torch.nn.functional.sigmoid": Sigmoid, "torch.special.expit": Sigmoid,
}

// activationModules are the modules whose forward is an activation.
var activationModules = map[string]Activation{
	"torch.nn.Softmax": Softmax, "torch.nn.LogSoftmax": LogSoftmax, "torch.nn.Sigmoid": Sigmoid,
}

// moduleSelfMethods are the nn.Module methods that return the module
// they are called on.
var moduleSelfMethods = map[string]bool{
	"to": true, "cuda": true, "cpu": true, "float": true, "double": true, "half": true, "bfloat16": true,
	"train": true, "eval": true, "requires_grad_": true, "type": true, "share_memory": true,
}

// keepsActivation are tensor methods whose result holds the same values
// as their receiver, arranged or typed otherwise.
var keepsActivation = map[string]bool{
	"view": true, "reshape": true, "squeeze": true, "unsqueeze": true, "flatten": true, "permute": true,
	"transpose": true, "contiguous": true, "float": true, "double": true, "half": true, "to": true,
	"cuda": true, "clone": true, "view_as": true, "reshape_as": true,
}

// ActivationOf reports which activation's output expr is, following
// names bound in its function, reshapes and type casts, functions of
// this file and of the project that return one, and model calls whose
// class's forward returns one. at is where the activation is computed:
// in this file (Path empty) or in another.
func (m *Model) ActivationOf(expr NodeID) (Activation, *Site) {
	return m.activationOf(expr, 0)
}

func (m *Model) activationOf(expr NodeID, depth int) (Activation, *Site) {
	f := m.File
	expr = f.Unparen(expr)
	if expr == NoNode || depth > 8 {
		return NoActivation, nil
	}
	switch f.Kind(expr) {
	case KindCall:
		fn := f.Unparen(f.Field(expr, FieldFunction))
		if a, ok := activationFuncs[m.CallName(expr)]; ok {
			return a, m.site(expr)
		}
		// `self.softmax(x)` calls what the class bound to that name (an
		// nn.LogSoftmax, as often as not) or defined, which the module and
		// return tests below read; the name says nothing.
		if meth := m.MethodName(expr); meth != "" && !f.TextIs(m.Receiver(expr), "self") {
			switch meth {
			case "softmax":
				return Softmax, m.site(expr)
			case "log_softmax":
				return LogSoftmax, m.site(expr)
			case "sigmoid":
				return Sigmoid, m.site(expr)
			}
			if keepsActivation[meth] {
				return m.activationOf(m.Receiver(expr), depth+1)
			}
		}
		if a := m.activationModule(fn, 0); a != NoActivation {
			return a, m.site(expr)
		}
		return m.returnedActivation(expr, depth)
	case KindIdentifier:
		b := m.Resolve(expr)
		if b == nil || b.Kind != BindAssign || b.Value == NoNode || !f.Contains(m.ScopeNode(expr), b.Stmt) {
			return NoActivation, nil
		}
		if m.mayNotReach(b.Stmt, expr) {
			// `if softmax: x = self.softmax(x)`, then `return x`: the
			// layer is applied on some calls only.
			return NoActivation, nil
		}
		if b.Unpacked {
			if b.Index == -1 {
				return NoActivation, nil
			}
			return m.elementActivation(b.Value, b.Index, depth+1)
		}
		return m.activationOf(b.Value, depth+1)
	case KindSubscript:
		if a, at := m.activationOf(f.Field(expr, FieldValue), depth+1); a != NoActivation {
			return a, at
		}
		return m.subscriptElementActivation(expr, depth+1)
	case KindAttribute:
		if f.TextIs(f.Field(expr, FieldAttribute), "probs") {
			return m.distributionProbs(f.Field(expr, FieldObject), depth+1)
		}
	}
	return NoActivation, nil
}

// activationModule reports which activation a called module computes:
// one bound to nn.Softmax(...) and its kind, or to an nn.Sequential
// whose last layer is one.
func (m *Model) activationModule(callee NodeID, depth int) Activation {
	f := m.File
	v := callee
	if f.Kind(callee) != KindCall {
		v = m.heldValue(callee, m.SelfAttrOnce)
	}
	if v == NoNode || f.Kind(v) != KindCall || depth > 4 {
		return NoActivation
	}
	if moduleSelfMethods[m.MethodName(v)] {
		// `nn.Sequential(...).to(device)`, `model.cuda()`: the same module.
		return m.activationModule(f.Unparen(m.Receiver(v)), depth+1)
	}
	q := m.CallName(v)
	if a, ok := activationModules[q]; ok {
		return a
	}
	if q == "torch.nn.Sequential" {
		if args := m.Args(v); len(args) > 0 {
			last := f.Unparen(args[len(args)-1])
			if f.Kind(last) == KindListSplat {
				last = m.lastListed(v, last)
			}
			return m.activationModule(last, depth+1)
		}
	}
	return NoActivation
}

// lastListed returns the last layer of the list that `*layers` unpacks
// into the call: the value of the last statement before the call's own,
// in its block, that adds to the list (`layers.append(nn.Softmax(dim=1))`,
// `layers += [...]`, `layers = [...]`); NoNode where that statement is
// not one of those (a loop or an if that appends) or there is none.
func (m *Model) lastListed(call, splat NodeID) NodeID {
	f := m.File
	var name NodeID
	for _, c := range f.ChildList(splat) {
		name = f.Unparen(c)
	}
	if f.Kind(name) != KindIdentifier {
		return NoNode
	}
	list := f.Text(name)
	stmt := call
	for stmt != NoNode && f.Kind(f.Parent(stmt)) != KindBlock && f.Kind(f.Parent(stmt)) != KindModule {
		stmt = f.Parent(stmt)
	}
	if stmt == NoNode {
		return NoNode
	}
	siblings := f.ChildList(f.Parent(stmt))
	i := slices.Index(siblings, stmt)
	lastOf := func(lit NodeID) NodeID {
		lit = f.Unparen(lit)
		if k := f.Kind(lit); k != KindList && k != KindTuple {
			return NoNode
		}
		elems := f.ChildList(lit)
		if len(elems) == 0 {
			return NoNode
		}
		return f.Unparen(elems[len(elems)-1])
	}
	for i--; i >= 0; i-- {
		s := siblings[i]
		mentions := false
		f.Walk(s, func(id NodeID) {
			mentions = mentions || f.Kind(id) == KindIdentifier && f.TextIs(id, list)
		})
		if !mentions {
			continue
		}
		e := s
		if f.Kind(e) == KindExpressionStatement {
			if c := f.ChildList(e); len(c) == 1 {
				e = f.Unparen(c[0])
			}
		}
		switch f.Kind(e) {
		case KindCall:
			fn := f.Unparen(f.Field(e, FieldFunction))
			if f.Kind(fn) != KindAttribute || !f.TextIs(f.Unparen(f.Field(fn, FieldObject)), list) {
				return NoNode
			}
			args := m.Args(e)
			switch method := f.Text(f.Field(fn, FieldAttribute)); {
			case method == "append" && len(args) == 1:
				return f.Unparen(args[0])
			case method == "extend" && len(args) == 1:
				return lastOf(args[0])
			}
		case KindAssignment, KindAugmentedAssignment:
			if f.TextIs(f.Unparen(f.Field(e, FieldLeft)), list) {
				return lastOf(f.Field(e, FieldRight))
			}
		}
		return NoNode
	}
	return NoNode
}

// returnedActivation reports the activation a call's function returns:
// a function of this file, one of the project, the forward of the class
// of a model called (of its own class for `self(x)`), or what calling
// the values the callers of a parameter pass for it returns.
func (m *Model) returnedActivation(call NodeID, depth int) (Activation, *Site) {
	f := m.File
	if def := m.LocalCallee(call); def != NoNode {
		return m.defActivation(def, "", depth)
	}
	if def, ref := m.selfCallTarget(call); def != NoNode || ref != "" {
		return m.defActivation(def, ref, depth)
	}
	fn := f.Unparen(f.Field(call, FieldFunction))
	if class := m.receiverClass(fn); class != NoNode {
		if a, at := m.instanceActivation(class, depth); a != NoActivation {
			return a, at
		}
	} else if ref := m.calleeRef(call); ref != "" {
		return m.defActivation(NoNode, ref, depth)
	}
	return m.paramCallActivation(fn, depth)
}

// localSite names a site of this file by the file's base name, for
// messages.
func (m *Model) localSite(s *Site) *Site {
	c := *s
	c.Path = filepath.Base(m.File.Path)
	c.Abs = m.File.Path
	return &c
}

type activationKey struct {
	def       NodeID
	exporting bool
}

type activationAnswer struct {
	a  Activation
	at *Site
}

// returnsActivation reports the activation every return of a function
// returns, if they all return the same one.
func (m *Model) returnsActivation(def NodeID, depth int) (Activation, *Site) {
	ans := m.Memo(activationKey{def, m.exporting}, func() any {
		return m.sameActivation(m.ReturnValues(def), depth)
	}).(activationAnswer)
	return ans.a, ans.at
}

// sameActivation is the activation all of values have, with the site of
// the first; none when one has none or two differ.
func (m *Model) sameActivation(values []NodeID, depth int) activationAnswer {
	var out activationAnswer
	for _, v := range values {
		a, at := m.activationOf(v, depth)
		if a == NoActivation || out.a != NoActivation && out.a != a {
			return activationAnswer{}
		}
		if out.a == NoActivation {
			out = activationAnswer{a, at}
		}
	}
	return out
}

// mayNotReach reports whether a statement runs only on some paths to use:
// it sits in a branch or loop body that does not hold use.
func (m *Model) mayNotReach(stmt, use NodeID) bool {
	f := m.File
	scope := m.ScopeNode(use)
	for n := f.Parent(stmt); n != NoNode && n != scope; n = f.Parent(n) {
		switch f.Kind(n) {
		case KindIfStatement, KindElifClause, KindElseClause, KindForStatement, KindWhileStatement, KindTryStatement, KindExceptClause:
			if !f.Contains(n, use) {
				return true
			}
		}
	}
	return false
}
