package rules

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// RetainGraphEveryStep is TL103.
var RetainGraphEveryStep = &analyzer.Rule{
	Code:      "TL103",
	Name:      "retain-graph-every-step",
	Summary:   "`retain_graph=True` on the last backward of a training step",
	Severity:  analyzer.SeverityWarning,
	Precision: "high",
	Tags:      []string{"memory", "autograd"},
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkRetainGraph,
	Doc: `## What it does
Checks for ` + "`backward(retain_graph=True)`" + ` (also ` + "`torch.autograd.backward`" + `,
` + "`torch.autograd.grad`" + `, ` + "`manual_backward`" + ` and ` + "`accelerator.backward`" + ` with
` + "`retain_graph=True`" + `, or ` + "`retain_variables=True`" + `, its name before PyTorch 0.4)
that is the last backward through a training step's graph: nothing
after it in the step back-propagates through the same graph again. A
training step is one iteration of a loop that builds the
graph afresh in every iteration, or a function that trains one step: it
steps an optimizer once, outside any loop of its own (an agent's
` + "`learn()`" + `), it is named so (` + "`train_step`" + `, ` + "`training_step`" + `, ...), or it is
called from a training loop of the same file. It also checks a function
that trains no step of its own but builds a graph, back-propagates it with
` + "`retain_graph=True`" + ` and hands nothing of it back (a gradient penalty's
helper that returns ` + "`penalty.item()`" + `): that graph is freed when the
function returns, so the retain only keeps its saved activations until
then. Such a finding is one level lower where no loop is seen to call
the helper, in its file or the project.

## Why is this bad?
` + "`backward()`" + ` normally frees the saved activations of the graph as it runs
through it. ` + "`retain_graph=True`" + ` keeps them, so they stay on the GPU for as
long as any tensor of the graph is referenced. In a loop, the loss and
outputs of the step are only rebound once the next step has computed new
ones, so the next forward pass runs while the previous step's activations
are still held: peak memory holds roughly two steps' activations instead
of one. Memory does not grow without bound unless the retained graph is
also kept reachable across steps, for example by summing the loss into a
running total without ` + "`.item()`" + `; then every step's activations stay on the
GPU. ` + "`retain_graph=True`" + ` is only needed when another backward or
` + "`autograd.grad`" + ` runs through the same graph afterwards.

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, over 300 training steps, median of 5 runs ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL103.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl103_retain_graph.py)):
` + "`retain_graph=True`" + ` on the only backward keeps 10.01 MiB more allocated
after every step for a small CNN and 18.82 MiB for a small transformer,
and raises every step's peak by 7.97 and 16.99 MiB, about one more step's
activations (an evaluation step of the same models keeps 10.19 and 14.08
MiB). With weights, gradients and optimizer state included, the peak is
1.102 and 1.186 times the peak without it. Memory does not grow from step
to step (0.0 MiB per step).

## Example
` + "```python" + `
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward(retain_graph=True)
    optimizer.step()
` + "```" + `

## Use instead
` + "```python" + `
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
` + "```" + `
If ` + "`retain_graph=True`" + ` was added to silence "Trying to backward through the
graph a second time", a tensor carried over from the previous step (an RNN
hidden state, a running statistic) links the steps' graphs: detach it at
the start of the step (` + "`hidden = hidden.detach()`" + `) instead.

## Known problems
Only literal ` + "`retain_graph=True`" + ` is checked; a variable or expression
(` + "`retain_graph=i < n - 1`" + `) is assumed to be chosen on purpose. The rule
stays silent whenever a later backward or ` + "`autograd.grad`" + ` in the same step
may run through the same graph (GANs, multi-loss updates, gradient
penalties), when ` + "`create_graph`" + ` is given (higher-order gradients), when a
value of the graph with a graph of its own is carried over from an earlier
iteration or comes from outside the loop or function (also from a model of
the project whose object keeps a graph built once, when it was made:
` + "`self.mask_e = self.embedding(mask_id)`" + ` in its ` + "`__init__`" + `, read by its
` + "`forward`" + `, or a loss taken in chunks of one output made before a loop
that runs no forward pass of its own: ` + "`criterion(hyp[i:i + k], gold[i:i + k])`" + `
in ` + "`for i in range(0, n, k)`" + `), and when the retained
loss is returned to a caller, which may back-propagate it again. In a loop
over batches, or a step function, a value from outside (a parameter, an
attribute set elsewhere) has a graph only where the code shows it has one:
it is back-propagated, or another method sets it to a model's output, or
a call of the step function in a loop of the file passes it a value made
before that loop by a call that may keep a graph (a critic trained k
times on one batch of generated samples, its gradient penalty taken
through them: each call's backward runs through the generator's graph
again); in a loop with no data of its own, any value from outside may
have one. Values
computed with grad disabled, detached, or indices (` + "`argmax`" + `, the
indices of ` + "`topk`" + `) have none; nor does an attribute of an imported module
(` + "`np.float32`" + `). Where the retained graph's values go after the backward
is followed as TL101 and TL201 follow theirs: into a later
differentiation (also through a function of the project that
back-propagates what it is given), the graph is needed and nothing is
reported; to code whose use of them is not seen, the finding says so,
one level lower. Whether two losses share a graph is judged from the
assignments in the function: a name the later loss reads that is re-bound
on every path after the retained loss read it (a second update's fresh
forward pass into the same ` + "`q`" + `) holds a new graph; names unpacked from
one call of a model, or of a function that returns values with a graph
(` + "`q1, q2 = self.policy_values(obs)`" + `, both critics reading one actor pass),
may share one. A later backward that reads nothing the file shows may
carry history is taken to share the graph, unless it reads a tensor made
to require grad (an entropy temperature's ` + "`self.log_alpha`" + `), whose loss
is a graph of its own; a function of the file called later in the step
that back-propagates only what it is given (a classification penalty of
` + "`self.criterion.get_loss(out, target)`" + `) shares the graph only where what
it is given does. A function counts as a
training step by its optimizer step, its name or by being called,
directly or through an instance of its class, from a training loop in the
same file; a step function known by none of these (called only from another
module, stepping no optimizer itself) is not checked. A helper's graph
must be built in its body: one that runs through a parameter (a penalty
taken on an interpolation of the caller's fake batch, not detached) may
be the caller's, which a backward of the caller's may run through again,
and is not reported; ` + "`Variable(x, requires_grad=True)`" + `, ` + "`x.detach().requires_grad_()`" + `
and ` + "`x.requires_grad_()`" + ` make leaves, which hold no graph. Tests are not
checked for such helpers.

## References
- [torch.Tensor.backward](https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html)
- [torch.autograd.grad](https://pytorch.org/docs/stable/generated/torch.autograd.grad.html)
- [Autograd mechanics: saved tensors](https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors)
`,
}

// sharesStoredGraph reports whether what call back-propagates is computed
// from an attribute of self (`self.state_values[-1]`) that a method of
// the class back-propagates later (an actor-critic's stored values,
// summed into the episode's loss): the later backward runs through the
// same graph, which the retain keeps for it.
func sharesStoredGraph(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	class := m.EnclosingClass(call)
	loss := f.Unparen(m.Receiver(call))
	if class == analyzer.NoNode || loss == analyzer.NoNode {
		return false
	}
	if f.Kind(loss) == analyzer.KindIdentifier {
		if v := m.AssignedValue(loss); v != analyzer.NoNode {
			loss = v
		}
	}
	keys := map[string]bool{}
	m.ExprKeys(loss, keys)
	fn := m.ScopeNode(call)
	m.AddComputedFrom(fn, keys, 3) // `reward = self.state_values[-1] - new_value`
	// The attributes of self that the class appends to, and that a
	// method other than fn back-propagates, in one walk of the class.
	appended, later := map[string]bool{}, map[string]bool{}
	f.Walk(class, func(id analyzer.NodeID) {
		switch {
		case f.Kind(id) == analyzer.KindCall && m.MethodName(id) == "append":
			appended[f.Text(m.Receiver(id))] = true
		case id != fn && f.Kind(id) == analyzer.KindFunctionDefinition && m.EnclosingClass(id) == class:
			maps.Copy(later, m.BackpropKeys(id, id))
		}
	})
	for k := range keys {
		if strings.HasPrefix(k, "self.") && appended[k] && later[k] {
			return true
		}
	}
	return false
}

// carrying keeps of roots the names that may carry a graph where they
// are first read: not a dict of numbers (`log_dict = dict(loss=l.item())`)
// that the step's loss function was handed to fill and the step returns.
func (g *retainGraph) carrying(roots map[string][]analyzer.NodeID) map[string][]analyzer.NodeID {
	out := make(map[string][]analyzer.NodeID, len(roots))
	for k, uses := range roots {
		if g.MayCarry(k, uses[0]) {
			out[k] = uses
		}
	}
	return out
}

func checkRetainGraph(p *analyzer.Pass, call analyzer.NodeID) {
	f, m := p.File, p.Model
	if !m.IsBackwardCall(call) || !retainsGraphLiterally(m, call) || createsGraph(m, call) || unreachable(m, call) {
		return
	}
	fn := m.ScopeNode(call)
	if sharesStoredGraph(m, call) || rgStepLoop(m, call) == analyzer.NoNode && sharedFromCaller(m, fn) {
		return
	}
	g := &retainGraph{m: m, f: f, fn: fn, Flow: m.Flow(fn)}
	// The step: the innermost loop around the call, or the function itself
	// when it trains one step.
	step := rgStepLoop(m, call)
	// A loop over batches, or a step function given its batch, draws data
	// of its own each step: what comes from outside carries a graph only
	// where the code shows it does.
	g.FreshData = step != analyzer.NoNode && m.Loop(step).Batches ||
		step == analyzer.NoNode && fn != analyzer.Root && rgIsStepFunction(m, fn)
	roots := g.Reach(retainedRoots(m, call))
	if len(roots) == 0 {
		return
	}
	var body analyzer.NodeID
	switch {
	case step != analyzer.NoNode:
		body = f.Field(step, analyzer.FieldBody)
	case fn != analyzer.Root && rgIsStepFunction(m, fn):
		body = f.Field(fn, analyzer.FieldBody)
	case fn != analyzer.Root && m.EnclosingLoop(call) == analyzer.NoNode:
		g.checkHelper(p, call, roots)
		return
	default:
		return
	}
	if step != analyzer.NoNode && g.chunksOuterValue(roots, step) {
		return // the chunks of one graph made before the loop: each chunk's backward runs through it again
	}
	holders, ok := g.builtWithin(roots, body)
	if !ok || len(holders) == 0 {
		return
	}
	if stateGraphPass(m, body) {
		return // a model whose outputs share a graph its object built once: each step runs through it again
	}
	if g.laterBackwardShares(call, body, roots) {
		return
	}
	goes, unseen, carrying := g.laterFate(call, roots)
	if goes == fateYes {
		return
	}
	if step == analyzer.NoNode && g.ReturnsAny(carrying) {
		return // the caller may back-propagate the returned loss again
	}
	if step == analyzer.NoNode && g.keepsOnSelf(roots) {
		return // a state kept for the next call, which the caller may pass back in
	}
	if goes == fateUnknown {
		defer p.Assume(fmt.Sprintf("no later backward runs through the graph: `%s` hands part of it to code whose use of it is not seen",
			analyzer.Snippet(compactText(f, unseen), 40)))
	}
	site := analyzer.Snippet(f.Text(call), 50)
	names := rgNames(holders)
	where := onDevice(f)
	// The keyword the call passes, and a word on the old one.
	kw, old := retainKeyword(m, call), ""
	if kw == "retain_variables" {
		old = " (`retain_variables` is what PyTorch called `retain_graph` before 0.4)"
	}
	if step == analyzer.NoNode {
		rest := ""
		if rgUpdatesOnce(m, fn) {
			rest = " (through the optimizer step and the rest of the step)"
		}
		p.Report(call, fmt.Sprintf("`%s` is the last backward through this step's graph: `%s=True` keeps its saved activations "+
			"%s until `%s` returns%s instead of freeing them during backward; drop `%s=True`%s",
			site, kw, where, m.FunctionName(fn), rest, kw, old))
		if !rgStepCalled(m, fn) && !rgUpdatesOnce(m, fn) {
			p.Assume(fmt.Sprintf("`%s` runs once per training step: known by its name alone", m.FunctionName(fn)))
		}
		return
	}
	if acc := g.accumulation(step, roots); acc != analyzer.NoNode {
		p.Report(call, fmt.Sprintf("`%s` is the last backward through this step's graph, and `%s` keeps it reachable across steps: "+
			"every step's saved activations stay %s and memory grows each step; drop `%s=True` and accumulate a "+
			"detached value (`.item()`)%s", site, analyzer.Snippet(f.Text(acc), 40), where, kw, old))
		return
	}
	// A name bound again later in the same iteration (`D_fake` by the
	// generator's step) lets go of the graph before the next one.
	kept := slices.DeleteFunc(slices.Clone(holders), func(k string) bool { return g.reboundAfter(k, call, body) })
	if len(kept) == 0 {
		p.Report(call, fmt.Sprintf("`%s` is the last backward through this step's graph: `%s=True` keeps its saved activations "+
			"%s until %s rebound later in the iteration, instead of freeing them during backward; drop `%s=True`%s",
			site, kw, where, names, kw, old))
		return
	}
	p.Report(call, fmt.Sprintf("`%s` is the last backward through this step's graph: `%s=True` keeps its saved activations "+
		"%s until %s rebound in the next iteration, so peak memory holds about two steps' activations; "+
		"drop `%s=True`%s", site, kw, where, rgNames(kept), kw, old))
}

// laterFate says where the retained graph's values go after call,
// followed as TL101 and TL201 follow theirs: into another
// differentiation (through a function of the project that
// back-propagates what it is given), or to code whose use of them is not
// seen (unseen, the first such use). carrying are the roots that may
// carry the graph.
func (g *retainGraph) laterFate(call analyzer.NodeID, roots map[string][]analyzer.NodeID) (goes fate, unseen analyzer.NodeID, carrying map[string][]analyzer.NodeID) {
	carrying = g.carrying(roots)
	rootUses := make([]analyzer.NodeID, 0, len(carrying))
	for _, uses := range carrying {
		rootUses = append(rootUses, uses[0])
	}
	slices.Sort(rootUses) // in source order: the map's own would pick the unseen use named at random
	goes, unseen = laterFate(g.m, call, rootUses)
	return goes, unseen, carrying
}

// checkHelper reports a retained backward in a function that trains no
// step of its own (a gradient penalty's helper, called by the step),
// where the whole graph is the function's own: built in its body from
// its data and tensors made to require grad there, run through by no
// later backward of it, and handed to nothing that outlives the call
// (the function returns a number, `penalty.item()`). Whatever calls it,
// the graph is freed when it returns; `retain_graph=True` only keeps
// the saved activations until then. A graph that runs through a
// parameter may be the caller's, which a backward of the caller's may
// run through again: not reported.
func (g *retainGraph) checkHelper(p *analyzer.Pass, call analyzer.NodeID, roots map[string][]analyzer.NodeID) {
	f, m := g.f, g.m
	if testCode(m, g.fn) {
		return // a test runs once, and checks what it likes
	}
	body := f.Field(g.fn, analyzer.FieldBody)
	holders, ok := g.builtWithin(roots, body)
	if !ok || len(holders) == 0 || g.laterBackwardShares(call, body, roots) || g.gradOfParam(roots) {
		return
	}
	if stateGraphPass(m, body) {
		return // a model that keeps a graph on itself: the next call runs through it again
	}
	if goes, _, carrying := g.laterFate(call, roots); goes != fateNo || g.ReturnsAny(carrying) || g.keepsOnSelf(roots) || g.storesOnSelf(roots) {
		return
	}
	kw := retainKeyword(m, call)
	name := m.FunctionName(g.fn)
	p.Report(call, fmt.Sprintf("`%s` is the last backward through a graph that `%s` builds and lets go of when it returns: "+
		"`%s=True` keeps its saved activations %s until then instead of freeing them during backward; drop `%s=True`",
		analyzer.Snippet(f.Text(call), 50), name, kw, onDevice(f), kw))
	if c, site := m.Repeated(g.fn); c == analyzer.NoNode && site == nil {
		p.Assume(fmt.Sprintf("`%s` runs again and again: no loop is seen to call it", name))
	}
}

// gradOfParam reports whether the graph of roots holds the gradient
// that `torch.autograd.grad(outputs=..., inputs=..., create_graph=True)`
// took of values that run through a parameter of the function that may
// carry a graph (a penalty's interpolation of the caller's fake batch):
// the double backward runs through the caller's graph.
func (g *retainGraph) gradOfParam(roots map[string][]analyzer.NodeID) bool {
	f, m := g.f, g.m
	seen := map[analyzer.NodeID]bool{}
	keys := roots
	for range 4 {
		var more []analyzer.NodeID
		for k := range keys {
			for _, s := range g.Sources(k) {
				f.Walk(s.Value, func(id analyzer.NodeID) {
					if f.Kind(id) != analyzer.KindCall || seen[id] || m.CallName(id) != "torch.autograd.grad" {
						return
					}
					seen[id] = true
					// Every argument, `outputs=` and `inputs=` given by name too.
					f.Children(f.Field(id, analyzer.FieldArguments), func(c analyzer.NodeID) bool {
						more = append(more, c)
						return true
					})
				})
			}
		}
		if len(more) == 0 {
			return false
		}
		keys = g.Reach(more)
		for k, uses := range keys {
			if b := m.Resolve(uses[0]); b != nil && b.Kind == analyzer.BindParam && g.MayCarry(k, uses[0]) {
				return true
			}
		}
	}
	return true
}

// storesOnSelf reports whether the function assigns a value of the graph
// (a key of roots) to anything but a plain name of its own: an attribute
// (`self.last = penalty`) or an element of a container, which may
// outlive the call.
func (g *retainGraph) storesOnSelf(roots map[string][]analyzer.NodeID) bool {
	f, m := g.f, g.m
	found := false
	f.Walk(g.fn, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindAssignment || m.ScopeNode(id) != g.fn {
			return
		}
		if left := f.Field(id, analyzer.FieldLeft); f.Kind(left) != analyzer.KindIdentifier {
			keys := map[string][]analyzer.NodeID{}
			g.Keys(f.Field(id, analyzer.FieldRight), keys)
			for k := range keys {
				if _, ok := roots[k]; ok {
					found = true
				}
			}
		}
	})
	return found
}

// reboundAfter reports whether name k is assigned again in body, the
// loop's body, after call and on a path that may follow it (not in the
// other arm of an if around it).
func (g *retainGraph) reboundAfter(k string, call, body analyzer.NodeID) bool {
	f := g.f
	return slices.ContainsFunc(g.Sources(k), func(s analyzer.Source) bool {
		return f.Contains(body, s.Stmt) && f.N(s.Stmt).Start >= f.N(call).End && !exclusiveArms(g.m, call, s.Stmt)
	})
}

// sharedFromCaller reports whether fn, a step function (its backward in
// no loop of its own), uses, without detaching it, a parameter that a
// call of fn in a loop of this file fills with a value that may carry a
// graph, bound before that loop: each call's backward may run through
// the caller's graph again (a critic trained k times on one batch of
// generated samples, its gradient penalty taken through them), so the
// graph must be kept until the last.
func sharedFromCaller(m *analyzer.Model, fn analyzer.NodeID) bool {
	f := m.File
	if fn == analyzer.Root {
		return false
	}
	shared := false
	seen := map[string]bool{}
	f.Walk(f.Field(fn, analyzer.FieldBody), func(u analyzer.NodeID) {
		if shared || f.Kind(u) != analyzer.KindIdentifier || seen[f.Text(u)] {
			return
		}
		if b := m.Resolve(u); b == nil || b.Kind != analyzer.BindParam || m.ScopeNode(u) != fn {
			return
		}
		switch a := f.Parent(u); {
		case f.Kind(a) == analyzer.KindAttribute && f.Field(a, analyzer.FieldObject) == u:
			if at := f.Text(f.Field(a, analyzer.FieldAttribute)); at == "detach" || at == "data" || at == "detach_" {
				return
			}
		case f.Kind(a) == analyzer.KindCall && f.Field(a, analyzer.FieldFunction) == u:
			return // a model or a function the step calls, not a value of its graph
		}
		seen[f.Text(u)] = true
		args, _ := m.ParamArgs(u)
		for _, arg := range args {
			arg = f.Unparen(arg)
			loop := m.EnclosingLoop(arg)
			if loop == analyzer.NoNode || f.Kind(arg) != analyzer.KindIdentifier {
				continue
			}
			bs := m.ReachingBindings(arg)
			before := len(bs) > 0
			for _, b := range bs {
				before = before && !f.Contains(loop, b.Stmt) && mayHoldGraph(m, b)
			}
			shared = shared || before
		}
	})
	return shared
}

// mayHoldGraph reports whether a binding's value may carry a graph: one
// the file shows carries one, or the result of a call made with grad
// enabled that the file cannot see into (`fake = self.sample(n)`, a
// generator's output made by a method of a base class elsewhere), moved
// or reshaped maybe; not data (`batch[0].to(dev)`) nor what torch makes.
func mayHoldGraph(m *analyzer.Model, b *analyzer.Binding) bool {
	if b.Kind != analyzer.BindAssign || b.Value == analyzer.NoNode || m.GradModeAt(b.Stmt) == analyzer.GradDisabled {
		return false
	}
	return valueMayHoldGraph(m, b.Value, 0)
}

// valueMayHoldGraph is mayHoldGraph for an expression.
func valueMayHoldGraph(m *analyzer.Model, v analyzer.NodeID, depth int) bool {
	f := m.File
	v = f.Unparen(v)
	if depth > 6 {
		return false
	}
	if m.CarriesGraph(v) {
		return true
	}
	switch f.Kind(v) {
	case analyzer.KindCall:
		switch m.MethodName(v) {
		case "detach", "item", "cpu", "numpy", "tolist", "size", "argmax", "argmin":
			return false
		case "to", "cuda", "float", "half", "double", "contiguous", "view", "reshape", "permute", "transpose", "squeeze", "unsqueeze":
			return valueMayHoldGraph(m, m.Receiver(v), depth+1)
		}
		q := m.CallName(v)
		return q == "" || !strings.HasPrefix(q, "torch.") && !strings.HasPrefix(q, "numpy.") && !builtinCalls[q]
	case analyzer.KindSubscript:
		return valueMayHoldGraph(m, f.Field(v, analyzer.FieldValue), depth+1)
	case analyzer.KindIdentifier:
		for _, b := range m.ReachingBindings(v) {
			if b.Kind == analyzer.BindAssign && b.Value != analyzer.NoNode && valueMayHoldGraph(m, b.Value, depth+1) {
				return true
			}
		}
	}
	return false
}

// builtinCalls are builtins whose results hold no graph.
var builtinCalls = map[string]bool{"len": true, "range": true, "int": true, "float": true, "str": true, "enumerate": true, "zip": true}

// retainsGraphLiterally reports whether a backward call passes
// retain_graph=True (or retain_variables=True) as a literal.
func retainsGraphLiterally(m *analyzer.Model, call analyzer.NodeID) bool {
	return retainKeyword(m, call) != ""
}

// retainKeyword returns the keyword with which a backward call passes a
// literal True to keep its graph: retain_graph, or retain_variables, the
// name PyTorch gave it before 0.4 (current releases reject it, but code
// written for those runs as it did); "" when it passes neither.
func retainKeyword(m *analyzer.Model, call analyzer.NodeID) string {
	if v := autogradArg(m, call, "retain_graph"); v != analyzer.NoNode {
		if m.File.Kind(m.File.Unparen(v)) == analyzer.KindTrue {
			return "retain_graph"
		}
		return ""
	}
	if v := m.Keyword(call, "retain_variables"); v != analyzer.NoNode && m.File.Kind(m.File.Unparen(v)) == analyzer.KindTrue {
		return "retain_variables"
	}
	return ""
}

// createsGraph reports whether the call passes create_graph other than a
// literal False: higher-order gradients need the graph kept.
func createsGraph(m *analyzer.Model, call analyzer.NodeID) bool {
	v := autogradArg(m, call, "create_graph")
	return v != analyzer.NoNode && m.File.Kind(m.File.Unparen(v)) != analyzer.KindFalse
}

// autogradPositions are where torch.autograd.backward (tensors,
// grad_tensors, retain_graph, create_graph) and torch.autograd.grad
// (outputs, inputs, grad_outputs, retain_graph, create_graph) take
// retain_graph and create_graph by position.
var autogradPositions = map[string]map[string]int{
	"torch.autograd.backward": {"retain_graph": 2, "create_graph": 3},
	"torch.autograd.grad":     {"retain_graph": 3, "create_graph": 4},
}

// autogradArg returns the value a backward call passes for name, by
// keyword or, for the torch.autograd functions, by position; NoNode when
// it passes none.
func autogradArg(m *analyzer.Model, call analyzer.NodeID, name string) analyzer.NodeID {
	if v := m.Keyword(call, name); v != analyzer.NoNode {
		return v
	}
	if i, ok := autogradPositions[m.CallName(call)][name]; ok {
		if args := m.Args(call); len(args) > i {
			return args[i]
		}
	}
	return analyzer.NoNode
}

// retainedRoots returns the expressions whose graph a backward call runs
// through: the tensor of `loss.backward()`, the loss handed to
// `accelerator.backward(loss)` or `self.manual_backward(loss)`, the
// outputs of `torch.autograd.grad`, and, where the call reads otherwise,
// every positional argument.
func retainedRoots(m *analyzer.Model, call analyzer.NodeID) []analyzer.NodeID {
	f := m.File
	args := m.Args(call)
	switch m.CallName(call) {
	case "torch.autograd.grad", "torch.autograd.backward":
		for _, kw := range []string{"outputs", "tensors"} {
			if v := m.Keyword(call, kw); v != analyzer.NoNode {
				return []analyzer.NodeID{v}
			}
		}
		if len(args) > 0 {
			return args[:1]
		}
		return nil
	}
	recv := m.Receiver(call)
	if recv == analyzer.NoNode || f.TextIs(recv, "self") {
		return args
	}
	if len(args) > 0 && !m.CarriesGraph(recv) && (m.MethodName(call) == "manual_backward" || m.CarriesGraph(args[0]) || rgWrapperName(f, recv)) {
		return args[:1]
	}
	return append([]analyzer.NodeID{recv}, args...)
}

// rgWrapperName reports whether a receiver of `.backward(loss)` reads as a
// training wrapper (Accelerate, DeepSpeed, Fabric, an optimizer or a
// scaler) rather than a tensor.
func rgWrapperName(f *analyzer.File, recv analyzer.NodeID) bool {
	name := strings.ToLower(f.Text(recv))
	for _, w := range []string{"accelerator", "engine", "fabric", "optim", "scaler", "trainer", "strategy", "model"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return name == "opt"
}

// rgStepLoop returns the innermost for or while loop around call in its
// function, or NoNode.
func rgStepLoop(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	f := m.File
	l := m.EnclosingLoop(call)
	// `for _ in range(G_ITERS):` with G_ITERS = 1 runs within one
	// iteration of the loop around it, which is the step.
	for l != analyzer.NoNode && (f.Kind(l) != analyzer.KindForStatement && f.Kind(l) != analyzer.KindWhileStatement || m.RangeOfOne(l)) {
		l = m.EnclosingLoop(l)
	}
	if l == analyzer.NoNode || !m.Loop(l).PerStep() {
		return analyzer.NoNode
	}
	return l
}

// stepFunctionNames are the names of functions that train one step.
var stepFunctionNames = map[string]bool{
	"training_step": true, "train_step": true, "train_batch": true, "train_on_batch": true,
	"train_one_step": true, "train_iter": true, "train_iteration": true, "training_iteration": true,
	"optimize_parameters": true, "train_one_batch": true, "update_step": true,
}

// rgIsStepFunction reports whether fn trains one step: it is named so, it
// steps an optimizer once (rgUpdatesOnce), or a loop of this file that
// runs once per batch calls it.
func rgIsStepFunction(m *analyzer.Model, fn analyzer.NodeID) bool {
	return stepFunctionNames[strings.TrimLeft(m.FunctionName(fn), "_")] || rgUpdatesOnce(m, fn) || rgStepCalled(m, fn)
}

// rgUpdatesOnce reports whether fn's own body, outside any loop of its
// own, steps an optimizer (`self.opt.step()`): whatever its name
// (`learn`, `update`), one call is one training step.
func rgUpdatesOnce(m *analyzer.Model, fn analyzer.NodeID) bool {
	if fn == analyzer.Root {
		return false
	}
	return m.Memo(rgUpdatesKey{fn}, func() any {
		f := m.File
		found := false
		f.Walk(f.Field(fn, analyzer.FieldBody), func(id analyzer.NodeID) {
			if found || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != fn || m.EnclosingLoop(id) != analyzer.NoNode {
				return
			}
			_, found = optimizerStep(m, id)
		})
		return found
	}).(bool)
}

type rgUpdatesKey struct{ fn analyzer.NodeID }

// rgStepCalled reports whether fn is called per step in this file (see
// rgCalledPerStep), once per function.
func rgStepCalled(m *analyzer.Model, fn analyzer.NodeID) bool {
	return m.Memo(rgStepFnKey{fn}, func() any { return rgCalledPerStep(m, fn) }).(bool)
}

type rgStepFnKey struct{ fn analyzer.NodeID }

// rgCalledPerStep reports whether some call of fn in this file sits in a
// loop that iterates batches, and no use of fn is other than a call.
func rgCalledPerStep(m *analyzer.Model, fn analyzer.NodeID) bool {
	f := m.File
	name := m.FunctionName(fn)
	found := false
	f.Walk(analyzer.Root, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall {
			return
		}
		callee := f.Field(id, analyzer.FieldFunction)
		if f.Kind(callee) != analyzer.KindAttribute || !f.TextIs(f.Field(callee, analyzer.FieldAttribute), name) {
			if f.Kind(callee) != analyzer.KindIdentifier || !f.TextIs(callee, name) {
				return
			}
		}
		// The function itself, a method of its class through self, or
		// through an instance of its class (`agent.update(batch)`).
		if m.LocalCallee(id) != fn {
			return
		}
		if l := m.EnclosingLoop(id); l != analyzer.NoNode && m.Loop(l).Batches {
			found = true
		}
	})
	return found
}

// retainGraph is the flow of the function of one backward call.
type retainGraph struct {
	*analyzer.Flow
	m  *analyzer.Model
	f  *analyzer.File
	fn analyzer.NodeID
}

// chunksOuterValue reports whether the graph retained in loop is
// computed from slices, indexed by the loop's counter, of a name the
// loop does not bind (`loss = criterion(hyp[i:i + k], gold[i:i + k])` in
// `for i in range(0, n, k)`, hyp the output of a forward pass before the
// loop), and the loop runs no forward pass of its own: a loss taken in
// chunks, whose every chunk's backward runs through the graph of that one
// value again.
func (g *retainGraph) chunksOuterValue(keys map[string][]analyzer.NodeID, loop analyzer.NodeID) bool {
	f := g.f
	if f.Kind(loop) != analyzer.KindForStatement || g.m.Loop(loop).Forward {
		return false // a forward pass of its own builds a graph in each iteration
	}
	counters := map[string]bool{}
	f.Walk(f.Field(loop, analyzer.FieldLeft), func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindIdentifier {
			counters[f.Text(id)] = true
		}
	})
	body := f.Field(loop, analyzer.FieldBody)
	for k, uses := range keys {
		outside := true
		for _, s := range g.Sources(k) {
			outside = outside && !f.Contains(loop, s.Stmt)
		}
		if !outside || len(g.Sources(k)) == 0 {
			continue
		}
		for _, u := range uses {
			sub := f.Parent(u)
			if !f.Contains(body, u) || f.Kind(sub) != analyzer.KindSubscript || f.Field(sub, analyzer.FieldValue) != u {
				continue
			}
			indexed := false
			f.Children(sub, func(c analyzer.NodeID) bool {
				if c != u {
					f.Walk(c, func(id analyzer.NodeID) {
						indexed = indexed || f.Kind(id) == analyzer.KindIdentifier && counters[f.Text(id)]
					})
				}
				return !indexed
			})
			if indexed {
				return true
			}
		}
	}
	return false
}

// builtWithin reports whether every key of the graph that may carry
// history gets its value inside body (one iteration of the loop, or the
// step function) before the step reads it, so that the graph is built
// afresh by each step and shares nothing with the previous one. Where a
// read may see an older value (the assignment before it is conditional),
// every value from before the step must be free of history. It returns
// the names that hold the graph.
func (g *retainGraph) builtWithin(keys map[string][]analyzer.NodeID, body analyzer.NodeID) ([]string, bool) {
	f := g.f
	var holders []string
	for k, uses := range keys {
		if !g.MayCarry(k, uses[0]) {
			continue
		}
		inside, conditional, leaves := false, false, true
		for _, s := range g.Sources(k) {
			inside = inside || f.Contains(body, s.Stmt)
			leaves = leaves && s.Value != analyzer.NoNode && (g.Leaf(s.Value) || madeLeaf(g.m, s.Value))
		}
		if !inside {
			return nil, false // a graph from outside the step
		}
		if leaves {
			continue // an input that requires grad is a leaf: it holds no graph
		}
		// A read before the first assignment in the step sees the value
		// of the previous step (an RNN's hidden state).
		for _, u := range uses {
			if !f.Contains(body, u) {
				continue
			}
			ok, always := g.AssignedBefore(k, u, body)
			if !ok {
				return nil, false
			}
			conditional = conditional || !always
		}
		if conditional {
			for _, s := range g.Sources(k) {
				if !f.Contains(body, s.Stmt) && f.N(s.Stmt).Start < f.N(body).End && (s.Loop || !g.Leaf(s.Value)) {
					return nil, false
				}
			}
		}
		holders = append(holders, k)
	}
	sort.Strings(holders)
	return holders, true
}

// laterBackwardShares reports whether a backward or autograd.grad after
// call in the same function may run through the same graph, or a later
// call in the step may back-propagate where this file cannot see (a
// local function that calls backward, a function named like backward).
func (g *retainGraph) laterBackwardShares(call, body analyzer.NodeID, roots map[string][]analyzer.NodeID) bool {
	f, m := g.f, g.m
	shares := false
	end := f.N(call).End
	f.Walk(g.fn, func(id analyzer.NodeID) {
		if shares || id == call || f.Kind(id) != analyzer.KindCall || f.N(id).Start < end {
			return
		}
		inStep := f.Contains(body, id)
		if !m.IsBackwardCall(id) {
			shares = inStep && (g.backpropagatesUnseen(id) || g.backpropagatesShared(id, roots))
			return
		}
		var exprs []analyzer.NodeID
		if r := m.Receiver(id); r != analyzer.NoNode {
			exprs = append(exprs, r)
		}
		f.Children(f.Field(id, analyzer.FieldArguments), func(c analyzer.NodeID) bool {
			exprs = append(exprs, c)
			return true
		})
		later := g.Reach(exprs)
		if g.sharesRoots(later, roots) || g.readsOpaqueState(later, end, f.N(id).Start) {
			shares = true
			return
		}
		if g.sameForward(roots, later) {
			shares = true // `out, aux = model(x)`: one graph, two outputs
			return
		}
		if !inStep {
			return // after the step: only a name of this graph links them
		}
		// A later backward whose graph cannot be told apart (nothing
		// it reads may carry history as far as this file shows), unless
		// it reads a tensor made to require grad: a graph of that leaf's
		// own making (an entropy temperature's loss).
		any, leaf := false, false
		for k, uses := range later {
			any = any || g.MayCarry(k, uses[0])
			leaf = leaf || g.GradLeafKey(k)
		}
		shares = !any && !leaf
	})
	return shares
}

// readsOpaqueState reports whether keys (a later backward's, as Reach
// gives them) take a value from a call, made between the retained
// backward (which ends at from) and the later one (at to), of a callable
// given nothing and known only by a parameter or a name of elsewhere
// (`feature, grad = back_guide()`): what hooks kept of the retained
// graph, which the later backward may run through again.
func (g *retainGraph) readsOpaqueState(keys map[string][]analyzer.NodeID, from, to uint32) bool {
	f, m := g.f, g.m
	for k, uses := range keys {
		reach, known := g.bindingsAt(uses)
		for _, s := range g.Sources(k) {
			if known && !reach[s.Stmt] || f.N(s.Stmt).Start < from || f.N(s.Stmt).Start >= to {
				continue
			}
			v := f.Unparen(s.Value)
			if f.Kind(v) != analyzer.KindCall || f.FirstChild(f.Field(v, analyzer.FieldArguments)) != analyzer.NoNode {
				continue
			}
			if fn := f.Unparen(f.Field(v, analyzer.FieldFunction)); f.Kind(fn) == analyzer.KindIdentifier {
				if b := m.Resolve(fn); (b == nil && m.QualifiedName(fn) == "" || b != nil && b.Kind == analyzer.BindParam) && !g.calledBefore(f.Text(fn), from) {
					return true
				}
			}
		}
	}
	return false
}

// calledBefore reports whether the function calls name before offset at:
// a callable that gave the step its data (`x, y = next_batch()`) is a
// source of data, not of what hooks kept.
func (g *retainGraph) calledBefore(name string, at uint32) bool {
	f := g.f
	found := false
	f.Walk(g.fn, func(id analyzer.NodeID) {
		if !found && f.Kind(id) == analyzer.KindCall && f.N(id).Start < at {
			fn := f.Unparen(f.Field(id, analyzer.FieldFunction))
			found = f.Kind(fn) == analyzer.KindIdentifier && f.TextIs(fn, name)
		}
	})
	return found
}

// sameValues reports whether two sets of uses of one key may read the
// same value: a name re-bound between them (`q = self.critic(...)` again,
// for a second update's fresh forward pass) holds a new graph at the
// later uses. Uses whose bindings cannot be told apart (an attribute of
// self, a parameter, a name of an enclosing scope) may.
func (g *retainGraph) sameValues(a, b []analyzer.NodeID) bool {
	sa, oka := g.bindingsAt(a)
	sb, okb := g.bindingsAt(b)
	if !oka || !okb || len(sa) == 0 || len(sb) == 0 {
		return true
	}
	for s := range sa {
		if sb[s] {
			return true
		}
	}
	return false
}

// bindingsAt returns the statements whose bindings may reach the uses,
// all names of the function's own scope; ok is false where a use is
// something else.
func (g *retainGraph) bindingsAt(uses []analyzer.NodeID) (map[analyzer.NodeID]bool, bool) {
	f, m := g.f, g.m
	stmts := map[analyzer.NodeID]bool{}
	for _, u := range uses {
		if f.Kind(u) != analyzer.KindIdentifier || m.ScopeNode(u) != g.fn {
			return nil, false
		}
		for _, b := range m.ReachingBindings(u) {
			if b.Kind == analyzer.BindParam {
				return nil, false
			}
			stmts[b.Stmt] = true
		}
	}
	return stmts, true
}

// sameForward reports whether two sets of keys hold outputs of the same
// forward pass: names unpacked from one call of a model
// (`output, dec_output = model(x)`), whose graphs share its layers, or of
// a function that returns values with a graph.
func (g *retainGraph) sameForward(a, b map[string][]analyzer.NodeID) bool {
	f, m := g.f, g.m
	srcs := m.Sources(g.fn)
	calls := map[analyzer.NodeID]bool{}
	for k, uses := range a {
		// Only the bindings that reach the graph's uses: `D_fake, _, _ =
		// D(fake)` bound again by the next update's own pass
		// (`D_fake, D_cont, D_disc = D(G(z))`) holds another graph.
		reach, known := g.bindingsAt(uses)
		for _, s := range srcs[k] {
			if f.Kind(s.Stmt) != analyzer.KindAssignment || s.Loop || known && !reach[s.Stmt] {
				continue
			}
			switch f.Kind(f.Field(s.Stmt, analyzer.FieldLeft)) {
			case analyzer.KindPatternList, analyzer.KindTuplePattern, analyzer.KindExpressionList, analyzer.KindTuple, analyzer.KindListPattern:
				// A model's outputs share its layers; a function's that it
				// returns together (`q1, q2 = self.policy_values(obs)`) may
				// share a pass it ran for both.
				if v := f.Unparen(s.Value); f.Kind(v) == analyzer.KindCall && (m.IsForwardCall(v) || m.CarriesGraph(v)) {
					calls[s.Stmt] = true
				}
			}
		}
	}
	for k := range b {
		if _, both := a[k]; both {
			continue
		}
		for _, s := range srcs[k] {
			if calls[s.Stmt] {
				return true
			}
		}
	}
	return false
}

// backpropagatesUnseen reports whether a call may back-propagate inside a
// function through more than it is given: a function or method of this
// file whose backward may run through a graph from elsewhere than its
// parameters (an attribute of self, a global), one that calls a function
// named like backward, or one named like backward itself. What a callee
// does with the values it is given, backpropagatesShared asks.
func (g *retainGraph) backpropagatesUnseen(call analyzer.NodeID) bool {
	f, m := g.f, g.m
	fn := f.Field(call, analyzer.FieldFunction)
	name := strings.ToLower(lastIdent(f, fn))
	if strings.Contains(name, "backward") || strings.Contains(name, "closure") {
		return true
	}
	def := m.LocalCallee(call)
	if def == analyzer.NoNode || f.Kind(def) != analyzer.KindFunctionDefinition {
		return false
	}
	return m.Memo(rgBackpropsKey{def}, func() any {
		params := map[string]bool{}
		for _, p := range m.PositionalParams(def) {
			params[f.Text(p)] = true
		}
		fl := m.Flow(def)
		found := false
		f.Walk(def, func(id analyzer.NodeID) {
			if found || f.Kind(id) != analyzer.KindCall {
				return
			}
			if !m.IsBackwardCall(id) {
				found = strings.Contains(strings.ToLower(lastIdent(f, f.Field(id, analyzer.FieldFunction))), "backward")
				return
			}
			if m.ScopeNode(id) != def {
				found = true // a function of its own
				return
			}
			for k, uses := range fl.Reach(retainedRoots(m, id)) {
				if params[k] || !fl.MayCarry(k, uses[0]) {
					continue
				}
				if !strings.Contains(k, ".") && len(fl.Sources(k)) > 0 {
					continue // a name of its own, whose values Reach followed
				}
				if objectGivenParams(m, uses, params) {
					continue // `self.criterion.get_loss(out, target)`: computed from what it is given
				}
				found = true
				return
			}
		})
		return found
	}).(bool)
}

type rgBackpropsKey struct{ def analyzer.NodeID }

// objectGivenParams reports whether every use of a key is the object of
// a method call, not a tensor's, that is given a parameter of the
// function (`self.criterion.get_loss(out, target)`, out a parameter): an
// object that computes a value from what it is given.
func objectGivenParams(m *analyzer.Model, uses []analyzer.NodeID, params map[string]bool) bool {
	f := m.File
	for _, u := range uses {
		attr := f.Parent(u)
		call := f.Parent(attr)
		if f.Kind(attr) != analyzer.KindAttribute || f.Field(attr, analyzer.FieldObject) != u ||
			f.Kind(call) != analyzer.KindCall || f.Field(call, analyzer.FieldFunction) != attr ||
			analyzer.TensorMethod(m.MethodName(call)) {
			return false
		}
		given := false
		for _, a := range m.Args(call) {
			if a = f.Unparen(a); f.Kind(a) == analyzer.KindIdentifier && params[f.Text(a)] {
				given = true
			}
		}
		if !given {
			return false
		}
	}
	return len(uses) > 0
}

// stateGraphPass reports whether the step runs a forward pass of a model
// whose outputs share a graph built once in its object's state
// (ForwardStateGraph): the backward of every step runs through that part
// again, so it must be retained.
func stateGraphPass(m *analyzer.Model, body analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(body, func(id analyzer.NodeID) {
		found = found || f.Kind(id) == analyzer.KindCall && m.ForwardStateGraph(id)
	})
	return found
}

// backpropagatesShared reports whether call hands a value of the retained
// graph to a function of the project that back-propagates what it is
// given there, by its facts (`balancer.step([loss_a, loss_b])`, whose
// method runs `backward()` on each loss of the list).
func (g *retainGraph) backpropagatesShared(call analyzer.NodeID, roots map[string][]analyzer.NodeID) bool {
	m := g.m
	for _, a := range m.Args(call) {
		backprop := false
		if m.File.Kind(a) == analyzer.KindKeywordArgument {
			// A parameter given by name: any, of a function of this
			// file that back-propagates one.
			def := m.LocalCallee(call)
			backprop = def != analyzer.NoNode && m.File.Kind(def) == analyzer.KindFunctionDefinition && len(m.BackpropParams(def)) > 0
		} else {
			_, backprop, _, _ = m.ArgUse(call, a)
		}
		if backprop {
			if r := g.Reach([]analyzer.NodeID{a}); g.sharesRoots(r, roots) || g.sameForward(roots, r) {
				return true
			}
		}
	}
	return false
}

// sharesRoots reports whether values a later backward reaches (later, as
// Reach gives them) may hold the retained graph's roots: a key of both,
// with a graph, that may read the same value at both.
func (g *retainGraph) sharesRoots(later, roots map[string][]analyzer.NodeID) bool {
	for k, uses := range later {
		if rootUses, ok := roots[k]; ok && g.MayCarry(k, uses[0]) && g.sameValues(rootUses, uses) {
			return true
		}
	}
	return false
}

// accumulation returns a statement in the step loop that keeps a value
// of the graph reachable after the step: `total += loss` or
// `losses.append(loss)` into a container that the step does not rebind.
func (g *retainGraph) accumulation(loop analyzer.NodeID, roots map[string][]analyzer.NodeID) analyzer.NodeID {
	f, m := g.f, g.m
	body := f.Field(loop, analyzer.FieldBody)
	found := analyzer.NoNode
	f.Walk(body, func(id analyzer.NodeID) {
		if found != analyzer.NoNode {
			return
		}
		var target, value analyzer.NodeID
		switch f.Kind(id) {
		case analyzer.KindAugmentedAssignment:
			if !f.TextIs(f.Field(id, analyzer.FieldOperator), "+=") {
				return
			}
			target, value = f.Field(id, analyzer.FieldLeft), f.Field(id, analyzer.FieldRight)
		case analyzer.KindCall:
			if m.MethodName(id) != "append" || len(m.Args(id)) != 1 {
				return
			}
			target, value = m.Receiver(id), m.Args(id)[0]
		default:
			return
		}
		keys := map[string][]analyzer.NodeID{}
		g.Keys(value, keys)
		hit := false
		for k := range keys {
			if _, ok := roots[k]; ok && g.MayCarry(k, keys[k][0]) {
				hit = true
			}
		}
		if !hit || !m.CarriesGraph(value) {
			return
		}
		tk := map[string][]analyzer.NodeID{}
		g.Keys(target, tk)
		for k := range tk {
			for _, s := range g.Sources(k) {
				if f.Contains(body, s.Stmt) && s.Stmt != id && f.N(s.Stmt).End <= f.N(id).Start && f.Kind(s.Stmt) == analyzer.KindAssignment {
					return // rebound earlier in the step
				}
			}
		}
		found = id
	})
	if found != analyzer.NoNode && f.Kind(found) == analyzer.KindCall {
		return f.Parent(found)
	}
	return found
}

// rgNames renders the names that hold a graph: "`loss` is", "`out` and
// `loss` are".
// keepsOnSelf reports whether the function keeps on self a value with a
// graph computed from a parameter the retained graph also runs through
// (`out, h = self.rnn(x, state)`, then `self.state = h`): the caller may
// pass it back in the next call, linking the steps' graphs.
func (g *retainGraph) keepsOnSelf(roots map[string][]analyzer.NodeID) bool {
	f, m := g.f, g.m
	found := false
	f.Walk(g.fn, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindAssignment || m.ScopeNode(id) != g.fn {
			return
		}
		left := f.Field(id, analyzer.FieldLeft)
		value := f.Field(id, analyzer.FieldRight)
		if f.Kind(left) != analyzer.KindAttribute || !strings.HasPrefix(analyzer.FlowKey(f, left), "self.") || !m.CarriesGraph(value) {
			return
		}
		for k, uses := range g.Reach([]analyzer.NodeID{value}) {
			if _, ok := roots[k]; !ok {
				continue
			}
			if b := m.Resolve(uses[0]); b != nil && b.Kind == analyzer.BindParam {
				found = true
			}
		}
	})
	return found
}

func rgNames(names []string) string {
	if len(names) > 3 {
		names = names[:3]
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	if len(q) == 1 {
		return q[0] + " is"
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1] + " are"
}

// madeLeaf reports whether a value is a leaf by the call that makes it:
// `.requires_grad_()` (which only a leaf accepts) or `.detach()`.
func madeLeaf(m *analyzer.Model, v analyzer.NodeID) bool {
	v = m.File.Unparen(v)
	if m.File.Kind(v) != analyzer.KindCall {
		return false
	}
	switch m.MethodName(v) {
	case "requires_grad_", "detach":
		return true
	}
	return false
}
