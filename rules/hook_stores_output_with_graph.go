package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// HookStoresOutputWithGraph is TL104.
var HookStoresOutputWithGraph = &analyzer.Rule{
	Code:      "TL104",
	Name:      "hook-stores-output-with-graph",
	Summary:   "A module hook stores its output with its autograd graph",
	Severity:  analyzer.SeverityWarning,
	Precision: "medium",
	Preview:   true,
	Tags:      []string{"memory", "autograd"},
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkHookStoresOutputWithGraph,
	Doc: `## What it does
Off by default: select it with ` + "`--extend-select TL104`" + `. Checks for a forward hook (` + "`register_forward_hook`" + `,
` + "`register_forward_pre_hook`" + `, ` + "`register_module_forward_hook`" + `) that stores the
module's output (or input) in a container or attribute that outlives the
call, without ` + "`.detach()`" + `: ` + "`activations[name] = output`" + `, ` + "`feats.append(output)`" + `,
` + "`self.cache = output`" + `, ` + "`module.saved = input[0]`" + `. The hook may be a function, a
lambda, a closure returned by a factory (` + "`get_activation(name)`" + `), a
` + "`functools.partial`" + ` or a method (` + "`self._hook`" + `); the finding points at the store.

## Why is this bad?
With grad enabled, a module's output is a node of the autograd graph: it
references the graph that produced it, and through it every saved
activation of the forward pass up to that module. A hook that keeps the
output keeps all of that alive after the forward pass (and after the
backward pass, if it was a training step, in the form of the output and
its autograd nodes). A hook that appends on every call keeps one forward
pass's activations per call, which is how activation-collection code
runs out of GPU memory on the second or third batch; one that overwrites
a slot keeps the last forward pass's activations alive into the next one.

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, over 300 steps, median of 5 runs ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL104.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl104_hook.py)):
a hook on the body of a small CNN (all but its linear head) that appends
its output, in an evaluation loop with grad enabled, grows GPU memory by
10.44 MiB per step, and by 14.57 MiB for a small transformer (a 1 GiB
budget is gone at step 99 and 71); with ` + "`output.detach()`" + ` by 0.25 and 0.5
MiB, the stored features themselves. In a training loop, whose
` + "`backward()`" + ` frees the activations, GPU memory grows by 0.25 and 0.5 MiB
per step either way, and the hook without ` + "`.detach()`" + ` adds 12.06 and 68.8
KiB of host memory per step (0.85 and 1.74 KiB with it).

## Example
` + "```python" + `
activations = {}

def save_activation(name):
    def hook(module, inputs, output):
        activations[name] = output
    return hook

model.layer3.register_forward_hook(save_activation("layer3"))
` + "```" + `

## Use instead
` + "```python" + `
activations = {}

def save_activation(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()
    return hook

model.layer3.register_forward_hook(save_activation("layer3"))
` + "```" + `
If the activations are only inspected, run the model under
` + "`torch.no_grad()`" + ` as well; if they feed a loss (feature matching,
distillation), keep the graph on purpose and empty the container every step.

## Known problems
The rule is off by default because too many of its findings on code it
was not written against are wrong: a hook class in one file whose stored
features another file feeds to a back-propagated loss (feature matching,
distillation), and a hooked model that only ever runs under another
file's ` + "`torch.no_grad()`" + `. Select it, and read what it reports.

Backward hooks (` + "`register_full_backward_hook`" + `) are not checked: the gradients
they receive carry no autograd history unless the backward pass itself is
recorded (` + "`create_graph=True`" + `), so storing them costs the tensors but pins
no graph.

Whether the hooked model runs with grad enabled is known only from this
file: a hook whose model is called here, and only under ` + "`torch.no_grad()`" + ` or
` + "`torch.inference_mode()`" + `, is not reported; one whose model runs elsewhere is.
A container that this file empties (` + "`.clear()`" + `, ` + "`.pop()`" + `, re-assigned) or hands
back from a function, and a hook object's attribute that a back-propagated
loss reads through the object (` + "`sf.features`" + ` in a feature-matching
loss), are treated as a per-step cache whose owner consumes the graph on
purpose (feature pyramids, distillation losses) and are not reported.
Hooks registered on a module reached through a name this file
cannot resolve, or defined in another module, are not seen.

## References
- [torch.nn.Module.register_forward_hook](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.register_forward_hook)
- [Autograd mechanics: saved tensors](https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors)
`,
}

// hookKind says which arguments a hook receives.
type hookKind uint8

const (
	hookForward    hookKind = iota // (module, args, output) or (module, args, kwargs, output)
	hookForwardPre                 // (module, args) or (module, args, kwargs)
)

func checkHookStoresOutputWithGraph(p *analyzer.Pass, call analyzer.NodeID) {
	f, m := p.File, p.Model
	var kind hookKind
	switch {
	case m.MethodName(call) == "register_forward_hook",
		m.CallName(call) == "torch.nn.modules.module.register_module_forward_hook":
		kind = hookForward
	case m.MethodName(call) == "register_forward_pre_hook",
		m.CallName(call) == "torch.nn.modules.module.register_module_forward_pre_hook":
		kind = hookForwardPre
	default:
		return
	}
	arg := m.Keyword(call, "hook")
	if args := m.Args(call); len(args) > 0 {
		arg = args[0]
	}
	def, params := hookDefinition(m, arg, call, 0)
	if def == analyzer.NoNode {
		return
	}
	withKwargs := f.Kind(f.Unparen(m.Keyword(call, "with_kwargs"))) == analyzer.KindTrue
	tracked := map[string]bool{}
	at := func(i int) string {
		if i < len(params) {
			return params[i]
		}
		return ""
	}
	tracked[at(1)] = true // the inputs
	if kind == hookForward {
		if withKwargs {
			tracked[at(3)] = true
		} else {
			tracked[at(2)] = true
		}
	}
	delete(tracked, "")
	if len(tracked) == 0 || m.IsPytestFile() || hookModelRunsWithoutGrad(m, call) || hookScopedWithoutGrad(m, call) {
		return
	}
	module := at(0)
	// The hook's own parameters that hold the module's inputs and, for a
	// forward hook, its output.
	output := func(b *analyzer.Binding) bool {
		return b.Kind == analyzer.BindParam && tracked[f.Text(b.Name)] && m.EnclosingFunction(b.Stmt) == def
	}
	body := f.Field(def, analyzer.FieldBody)
	f.Walk(body, func(id analyzer.NodeID) {
		if m.EnclosingFunction(id) != def {
			return
		}
		container, value := hookStore(f, m, id)
		if value == analyzer.NoNode || !m.DerivesFrom(value, def, output) {
			return
		}
		root := hookContainerRoot(f, m, container)
		if root == analyzer.NoNode || !hookOutsideContainer(m, def, root, module) {
			return
		}
		key := accumulatorKey(f, storedBase(f, hookContainerBase(f, m, container)))
		if hookManaged(m, def, key) || hookConsumedWithGraph(m, def, key) {
			return
		}
		what := "output"
		if !hookMentions(f, value, params, kind, withKwargs) {
			what = "input"
		}
		// A hook registered on several modules (or twice) is reported
		// once per store.
		reported := m.Memo(hookReportedKey{}, func() any { return map[analyzer.NodeID]bool{} }).(map[analyzer.NodeID]bool)
		if reported[id] {
			return
		}
		reported[id] = true
		target := container
		if f.Kind(id) == analyzer.KindAssignment {
			target = f.Field(id, analyzer.FieldLeft) // `store[k]`, not store
		}
		if hookReturnsStored(m, def, target) {
			// The hook returns what it stores as the module's new output:
			// the forward pass goes on with it, so it keeps its graph.
			p.Report(id, fmt.Sprintf("`%s` keeps the module's %s with its autograd graph until the next call: "+
				"`%s` holds that forward pass's activations (its autograd nodes only, once a backward() has run through them); "+
				"return the value as it is and store `%s` apart from it (detaching what is returned would cut the gradient)",
				analyzer.Snippet(f.Text(id), 60), what, analyzer.Snippet(f.Text(hookContainerBase(f, m, container)), 30),
				hookDetachHint(f, m, value)))
			return
		}
		p.Report(id, fmt.Sprintf("`%s` keeps the module's %s with its autograd graph on every call: "+
			"`%s` holds the forward pass's activations (its autograd nodes only, once a backward() has run through them); "+
			"store `%s` instead",
			analyzer.Snippet(f.Text(id), 60), what, analyzer.Snippet(f.Text(hookContainerBase(f, m, container)), 30),
			hookDetachHint(f, m, value)))
	})
}

// hookDefinition resolves a hook argument to the function or lambda that
// runs, and the names of the parameters that receive the hook's
// arguments in order (after `self` and the arguments a
// functools.partial binds).
func hookDefinition(m *analyzer.Model, expr, at analyzer.NodeID, depth int) (analyzer.NodeID, []string) {
	f := m.File
	expr = f.Unparen(expr)
	if expr == analyzer.NoNode || depth > 8 {
		return analyzer.NoNode, nil
	}
	switch f.Kind(expr) {
	case analyzer.KindLambda:
		return expr, hookParams(f, expr)
	case analyzer.KindIdentifier:
		b := m.Resolve(expr)
		switch {
		case b == nil:
		case b.Kind == analyzer.BindFunction:
			return b.Stmt, hookParams(f, b.Stmt)
		case b.Kind == analyzer.BindAssign && !b.Unpacked:
			return hookDefinition(m, b.Value, at, depth+1)
		}
	case analyzer.KindAttribute:
		if f.TextIs(f.Field(expr, analyzer.FieldObject), "self") {
			def := m.MethodOf(m.EnclosingClass(at), f.Text(f.Field(expr, analyzer.FieldAttribute)))
			if def == analyzer.NoNode || hookStaticMethod(m, def) {
				return def, hookParams(f, def)
			}
			if ps := hookParams(f, def); len(ps) > 0 {
				return def, ps[1:]
			}
		}
	case analyzer.KindCall:
		if q := m.CallName(expr); q == "functools.partial" {
			args := m.Args(expr)
			if len(args) == 0 {
				return analyzer.NoNode, nil
			}
			def, ps := hookDefinition(m, args[0], at, depth+1)
			if len(args)-1 > len(ps) {
				return analyzer.NoNode, nil
			}
			ps = ps[len(args)-1:]
			var out []string
			for _, p := range ps {
				if m.Keyword(expr, p) == analyzer.NoNode {
					out = append(out, p)
				}
			}
			return def, out
		}
		// A factory: `get_activation(name)` returns the hook it defines.
		factory := m.LocalCallee(expr)
		if factory == analyzer.NoNode {
			return analyzer.NoNode, nil
		}
		ret := analyzer.NoNode
		for _, v := range m.ReturnValues(factory) {
			if v != analyzer.NoNode {
				ret = v
				break
			}
		}
		return hookDefinition(m, ret, at, depth+1)
	}
	return analyzer.NoNode, nil
}

// hookStaticMethod reports whether a method is decorated @staticmethod.
func hookStaticMethod(m *analyzer.Model, def analyzer.NodeID) bool {
	for _, d := range m.Decorators(def) {
		if m.File.TextIs(d, "staticmethod") {
			return true
		}
	}
	return false
}

// hookParams lists the names of a function's or lambda's positional
// parameters; a *args parameter ends the list.
func hookParams(f *analyzer.File, def analyzer.NodeID) []string {
	var out []string
	stop := false
	f.Children(f.Field(def, analyzer.FieldParameters), func(c analyzer.NodeID) bool {
		switch f.Kind(c) {
		case analyzer.KindIdentifier:
			out = append(out, f.Text(c))
		case analyzer.KindDefaultParameter, analyzer.KindTypedDefaultParameter:
			out = append(out, f.Text(f.Field(c, analyzer.FieldName)))
		case analyzer.KindTypedParameter:
			if n := f.FirstChild(c); f.Kind(n) == analyzer.KindIdentifier {
				out = append(out, f.Text(n))
			} else {
				stop = true
			}
		default:
			stop = true
		}
		return !stop
	})
	return out
}

// hookStore returns the container and the stored value of a store
// statement or call in a hook: `c.append(v)` and the like, `c[k] = v`,
// `obj.attr = v`.
func hookStore(f *analyzer.File, m *analyzer.Model, n analyzer.NodeID) (container, value analyzer.NodeID) {
	switch f.Kind(n) {
	case analyzer.KindCall:
		return storedTarget(f, m, n)
	case analyzer.KindAssignment:
		left := f.Field(n, analyzer.FieldLeft)
		right := f.Field(n, analyzer.FieldRight)
		if f.Kind(right) == analyzer.KindAssignment {
			return analyzer.NoNode, analyzer.NoNode
		}
		switch f.Kind(left) {
		case analyzer.KindSubscript:
			return f.Field(left, analyzer.FieldValue), right
		case analyzer.KindAttribute:
			return left, right
		}
	}
	return analyzer.NoNode, analyzer.NoNode
}

// hookContainerBase looks through `d.setdefault(k, [])` and `d.get(k)` to
// the container d.
func hookContainerBase(f *analyzer.File, m *analyzer.Model, c analyzer.NodeID) analyzer.NodeID {
	for i := 0; i < 8; i++ {
		c = f.Unparen(c)
		switch f.Kind(c) {
		case analyzer.KindSubscript:
			c = f.Field(c, analyzer.FieldValue)
		case analyzer.KindCall:
			switch m.MethodName(c) {
			case "setdefault", "get", "__getitem__":
				c = m.Receiver(c)
			default:
				return c
			}
		default:
			return c
		}
	}
	return c
}

// hookContainerRoot returns the identifier a container expression starts
// from.
func hookContainerRoot(f *analyzer.File, m *analyzer.Model, c analyzer.NodeID) analyzer.NodeID {
	return storedRoot(f, hookContainerBase(f, m, c))
}

// hookOutsideContainer reports whether a container rooted at root
// outlives one call of the hook def: it is bound outside the hook (a
// global, a closure variable, self) or is the hooked module itself.
func hookOutsideContainer(m *analyzer.Model, def, root analyzer.NodeID, module string) bool {
	f := m.File
	b := m.Resolve(root)
	if b == nil {
		return false
	}
	if b.Kind == analyzer.BindParam {
		return f.TextIs(root, "self") || f.TextIs(root, module)
	}
	if b.Kind == analyzer.BindImport || b.Kind == analyzer.BindFunction || b.Kind == analyzer.BindClass {
		return false
	}
	return !f.Contains(def, b.Stmt)
}

// hookDetaching are the methods and attributes after which a value no
// longer carries history, and the torch functions whose results carry
// none.
type hookReportedKey struct{}

// hookMentions reports whether value mentions the output parameter (as
// opposed to only the inputs), for the message.
func hookMentions(f *analyzer.File, value analyzer.NodeID, params []string, kind hookKind, withKwargs bool) bool {
	if kind != hookForward {
		return false
	}
	i := 2
	if withKwargs {
		i = 3
	}
	if i >= len(params) {
		return false
	}
	return mentions(f, value, params[i]) || !mentions(f, value, params[1])
}

// hookManaged reports whether the file empties the container (or hands
// it back from a function other than the hook): a per-step cache whose
// owner consumes the graph on purpose.
func hookManaged(m *analyzer.Model, def analyzer.NodeID, key string) bool {
	if strings.HasPrefix(key, "self.") {
		if class := m.EnclosingClass(def); class != analyzer.NoNode {
			return hookEmptiedOrReturned(m, class, def, key)
		}
	}
	return hookEmptiedOrReturned(m, analyzer.Root, def, key)
}

// hookConsumedWithGraph reports whether the container key is read, outside
// the hook, by a module's forward or by a function that computes a loss or
// back-propagates: the stored graph is wanted (feature matching, a
// discriminator on intermediate features, a fused pretrained model).
func hookConsumedWithGraph(m *analyzer.Model, def analyzer.NodeID, key string) bool {
	f := m.File
	region := analyzer.Root
	if strings.HasPrefix(key, "self.") {
		if class := m.EnclosingClass(def); class != analyzer.NoNode {
			region = class
		}
	}
	found := false
	checked := map[analyzer.NodeID]bool{}
	f.Walk(region, func(id analyzer.NodeID) {
		if found || f.Contains(def, id) {
			return
		}
		if k := f.Kind(id); k != analyzer.KindIdentifier && k != analyzer.KindAttribute || accumulatorKey(f, id) != key {
			return
		}
		if f.N(id).Field == analyzer.FieldAttribute {
			return // `s_feats.feats` does not read the container `feats`
		}
		fn := m.EnclosingFunction(id)
		if fn == analyzer.NoNode || checked[fn] {
			return
		}
		checked[fn] = true
		found = isForwardMethod(m, fn) || hookComputesLoss(m, fn)
	})
	if attr, ok := strings.CutPrefix(key, "self."); ok && region != analyzer.Root && !found && !strings.Contains(attr, ".") {
		// A hook object's slot read through its instances
		// (`sf_student.features` in a feature-matching loss).
		// Only a read that flows into a backward counts: printed or
		// plotted, the slot still pins the graph.
		f.Walk(analyzer.Root, func(id analyzer.NodeID) {
			if !found && f.Kind(id) == analyzer.KindAttribute && !f.Contains(region, id) &&
				f.TextIs(f.Field(id, analyzer.FieldAttribute), attr) && !f.TextIs(f.Field(id, analyzer.FieldObject), "self") {
				fn := m.ScopeNode(id)
				body := fn
				if fn != analyzer.Root {
					body = f.Field(fn, analyzer.FieldBody)
				}
				found = m.BackpropKeys(body, fn)[f.Text(id)]
			}
		})
	}
	return found
}

// hookComputesLoss reports whether fn computes a loss or back-propagates.
func hookComputesLoss(m *analyzer.Model, fn analyzer.NodeID) bool {
	f := m.File
	yes := false
	f.Walk(f.Field(fn, analyzer.FieldBody), func(id analyzer.NodeID) {
		if !yes && f.Kind(id) == analyzer.KindCall {
			yes = m.IsBackwardCall(id) || m.IsLossCall(id)
		}
	})
	return yes
}

// hookEmptiedOrReturned looks in region, outside the hook def, for a
// reset of the container key or a function returning it.
func hookEmptiedOrReturned(m *analyzer.Model, region, def analyzer.NodeID, key string) bool {
	f := m.File
	found := false
	f.Walk(region, func(id analyzer.NodeID) {
		if found || f.Contains(def, id) {
			return
		}
		switch f.Kind(id) {
		case analyzer.KindReturnStatement, analyzer.KindYield:
			found = mentions(f, id, key)
		case analyzer.KindAssignment:
			// A reset after the hook is defined (creating it before is
			// what every hook needs).
			if f.N(id).Start > f.N(def).Start {
				left := f.Field(id, analyzer.FieldLeft)
				found = (f.Kind(left) == analyzer.KindIdentifier || f.Kind(left) == analyzer.KindAttribute) && accumulatorKey(f, left) == key
			}
		case analyzer.KindCall:
			switch m.MethodName(id) {
			case "clear", "pop", "popitem", "popleft":
				found = accumulatorKey(f, storedBase(f, m.Receiver(id))) == key
			}
		case analyzer.KindDeleteStatement:
			found = mentions(f, id, key)
		}
	})
	return found
}

// hookModelRunsWithoutGrad reports whether every forward pass of the
// hooked model that this file runs is under no_grad or inference_mode
// (and there is at least one).
func hookModelRunsWithoutGrad(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	recv := m.Receiver(call)
	if recv == analyzer.NoNode {
		return false
	}
	root := hookModelRoot(f, m, recv, 0)
	if root == "" || root == "self" {
		return false
	}
	runs, disabled := 0, 0
	f.Walk(analyzer.Root, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall {
			return
		}
		fn := f.Unparen(f.Field(id, analyzer.FieldFunction))
		switch {
		case f.TextIs(fn, root):
		case f.Kind(fn) == analyzer.KindAttribute && f.TextIs(f.Field(fn, analyzer.FieldObject), root):
			switch f.Text(f.Field(fn, analyzer.FieldAttribute)) {
			case "forward", "generate", "module", "predict", "encode", "decode", "encode_image", "encode_text":
			default:
				return
			}
		default:
			return
		}
		runs++
		if m.GradModeAt(id) == analyzer.GradDisabled {
			disabled++
		}
	})
	return runs > 0 && runs == disabled
}

// hookScopedWithoutGrad reports whether the hook registered by call is
// removed again in the same function (`handle = layer.register_forward_hook(h)`
// ... `handle.remove()`), and every forward pass that function runs in
// between does so with grad disabled: the hook never sees a graph.
func hookScopedWithoutGrad(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	assign := f.Parent(call)
	if f.Kind(assign) != analyzer.KindAssignment || f.Field(assign, analyzer.FieldRight) != call {
		return false
	}
	handle := f.Field(assign, analyzer.FieldLeft)
	if k := f.Kind(handle); k != analyzer.KindIdentifier && k != analyzer.KindAttribute {
		return false
	}
	fn := m.ScopeNode(call)
	from, until := f.N(call).End, uint32(0)
	f.Walk(fn, func(id analyzer.NodeID) {
		if until == 0 && f.Kind(id) == analyzer.KindCall && f.N(id).Start > from && m.MethodName(id) == "remove" &&
			f.Text(m.Receiver(id)) == f.Text(handle) {
			until = f.N(id).Start
		}
	})
	if until == 0 {
		return false
	}
	runs, enabled := 0, 0
	f.Walk(fn, func(id analyzer.NodeID) {
		if start := f.N(id).Start; start < from || start > until || f.Kind(id) != analyzer.KindCall || !m.IsForwardCall(id) {
			return
		}
		runs++
		if m.GradModeAt(id) != analyzer.GradDisabled {
			enabled++
		}
	})
	return runs > 0 && enabled == 0
}

// hookModelRoot names the model a hooked module belongs to: `model` for
// `model.layer4`, and for a loop over `model.named_modules()` the model
// iterated.
func hookModelRoot(f *analyzer.File, m *analyzer.Model, e analyzer.NodeID, depth int) string {
	for depth < 8 {
		e = f.Unparen(e)
		switch f.Kind(e) {
		case analyzer.KindAttribute:
			e = f.Field(e, analyzer.FieldObject)
		case analyzer.KindSubscript:
			e = f.Field(e, analyzer.FieldValue)
		case analyzer.KindCall:
			e = f.Field(e, analyzer.FieldFunction)
		case analyzer.KindIdentifier:
			if b := m.Resolve(e); b != nil && b.Kind == analyzer.BindLoopTarget {
				e = b.Value
				depth++
				continue
			}
			return f.Text(e)
		default:
			return ""
		}
		depth++
	}
	return ""
}

// hookDetachHint writes the detached form of a stored value, detaching
// before a copy to the host: `output.detach().cpu()`.
func hookDetachHint(f *analyzer.File, m *analyzer.Model, value analyzer.NodeID) string {
	v := f.Unparen(value)
	if f.Kind(v) == analyzer.KindCall && m.MethodName(v) == "cpu" && len(m.Args(v)) == 0 {
		return analyzer.Snippet(f.Text(m.Receiver(v)), 30) + ".detach().cpu()"
	}
	return analyzer.Snippet(f.Text(v), 30) + ".detach()"
}

// hookReturnsStored reports whether a hook returns what it stores in
// target (`store[k] = out * s` ... `return store[k]`): the module's
// output is replaced by the stored value.
func hookReturnsStored(m *analyzer.Model, def, target analyzer.NodeID) bool {
	f := m.File
	want := compactText(f, target)
	for _, v := range m.ReturnValues(def) {
		if compactText(f, f.Unparen(v)) == want {
			return true
		}
	}
	return false
}
