package analyzer

import "strings"

// What a training step does to the state that outlives it: the
// gradients it clears or adds to, the mode (training or evaluation) it
// leaves modules in, and where it waits for the GPU. Functions get these
// as facts (StepSites), so that a loop calling a helper in another file
// is judged by what the helper does.

// StepSites are the first places a function clears gradients (ZeroGrad),
// back-propagates into parameters' gradients (Backward), switches a
// module to evaluation or training mode (Eval, Train), and reads a tensor
// on the host (HostRead: `.item()`, `.tolist()`, `.cpu()`, `.nonzero()`,
// `torch.cuda.synchronize()`), and asks autograd for gradients it returns
// (Grads: `torch.autograd.grad`, `torch.autograd.functional.jacobian`, a
// meta-learner's inner loop), each nil where it does not.
type StepSites struct {
	ZeroGrad *Site `json:"zero_grad,omitempty"`
	Backward *Site `json:"backward,omitempty"`
	Eval     *Site `json:"eval,omitempty"`
	Train    *Site `json:"train,omitempty"`
	HostRead *Site `json:"host_read,omitempty"`
	Grads    *Site `json:"grads,omitempty"`
}

// StepFields returns the fields of s, in a fixed order.
func (s *StepSites) StepFields() []**Site {
	return []**Site{&s.ZeroGrad, &s.Backward, &s.Eval, &s.Train, &s.HostRead, &s.Grads}
}

// MergeSteps fills in the sites of s that are nil from h: what a function
// does through one it calls. It reports whether any changed.
func (s *StepSites) MergeSteps(h *StepSites) bool {
	changed := false
	dst := s.StepFields()
	for i, src := range h.StepFields() {
		if *dst[i] == nil && *src != nil {
			*dst[i], changed = *src, true
		}
	}
	return changed
}

// HasSteps reports whether s holds a site.
func (s *StepSites) HasSteps() bool {
	return s.ZeroGrad != nil || s.Backward != nil || s.Eval != nil || s.Train != nil || s.HostRead != nil || s.Grads != nil
}

// ClearsGrad reports whether node n clears gradients: a call of
// `zero_grad` (an optimizer's, a module's, a project's own
// `reset_grad()`), an in-place reset of a `.grad` (`p.grad.zero_()`,
// `p.grad.data.zero_()`, `p.grad.detach_()`), or an assignment or
// deletion of one (`p.grad = None`, `del p.grad`).
func (m *Model) ClearsGrad(n NodeID) bool {
	f := m.File
	switch f.Kind(n) {
	case KindCall:
		fn := f.Field(n, FieldFunction)
		if id := lastNameNode(f, fn); id != NoNode && containsGrad(f.Src[f.N(id).Start:f.N(id).End]) &&
			clearGradName(strings.ToLower(f.Text(id))) {
			return true
		}
		if f.Kind(fn) == KindAttribute {
			return MentionsGrad(f, f.Field(fn, FieldObject))
		}
	case KindAssignment:
		return MentionsGrad(f, f.Field(n, FieldLeft))
	case KindDeleteStatement:
		found := false
		f.Children(n, func(c NodeID) bool {
			found = found || MentionsGrad(f, c)
			return !found
		})
		return found
	}
	return false
}

// lastNameNode returns the identifier lastName reads, or NoNode.
func lastNameNode(f *File, id NodeID) NodeID {
	switch f.Kind(id) {
	case KindIdentifier:
		return id
	case KindAttribute:
		return f.Field(id, FieldAttribute)
	case KindCall:
		return lastNameNode(f, f.Field(id, FieldFunction))
	}
	return NoNode
}

// containsGrad reports whether b holds "grad" in any case, without
// allocating: most calls are not about gradients.
func containsGrad(b []byte) bool {
	for i := 0; i+4 <= len(b); i++ {
		if b[i]|0x20 == 'g' && b[i+1]|0x20 == 'r' && b[i+2]|0x20 == 'a' && b[i+3]|0x20 == 'd' {
			return true
		}
	}
	return false
}

// clearGradName reports whether a function's name says it clears
// gradients: zero_grad, zero_grads, clear_grad, reset_grad, zerograd...
func clearGradName(name string) bool {
	name = strings.ReplaceAll(name, "_", "")
	return strings.Contains(name, "zerograd") || strings.Contains(name, "cleargrad") ||
		strings.Contains(name, "resetgrad") || strings.Contains(name, "zerogradient")
}

// MentionsGrad reports whether an attribute chain goes through `.grad`
// (`p.grad`, `p.grad.data`, `self.w.grad`).
func MentionsGrad(f *File, e NodeID) bool {
	for f.Kind(e) == KindAttribute || f.Kind(e) == KindSubscript {
		if f.Kind(e) == KindAttribute {
			if f.TextIs(f.Field(e, FieldAttribute), "grad") {
				return true
			}
			e = f.Field(e, FieldObject)
		} else {
			e = f.Field(e, FieldValue)
		}
	}
	return false
}

// AddsGrad reports whether a call back-propagates into the `.grad` of
// parameters: `loss.backward()`, `accelerator.backward(loss)`,
// `self.manual_backward(loss)`, `torch.autograd.backward(...)`.
// torch.autograd.grad returns gradients instead and is not one.
func (m *Model) AddsGrad(call NodeID) bool {
	return m.IsBackwardCall(call) && m.CallName(call) != "torch.autograd.grad"
}

// AsksGradients reports whether a call asks autograd for gradients it
// returns rather than adds into parameters' `.grad`: `torch.autograd.grad`
// and the functions of `torch.autograd.functional` (jacobian, hessian,
// vjp, jvp, hvp, vhp). Running it needs grad enabled.
func (m *Model) AsksGradients(call NodeID) bool {
	q := m.CallName(call)
	return q == "torch.autograd.grad" || strings.HasPrefix(q, "torch.autograd.functional.")
}

// ModeSwitch says whether a call switches a module to evaluation mode
// (`m.eval()`, `m.train(False)`) or to training mode (`m.train()`,
// `m.train(True)`, `m.train(mode)` with a mode not known).
func (m *Model) ModeSwitch(call NodeID) (eval, train bool) {
	f := m.File
	if f.Kind(call) != KindCall || f.Kind(f.Field(call, FieldFunction)) != KindAttribute {
		return false, false
	}
	name := f.Field(f.Field(call, FieldFunction), FieldAttribute)
	isEval := f.TextIs(name, "eval")
	if !isEval && !f.TextIs(name, "train") {
		return false, false
	}
	args := m.Args(call)
	switch {
	case isEval:
		return len(args) == 0, false
	default:
		if len(args) == 0 {
			return false, true
		}
		if len(args) == 1 && f.TextIs(args[0], "False") {
			return true, false
		}
		return false, len(args) == 1 && f.Kind(args[0]) != KindKeywordArgument || m.Keyword(call, "mode") != NoNode
	}
}

// stepFacts fills in what def's own body does to a step's state.
func (m *Model) stepFacts(def NodeID, steps *StepSites) {
	f := m.File
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		switch f.Kind(id) {
		case KindCall, KindAssignment, KindDeleteStatement:
			if m.ScopeNode(id) == def {
				m.stepFact(id, steps)
			}
		}
	})
}

// stepFact adds to steps what node id, a call, assignment or deletion in
// the function's own scope, does to a step's state.
func (m *Model) stepFact(id NodeID, steps *StepSites) {
	if steps.ZeroGrad == nil && m.ClearsGrad(id) {
		steps.ZeroGrad = m.site(id)
	}
	if m.File.Kind(id) != KindCall {
		return
	}
	if steps.HostRead == nil && m.ReadsOnHost(id) {
		steps.HostRead = m.site(id)
	}
	if steps.Backward == nil && m.AddsGrad(id) {
		steps.Backward = m.site(id)
	}
	if steps.Grads == nil && m.AsksGradients(id) {
		steps.Grads = m.site(id)
	}
	eval, train := m.ModeSwitch(id)
	if (eval || train) && (m.ownCopy(m.Receiver(id), 0) || m.someParts(id)) {
		// A copy the function made, or some of a module's layers (its
		// batch norms, frozen for fine-tuning): its callers' module keeps
		// its mode.
		return
	}
	if steps.Eval == nil && eval {
		steps.Eval = m.site(id)
	}
	if steps.Train == nil && train {
		steps.Train = m.site(id)
	}
}

// someParts reports whether call, a method call on the target of a loop
// over a module's parts (`for m in model.modules():`), runs for some of
// them only: under a test within the loop (`if isinstance(m,
// nn.BatchNorm2d): m.eval()`).
func (m *Model) someParts(call NodeID) bool {
	f := m.File
	recv := f.Unparen(m.Receiver(call))
	if f.Kind(recv) != KindIdentifier {
		return false
	}
	b := m.Resolve(recv)
	if b == nil || b.Kind != BindLoopTarget {
		return false
	}
	loop := b.Stmt
	if f.Kind(loop) != KindForStatement || !f.Contains(f.Field(loop, FieldBody), call) || !m.iteratesModuleParts(f.Field(loop, FieldRight)) {
		return false
	}
	return conditionalWithin(f, call, f.Field(loop, FieldBody))
}

// ownCopy reports whether e names a copy of a module that its function
// made (`model = copy.deepcopy(model)`), directly or through aliases.
func (m *Model) ownCopy(e NodeID, depth int) bool {
	f := m.File
	e = f.Unparen(e)
	if f.Kind(e) != KindIdentifier || depth > 4 {
		return false
	}
	b := m.Resolve(e)
	if b == nil || b.Kind != BindAssign || b.Unpacked {
		return false
	}
	v := f.Unparen(b.Value)
	switch f.Kind(v) {
	case KindCall:
		q := m.CallName(v)
		return q == "copy.deepcopy" || q == "copy.copy"
	case KindIdentifier:
		return m.ownCopy(v, depth+1)
	}
	return false
}

type stepsKey struct {
	def       NodeID
	hostReads bool
}

// Steps returns what the function a call calls (one of this file, a
// method of one of its classes, or one of the project) does to a
// training step's state, itself or through the functions it calls:
// whether it clears gradients, back-propagates, or switches a module's
// mode. Nil when it does none of these, or is not known.
//
// Its HostRead is that of the call's own file alone: StepsReadingHost
// answers it from the whole project.
func (m *Model) Steps(call NodeID) *Object {
	return m.steps(call, 0, false)
}

// StepsReadingHost is Steps with the reads on the host (HostRead) of the
// functions of the project it reaches.
func (m *Model) StepsReadingHost(call NodeID) *Object {
	return m.steps(call, 0, true)
}

func (m *Model) steps(call NodeID, depth int, hostReads bool) *Object {
	ref := m.calleeRef(call)
	def := NoNode
	if ref == "" {
		// `model(x)` runs the forward of model's class: one that clears
		// the gradients itself (`self.zero_grad()`) clears them per step.
		ref, def = m.classMethod(m.calledClass(call), "forward")
	}
	if ref != "" && !strings.HasPrefix(ref, "#") {
		want := WantSteps
		if hostReads {
			want |= WantHostRead
		}
		o := m.lookup(ref, want)
		if o == nil || o.Kind != ObjectFunction {
			return nil
		}
		return o
	}
	if def != NoNode {
		return m.stepsOf(def, depth, hostReads)
	}
	if ref == "" && m.File.Kind(m.File.Field(call, FieldFunction)) != KindIdentifier {
		// A method calleeRef did not resolve, of a model whose class is
		// not known (`model.train_custom()`, model a parameter): where
		// every method of that name in the project switches its module
		// back to training, so does the call. Only that is taken from
		// a name: it can only keep a finding of TL503 from being made.
		if r := m.modelMethodRef(call); r != "" {
			return m.trainSwitchByName(r[len("*."):], depth)
		}
		return nil // not one of this file's
	}
	return m.stepsOf(m.LocalCallee(call), depth, hostReads)
}

// trainSwitchByName is what steps takes from a method's name alone: where
// every method of that name, of a module class, switches a module to
// training mode, the first such switch. The project's methods answer it;
// without the project's facts, the file's own classes do.
func (m *Model) trainSwitchByName(name string, depth int) *Object {
	if m.facts != nil {
		// Another path than the file's alone, whatever the answer.
		m.readFact()
		o := m.lookup("*."+name, WantSteps)
		if o == nil || o.Train == nil {
			return nil
		}
		return &Object{Kind: ObjectFunction, Site: o.Site, ByMethodName: true, Classes: o.Classes, StepSites: StepSites{Train: o.Train}}
	}
	f := m.File
	var out *Object
	ok := true
	f.Children(Root, func(stmt NodeID) bool {
		class := stmt
		if f.Kind(class) == KindDecoratedDefinition {
			class = f.Field(class, FieldDefinition)
		}
		if f.Kind(class) != KindClassDefinition {
			return true
		}
		def := m.MethodOf(class, name)
		if def == NoNode {
			return true
		}
		o := m.stepsOf(def, depth+1, false)
		if !m.IsModuleClass(class) || o == nil || o.Train == nil {
			ok = false
			return false
		}
		if out == nil {
			out = &Object{Kind: ObjectFunction, Site: o.Site, ByMethodName: true, StepSites: StepSites{Train: o.Train}}
		}
		out.Classes = append(out.Classes, f.Text(f.Field(class, FieldName)))
		return true
	})
	if !ok {
		return nil
	}
	return out
}

// stepsOf is Steps for function def of this file.
func (m *Model) stepsOf(def NodeID, depth int, hostReads bool) *Object {
	if def == NoNode || depth > 8 {
		return nil
	}
	return m.Memo(stepsKey{def, hostReads}, func() any {
		f := m.File
		var steps StepSites
		m.stepFacts(def, &steps)
		if steps.Backward != nil && m.optimizesInputs(def) {
			// Gradient descent on what the function made require grad (a
			// latent code, an adversarial input): no model's step.
			steps.Backward = nil
		}
		o := &Object{Kind: ObjectFunction, StepSites: steps}
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if f.Kind(id) != KindCall || m.ScopeNode(id) != def {
				return
			}
			if h := m.steps(id, depth+1, hostReads); h != nil {
				o.MergeSteps(&h.StepSites)
			}
		})
		if !o.HasSteps() {
			return (*Object)(nil)
		}
		m.ownSites(o, def)
		return o
	}).(*Object)
}

// ForwardSteps is Steps for the forward method that calling a module
// runs, when the module is an instance of a class of the project
// (`maml = Meta(args); maml(x)`): a forward that back-propagates and
// steps an optimizer itself is a training step, not a forward pass.
func (m *Model) ForwardSteps(call NodeID) *Object {
	local, fwd, ref := m.calledForward(call)
	if local {
		return m.stepsOf(fwd, 0, false)
	}
	if ref == "" {
		return nil
	}
	o := m.lookup(ref, WantSteps)
	if o == nil || o.Kind != ObjectFunction {
		return nil
	}
	return o
}

// calledForward finds the forward method that calling a module runs
// (`maml = Meta(args); maml(x)`): for a class of this file, local is set
// and fwd is its forward (NoNode where it defines none); for a class of
// another file of the project, ref is the forward's ref to ask the
// project ("pkg.Meta.forward"); neither where the class is not known or
// is a library's.
func (m *Model) calledForward(call NodeID) (local bool, fwd NodeID, ref string) {
	class, def := m.instanceClass(call)
	if class == NoNode {
		return false, NoNode, ""
	}
	if def != NoNode {
		return true, m.MethodOf(def, "forward"), ""
	}
	if q := m.QualifiedName(class); q != "" && !isLibraryName(q) {
		return false, NoNode, q + ".forward"
	}
	return false, NoNode, ""
}

// ForwardDef returns the forward method of the class of this file whose
// instance call calls (`atk(x, y)` with `atk = FGSM(model)`), or NoNode.
func (m *Model) ForwardDef(call NodeID) NodeID {
	if _, def := m.instanceClass(call); def != NoNode {
		return m.MethodOf(def, "forward")
	}
	return NoNode
}

// instanceClass returns the class whose instance call calls, as
// receiverClass finds it (NoNode where it is not known), and, for a class
// of this file, nested or not, its definition (else NoNode).
func (m *Model) instanceClass(call NodeID) (class, def NodeID) {
	f := m.File
	class = m.receiverClass(f.Unparen(f.Field(call, FieldFunction)))
	if f.Kind(class) == KindIdentifier {
		if cb := m.Resolve(class); cb != nil && cb.Kind == BindClass {
			return class, cb.Stmt
		}
	}
	return class, NoNode
}

// ReadsOnHost reports whether a call reads a tensor's values on the host,
// which makes the host wait for the GPU when the tensor is on it:
// `.item()`, `.tolist()`, `.cpu()`, `.nonzero()`, or
// `torch.cuda.synchronize()`. Where the tensor lives is not known.
func (m *Model) ReadsOnHost(call NodeID) bool {
	f := m.File
	fn := f.Field(call, FieldFunction)
	if f.Kind(fn) != KindAttribute {
		return false
	}
	switch name := f.Field(fn, FieldAttribute); {
	case f.TextIs(name, "item"), f.TextIs(name, "tolist"), f.TextIs(name, "nonzero"):
		return true
	case f.TextIs(name, "cpu"):
		return len(m.Args(call)) == 0
	case f.TextIs(name, "synchronize"):
		return m.CallName(call) == "torch.cuda.synchronize"
	}
	return false
}

// optimizesInputs reports whether every optimizer def builds is given a
// list of tensors (`torch.optim.Adam([z], lr=0.01)`), no module's
// parameters, and it builds one at least: the function fits inputs, and
// the models it runs stay as they are.
func (m *Model) optimizesInputs(def NodeID) bool {
	f := m.File
	some, only := false, true
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if !only || f.Kind(id) != KindCall || !strings.HasPrefix(m.CallName(id), "torch.optim.") {
			return
		}
		q := m.CallName(id)
		if name := q[strings.LastIndexByte(q, '.')+1:]; name == "" || name[0] < 'A' || name[0] > 'Z' || strings.HasPrefix(q, "torch.optim.lr_scheduler.") {
			return // not an optimizer class
		}
		args := m.Args(id)
		if len(args) == 0 {
			only = false
			return
		}
		list := f.Unparen(args[0])
		if k := f.Kind(list); k != KindList && k != KindTuple {
			only = false
			return
		}
		f.Children(list, func(c NodeID) bool {
			only = only && f.Kind(f.Unparen(c)) == KindIdentifier && m.fittedTensor(def, f.Text(f.Unparen(c)))
			return only
		})
		some = true
	})
	return some && only
}

// fittedTensor reports whether def makes the tensor it binds to name
// require grad itself: bound to one made so (`torch.zeros(n,
// requires_grad=True)`, `x.clone().requires_grad_()`), or switched so
// after (`z.requires_grad = True`, `z.requires_grad_()`). A module's
// weight bound to a name (`w = model.fc.weight`) is not.
func (m *Model) fittedTensor(def NodeID, name string) bool {
	f := m.File
	found := false
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if found || m.ScopeNode(id) != def {
			return
		}
		switch f.Kind(id) {
		case KindAssignment:
			left, right := f.Field(id, FieldLeft), f.Field(id, FieldRight)
			switch {
			case f.Kind(left) == KindIdentifier && f.TextIs(left, name):
				found = m.makesLeaf(right, 0)
			case f.Kind(left) == KindAttribute && f.TextIs(f.Field(left, FieldAttribute), "requires_grad") && f.TextIs(f.Field(left, FieldObject), name):
				found = f.Kind(right) == KindTrue
			}
		case KindCall:
			found = m.MethodName(id) == "requires_grad_" && f.TextIs(f.Unparen(m.Receiver(id)), name) && m.leafCall(id)
		}
	})
	return found
}
