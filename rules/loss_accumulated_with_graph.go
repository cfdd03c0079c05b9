package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// LossAccumulatedWithGraph is TL101.
var LossAccumulatedWithGraph = &analyzer.Rule{
	Code:      "TL101",
	Name:      "loss-accumulated-with-graph",
	Summary:   "A tensor that carries autograd history is accumulated across loop iterations",
	Severity:  analyzer.SeverityWarning,
	Precision: "high",
	// Read on code none of us wrote, its findings of high confidence were
	// right or right but minor 37 times in 41 (counting 11 whose message,
	// since corrected, stated the wrong cost), those of medium confidence
	// once in 11: shown from high.
	Confidence: analyzer.ConfidenceHigh,
	Tags:       []string{"memory", "autograd", "performance"},
	Fixable:    true,
	Kinds:      []analyzer.Kind{analyzer.KindAugmentedAssignment, analyzer.KindAssignment, analyzer.KindCall},
	Check:      checkLossAccumulated,
	Doc: `## What it does
Checks for a tensor that still carries autograd history (a loss, a model
output, arithmetic on them) being added into a running total that outlives
the loop iteration, such as ` + "`total_loss += loss`" + `, or concatenated onto one
(` + "`preds = torch.cat((preds, out))`" + `, also ` + "`torch.concat`" + `, ` + "`concatenate`" + `, ` + "`vstack`" + `,
` + "`hstack`" + `, ` + "`dstack`" + ` and ` + "`row_stack`" + `,
and ` + "`acc = out if acc is None else torch.cat((acc, out))`" + `), while grad is
enabled.
It also checks a call, in a loop, of a method of the project that adds one
of its parameters into an attribute of its object, as metric meters do
(` + "`self.sum += val * n`" + `, ` + "`self.values.append(val)`" + `, in place: ` + "`self.total.add_(val)`" + `,
or of an attribute a ` + "`copy_(val)`" + ` filled), when the argument
carries autograd history: ` + "`losses.update(loss, n)`" + `.

## Why is this bad?
The sum (or the concatenation) is itself part of the autograd graph: it
keeps a reference to every step's graph, so nothing of those graphs can be freed until the
total is. What that costs depends on whether each step's graph was
back-propagated:

- **Never back-propagated** (an evaluation loop with grad enabled, a graph
  kept by ` + "`retain_graph=True`" + `): every step's saved activations stay on the GPU.
  GPU memory grows by the activations of one step per iteration until the
  run fails with ` + "`CUDA out of memory`" + `.
- **Already back-propagated** (` + "`loss.backward()`" + ` then ` + "`total += loss`" + `):
  ` + "`backward()`" + ` frees the saved activations of the graph it runs through,
  so GPU memory does not grow. The chain of autograd nodes still does, in
  host memory, and ` + "`total`" + ` is left a tensor that requires grad, so every
  later use of it (logging, ` + "`total / n`" + `) extends the graph further. A
  metric computed outside the loss from outputs that the loss
  back-propagates (` + "`total_l1 += F.l1_loss(out, y)`" + ` after ` + "`loss.backward()`" + `)
  costs the same: only the metric's own saved tensors stay on the GPU, and
  its chain of autograd nodes in host memory. A backward with
  ` + "`retain_graph=True`" + ` frees nothing: there, the activations stay on the GPU too.

Either way the fix is the same: accumulate a detached tensor with
` + "`.detach()`" + ` and read it once after the loop, or a Python number with
` + "`.item()`" + ` every step, which makes the host wait for the GPU each time
(TL501 measures what that wait costs).

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, over 300 steps, median of 5 runs ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL101.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl101_accumulate.py)):
summing the loss of an evaluation loop with grad enabled grows GPU memory
by 10.19 MiB per step for a small CNN and by 14.08 MiB for a small
transformer, so a 1 GiB budget is gone at step 101 and 73. Summed after
its ` + "`backward()`" + `, the loss grows GPU memory by 0.0 MiB per step but host
memory by 16.1 and 71.76 KiB per step (1 GiB at step 65110 and 14613). A
metric of the back-propagated logits (the Brier score, ` + "`F.mse_loss`" + ` of
their softmax) behaves like the latter: 0.002 MiB per step on the GPU,
17.81 and 73.72 KiB on the host. With ` + "`.item()`" + `, GPU memory does not grow
and host memory grows by at most 0.22 KiB per step.

## Example
` + "```python" + `
total_loss = 0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    total_loss += loss
` + "```" + `

## Use instead
` + "```python" + `
total_loss = 0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    total_loss += loss.detach()
total_loss = float(total_loss)
` + "```" + `
` + "`float()`" + ` rather than ` + "`.item()`" + ` after the loop: if the loop ran no step,
` + "`total_loss`" + ` is still the number it started as.

## Fix safety
The fix accumulates ` + "`.detach()`" + `: the total stays the tensor it already
was after the first step, without its graph, so the code after the loop
runs as it did (` + "`total / n`" + ` still prints, ` + "`total.cpu()`" + ` still works), and
no step waits for the GPU. Convert it once after the loop where a number
is wanted. An argument passed to a method that keeps it (a meter's
` + "`update`" + `) gets ` + "`.item()`" + ` when it is a loss or a reduction, as such a
method expects a number, and ` + "`.detach()`" + ` otherwise. The fix is unsafe:
the accumulator may be back-propagated later in code the rule cannot
see.

## Known problems
Where a running sum of the function goes after the loop is followed as
TL201 follows a forward pass's outputs: a sum seen to reach a
` + "`backward()`" + ` is a loss built on purpose and is not reported; one handed to
code whose use of it is not seen (a logger of another library) makes the
finding say so, one level lower, unless each summed loss had its own
backward() in its step without ` + "`retain_graph=True`" + `: a graph that
backward() has freed cannot be back-propagated again, wherever the sum
goes.

Whether a value carries autograd history is inferred from what the code
does with it first: a value that is ` + "`backward()`" + `-ed (directly, through
` + "`scaler.scale(...)`" + `, ` + "`accelerator.backward(...)`" + `, ` + "`torch.autograd`" + `, a loss scaler
of timm called with it, ` + "`loss_scaler(loss, optimizer)`" + `, or an instance of a class of the
project whose ` + "`__call__`" + ` back-propagates what it is given) carries one, and so do the values it was computed from back to the forward
pass; then from calls of models and loss functions (recognised by use, by
their construction or class in any file of the project, type annotations,
and only last by conventional names such as ` + "`model`" + ` and ` + "`criterion`" + `),
and arithmetic on their results. A project function's result carries a
graph when the function returns one, or computes its result from a
parameter that is given one (` + "`return ((pred - y) ** 2).mean()`" + `); of a
tuple it returns, each element carries what the function puts there, or
computes from a parameter that is given one, and of a tuple from a
function that cannot be seen, the element that is back-propagated is the
loss and the others are what it reports. A loss function given as an
argument (` + "`train(model, opt, vae_loss, loader)`" + ` at every call of ` + "`train`" + ` in the
file, also through ` + "`functools.partial`" + `) or made by a factory of the file
(` + "`make_loss(beta)`" + `, which returns a function it defines) is read as if it
were called by name; one that only the callers in other files pass is not
seen. A tuple whose first element a loss is computed from
(` + "`recon, mu = model(x)`" + ` then ` + "`F.mse_loss(recon, x)`" + `) is the outputs of one
forward pass, each with a graph, whatever its callee is taken for. An unknown
function (` + "`accuracy(out, y)`" + `) is not assumed to return a graph. A function of
the file whose every forward pass runs under ` + "`with torch.set_grad_enabled(flag):`" + `,
flag one of its parameters, returns a graph only through its arguments
where a call gives flag ` + "`False`" + ` (` + "`self.step(batch, track_gradient=False)`" + `). A sum that
is back-propagated on purpose (a multi-task loss built in a loop and then
` + "`backward()`" + `-ed, or returned to the caller, also when the loop takes derivatives
to be differentiated again, ` + "`torch.autograd.grad(..., create_graph=True)`" + `,
as a divergence does) is not reported; a list that ` + "`+=`" + ` extends is no sum,
nor is an entry of a tensor the function makes, indexed by the counter of
the loop over a range that fills it (` + "`outputs[t] += h`" + ` in
` + "`for t in range(n)`" + `, one entry per token of a sequence), unless a loop around
it fills the same tensor again;
this follows
the statements in order, so a name summed again in a later loop, or re-bound
after the loop, is judged by the value it holds there. A loop within one
optimizer step (over environments or tasks, with the step after the loop)
is judged by the loop of steps around it, if any.

A method keeps an argument when it adds the parameter itself, or
arithmetic on it, into an attribute of ` + "`self`" + `; a parameter converted
first (` + "`val = float(val)`" + `) is not kept. The method is found as TL201
finds one: through a name bound once to an instance of a project class, or
an attribute of ` + "`self`" + ` assigned once to one; an object made afresh in
each iteration is not reported. A container that holds at most a bound
(made a ` + "`deque(maxlen=n)`" + `, stored into under a test of its length, or
trimmed by one, as an image pool is) does not grow: it is reported only
for graphs that no backward() of the step ran through, whose activations
it keeps as many of as it holds. Nor is a rollout storage reported: an object whose
values a loop around the call takes back out (` + "`values, log_probs = rollout.sample()`" + `)
into what it back-propagates, then empties (` + "`rollout.clear()`" + `), as the update
of an actor-critic does with the graphs it kept; a replay buffer, sampled
but never emptied, is reported. Of the tuple a forward pass of
a project class returns, each element carries what its ` + "`forward`" + ` puts
there (` + "`return action.numpy()[0], self.v(h)`" + `: the action is a number).
In a product that is back-propagated, one factor with a graph is enough:
where one factor is seen to carry one (a forward pass, the log-probability
of a distribution made from one), the other (` + "`reward`" + ` from
` + "`env.step(...)`" + `) is not taken to carry one on that evidence.

## References
- [PyTorch FAQ: My model reports "cuda runtime error(2): out of memory"](https://pytorch.org/docs/stable/notes/faq.html#my-model-reports-cuda-runtime-error-2-out-of-memory)
- [Autograd mechanics: saved tensors](https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors)
`,
}

func checkLossAccumulated(p *analyzer.Pass, n analyzer.NodeID) {
	f, m := p.File, p.Model
	if f.Kind(n) == analyzer.KindCall {
		checkKept(p, n)
		return
	}
	target, value := accumulation(m, n)
	if value == analyzer.NoNode {
		return
	}
	switch f.Kind(target) {
	case analyzer.KindIdentifier, analyzer.KindAttribute, analyzer.KindSubscript:
	default:
		return
	}
	loop := m.EnclosingLoop(n)
	if loop == analyzer.NoNode {
		return
	}
	if g, known := m.GradModeKnown(n); known && g == analyzer.GradDisabled {
		return
	}
	inner := loop
	switch f.Kind(f.Unparen(value)) {
	case analyzer.KindList, analyzer.KindListComprehension, analyzer.KindTuple:
		return // `rows += [w[:, -1:] for w in ws]` extends a list: a store, not a sum
	}
	// The grad mode last, where the rest holds (see GradModeKnown).
	if !m.CarriesGraph(value) || m.GradModeAt(n) == analyzer.GradDisabled || frozenOrigin(m, value) {
		return // a frozen module's output, as TL102 and TL201 judge it
	}
	key := accumulatorKey(f, target)
	if resetInIteration(f, m, loop, n, target) || startsAsContainer(m, target) || filledPerIteration(m, loop, target) {
		return
	}
	for withinStep(m, loop) {
		// A loop over the parts of one step (environments, tasks,
		// micro-batches) whose optimizer step follows it: the sum lives
		// across the steps of the loop around it, if any.
		loop = m.EnclosingLoop(loop)
		for loop != analyzer.NoNode && f.Kind(loop) != analyzer.KindForStatement && f.Kind(loop) != analyzer.KindWhileStatement {
			loop = m.EnclosingLoop(loop)
		}
		if loop == analyzer.NoNode || resetInIteration(f, m, loop, n, target) {
			return
		}
	}
	if a := m.Loop(loop); (!a.PerStep() || !a.Batches && !a.Backward) && !callsStep(m, loop) {
		// A loop over the parts of one step (its losses, its heads), or
		// over what one batch holds (the time steps of a decode), inside
		// a loop of steps, or of batches, that starts the sum afresh each
		// time (one that steps an optimizer is a loop of steps); or a
		// loop that runs once.
		for outer := m.EnclosingLoop(loop); outer != analyzer.NoNode; outer = m.EnclosingLoop(outer) {
			if k := f.Kind(outer); k != analyzer.KindForStatement && k != analyzer.KindWhileStatement ||
				!a.Once && (!m.Loop(outer).PerStep() || a.PerStep() && !m.Loop(outer).Batches) {
				continue // a loop that runs once (`range(1)`) sums across the loop around it, whatever that does
			}
			if resetInIteration(f, m, outer, n, target) {
				return
			}
			break
		}
	}
	fn := m.ScopeNode(n)
	if m.BackpropagatedAt(fn, n, target) {
		return // a loss summed on purpose and back-propagated
	}
	if a := m.Loop(loop); !a.Batches && (!a.Backward || a.Derivatives) && fn != analyzer.Root && (!isEvalName(m.FunctionName(fn)) &&
		(m.IsReturned(fn, key) || m.IsReturned(fn, accumulatorKey(f, storedBase(f, target))) || isForwardMethod(m, fn)) ||
		forwardPart(m, fn)) {
		// A sum within one forward pass or one loss (residual branches,
		// skip connections, heads, terms): the caller back-propagates it.
		return
	}
	if class := m.EnclosingClass(n); class != analyzer.NoNode && strings.HasPrefix(key, "self.") {
		if m.BackpropKeys(class, class)[key] {
			return
		}
	}
	if unreachable(m, n) {
		return // after a raise or return of its block, or in a replaced function: it never runs
	}
	if s := leavesAfter(m, n, inner); s != analyzer.NoNode && (f.Kind(s) != analyzer.KindBreakStatement || m.EnclosingLoop(inner) == analyzer.NoNode) &&
		localName(m, m.ScopeNode(n), target) {
		// `outs = outs + post(outs); break`, in a loop no other loop of
		// the function encloses, into a name of the call: it runs once,
		// nothing is carried to a later iteration or call.
		return
	}
	goes, unseen, followed := heldFate(m, target, n)
	if followed && goes == fateYes {
		return // the sum is a loss, back-propagated later
	}
	if f.Kind(target) == analyzer.KindIdentifier && slices.ContainsFunc(m.ReachedUsesOf(target), func(u analyzer.NodeID) bool {
		return !historyDroppedAt(m, u) && reachesNumpy(m, u, 1)
	}) {
		// `mu.cpu().numpy()` after the loop: PyTorch raises on `.numpy()`
		// of a tensor that requires grad, so the sum carries no graph.
		return
	}
	stmt := analyzer.Snippet(f.Text(n), 60)
	concat := f.Kind(n) == analyzer.KindAssignment && f.Kind(f.Unparen(f.Field(n, analyzer.FieldRight))) != analyzer.KindBinaryOperator
	advice, fix := accumulateAdvice(m, target, value, concat)
	if arm := startingArm(f, n, value); arm != analyzer.NoNode && fix != nil {
		// `acc = y if acc is None else torch.cat((acc, y))`: the total
		// starts as the first step's tensor, graph and all.
		fix.Edits = append(detachFix(m, arm, "", ".detach()").Edits, fix.Edits...)
	}
	// A total reset every few steps (gradient accumulation's running
	// loss) keeps the graphs of the steps since its last reset.
	steps, chain, until := "every step's autograd graph", "a growing chain of autograd nodes", "until `"+analyzer.Snippet(f.Text(target), 30)+"` is freed"
	line := periodicReset(m, loop, n, key)
	if line == 0 {
		line = outerReset(m, loop, target)
	}
	if line > 0 {
		steps = fmt.Sprintf("the autograd graph of every step until its reset at line %d", line)
		chain = "a chain of autograd nodes"
		until = fmt.Sprintf("until the reset at line %d", line)
	}
	where := onDevice(f)
	body := f.Field(loop, analyzer.FieldBody)
	backpropagated, retained := valueBackpropagated(m, value, m.BackpropKeys(body, fn)), retainedBackward(m, body)
	switch {
	case backpropagated && retained != "":
		p.ReportFix(n, fmt.Sprintf("`%s` keeps %s alive, and its backward(%s=True) "+
			"frees none of the activations it saved: they stay %s %s; %s",
			stmt, steps, retained, where, until, advice), fix)
	case backpropagated:
		p.ReportFix(n, fmt.Sprintf("`%s` keeps %s alive after its backward(): "+
			"no activations, but %s in host memory, and `%s` stays a tensor that requires grad; %s",
			stmt, steps, chain, analyzer.Snippet(f.Text(target), 30), advice), fix)
	default:
		p.ReportFix(n, fmt.Sprintf("`%s` accumulates a tensor whose autograd graph no backward() of this loop is seen to run through: "+
			"every step's graph stays alive %s, with the activations of any forward pass that no backward() "+
			"ran through still %s; %s",
			stmt, until, where, advice), fix)
	}
	graphAssumptions(p, value, n)
	if !backpropagated {
		methodAssumption(p, value)
	}
	if !backpropagated && m.Loop(loop).Backward {
		if call := handedToObject(m, body, value); call != analyzer.NoNode {
			p.Assume(fmt.Sprintf("no backward() of this loop runs through it: `%s(...)` hands it to an object whose use of it "+
				"is not seen, which may give it back for the loop's backward()", analyzer.Snippet(compactText(f, f.Field(call, analyzer.FieldFunction)), 40)))
		}
	}
	if followed && goes == fateUnknown && !consumedByBackward(f, value, backpropagated, retained != "") {
		p.Assume(fmt.Sprintf("nothing back-propagates the sum: `%s` hands it to code whose use of it is not seen",
			analyzer.Snippet(compactText(f, unseen), 40)))
	}
}

// localName reports whether target is a name of function fn's own, not
// a parameter, a global or an attribute: what it holds ends with the call.
func localName(m *analyzer.Model, fn, target analyzer.NodeID) bool {
	f := m.File
	if fn == analyzer.Root || f.Kind(target) != analyzer.KindIdentifier {
		return false
	}
	b := m.Resolve(target)
	if b == nil || b.Kind == analyzer.BindParam || m.ScopeNode(b.Stmt) != fn {
		return false
	}
	return !slices.ContainsFunc(m.PositionalParams(fn), func(p analyzer.NodeID) bool { return f.Text(p) == f.Text(target) })
}

// periodicReset returns the line of a statement in loop, after the
// accumulation n, that sets the total keyed key afresh under a condition
// (`if (i + 1) % k == 0: ...; running = 0`), or 0.
func periodicReset(m *analyzer.Model, loop, n analyzer.NodeID, key string) int {
	f := m.File
	line := 0
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if line > 0 || f.Kind(id) != analyzer.KindAssignment || f.N(id).Start < f.N(n).End {
			return
		}
		left, right := f.Field(id, analyzer.FieldLeft), f.Unparen(f.Field(id, analyzer.FieldRight))
		for f.Kind(right) == analyzer.KindAssignment {
			right = f.Unparen(f.Field(right, analyzer.FieldRight)) // `a = b = 0`
		}
		if mentions(f, right, key) {
			return
		}
		switch f.Kind(left) {
		case analyzer.KindPatternList, analyzer.KindTuplePattern:
			// `running, correct = 0, 0`
			targets, values := f.ChildList(left), f.ChildList(right)
			i := slices.IndexFunc(targets, func(t analyzer.NodeID) bool { return accumulatorKey(f, t) == key })
			if i < 0 || len(values) != len(targets) || f.Kind(right) != analyzer.KindExpressionList && f.Kind(right) != analyzer.KindTuple {
				return
			}
			right = f.Unparen(values[i])
		default:
			if accumulatorKey(f, left) != key {
				return
			}
		}
		switch f.Kind(right) {
		case analyzer.KindInteger, analyzer.KindFloat:
		default:
			return
		}
		for p := f.Parent(id); p != loop && p != analyzer.NoNode; p = f.Parent(p) {
			if f.Kind(p) == analyzer.KindIfStatement {
				line = f.Position(f.N(id).Start).Line
				return
			}
		}
	})
	return line
}

// callsStep reports whether an iteration of loop calls a function of the
// project that back-propagates, on every call, what it returns
// (`errD = self.train_Dnet(i)` that runs `errD.backward()` and
// `optD.step()`): a loop of training steps, though no backward of its
// own is seen.
func callsStep(m *analyzer.Model, loop analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || m.EnclosingLoop(id) != loop {
			return
		}
		if m.CallBackpropagates(id) {
			found = true
		}
	})
	return found
}

// outerReset returns the line where a loop around loop sets the total
// target afresh, before loop, in each of its iterations (`errD_total = 0`
// before `for i in range(num_Ds): errD_total += errD`), or 0: the sum
// keeps the graphs of one iteration of that loop.
func outerReset(m *analyzer.Model, loop, target analyzer.NodeID) int {
	f := m.File
	key := accumulatorKey(f, target)
	for outer := m.EnclosingLoop(loop); outer != analyzer.NoNode; outer = m.EnclosingLoop(outer) {
		if k := f.Kind(outer); k != analyzer.KindForStatement && k != analyzer.KindWhileStatement {
			continue
		}
		for _, a := range loopAssignments(m, outer)[key] {
			if f.N(a).Start < f.N(loop).Start && !mentions(f, f.Field(a, analyzer.FieldRight), key) {
				return f.Position(f.N(a).Start).Line
			}
		}
		return 0
	}
	return 0
}

// filledPerIteration reports whether target is an entry of a container
// made in this function, indexed by the loop's own counter over a range
// (`outs[t] = outs[t] + h` in `for t in range(n)`, a sequence model's
// outputs filled one step at a time): each iteration adds into an entry of
// its own, once, and nothing is summed across iterations, unless a loop
// around this one, with the container made outside it, runs it again.
func filledPerIteration(m *analyzer.Model, loop, target analyzer.NodeID) bool {
	f := m.File
	target = f.Unparen(target)
	if f.Kind(target) != analyzer.KindSubscript || f.Kind(loop) != analyzer.KindForStatement {
		return false
	}
	iter := f.Unparen(f.Field(loop, analyzer.FieldRight))
	counter := f.Unparen(f.Field(loop, analyzer.FieldLeft))
	switch m.CallName(iter) {
	case "range":
	case "enumerate":
		// `for t, x in enumerate(xs)`: the counter is the first name.
		if k := f.Kind(counter); k != analyzer.KindPatternList && k != analyzer.KindTuplePattern {
			return false
		}
		counter = f.Unparen(f.FirstChild(counter))
	default:
		return false
	}
	if f.Kind(counter) != analyzer.KindIdentifier {
		return false
	}
	indexed := false
	f.Children(target, func(c analyzer.NodeID) bool {
		if f.N(c).Field != analyzer.FieldValue && f.Kind(f.Unparen(c)) == analyzer.KindIdentifier && f.TextIs(f.Unparen(c), f.Text(counter)) {
			indexed = true
		}
		return !indexed
	})
	root := storedRoot(f, f.Field(target, analyzer.FieldValue))
	if !indexed || root == analyzer.NoNode || f.Kind(root) != analyzer.KindIdentifier {
		return false
	}
	b := m.Resolve(root)
	if b == nil || b.Kind != analyzer.BindAssign || m.ScopeNode(b.Stmt) != m.ScopeNode(loop) || f.Contains(loop, b.Stmt) {
		return false
	}
	for outer := m.EnclosingLoop(loop); outer != analyzer.NoNode && m.ScopeNode(outer) == m.ScopeNode(loop); outer = m.EnclosingLoop(outer) {
		if !f.Contains(outer, b.Stmt) {
			return false // made once, filled again by each iteration of the loop around
		}
	}
	return true
}

// startsAsContainer reports whether every binding of a name that reaches
// its `+=` other than the `+=` itself is a dict, a set or a list: `+=` of
// a tensor raises TypeError on a dict or a set, and extends a list with
// its elements (a store, which TL102 judges), so nothing is summed.
func startsAsContainer(m *analyzer.Model, target analyzer.NodeID) bool {
	f := m.File
	if f.Kind(target) != analyzer.KindIdentifier {
		return false
	}
	some := false
	for _, b := range m.ReachingBindings(target) {
		if b.Kind == analyzer.BindAugAssign {
			continue
		}
		if b.Kind != analyzer.BindAssign || b.Unpacked {
			return false
		}
		switch v := f.Unparen(b.Value); f.Kind(v) {
		case analyzer.KindDictionary, analyzer.KindDictionaryComprehension, analyzer.KindSet, analyzer.KindSetComprehension,
			analyzer.KindList, analyzer.KindListComprehension:
			some = true
		default:
			if q := m.CallName(v); q != "dict" && q != "set" && q != "list" && q != "collections.defaultdict" && q != "collections.OrderedDict" {
				return false
			}
			some = true
		}
	}
	return some
}

// accumulateAdvice says how to accumulate value into target without its
// graph, and offers the fix: `.detach()` keeps the sum on the GPU, with
// no wait for it each step, and leaves the total the tensor it was, so
// the code after the loop runs as before. A local total of a loss is
// read once after the loop with `float(total)`, which also holds when
// the loop ran no step and the total is still the number it started as;
// `.item()` each step is the alternative where a number is wanted then.
func accumulateAdvice(m *analyzer.Model, target, value analyzer.NodeID, concat bool) (string, *analyzer.Fix) {
	f := m.File
	val := analyzer.Snippet(f.Text(value), 40)
	if needsParens(f, value) {
		val = "(" + val + ")"
	}
	fix := detachFix(m, value, "Accumulate", ".detach()")
	if f.Kind(target) != analyzer.KindIdentifier || concat || !scalarLike(m, value, 0) {
		return fmt.Sprintf("accumulate `%s.detach()` instead", val), fix
	}
	return fmt.Sprintf("accumulate `%s.detach()` instead and read it once after the loop with `float(%s)` "+
		"(`%s.item()` also works, but waits for the GPU every step)", val, f.Text(target), val), fix
}

// checkKept reports a call, in a loop, of a method that adds an argument
// carrying autograd history into an attribute of its object (a meter's
// `update(loss, n)` doing `self.sum += val * n`): the object outlives the
// iteration, and so does every step's graph.
func checkKept(p *analyzer.Pass, call analyzer.NodeID) {
	f, m := p.File, p.Model
	loop := m.EnclosingLoop(call)
	if loop == analyzer.NoNode {
		return
	}
	recv := f.Unparen(m.Receiver(call))
	if f.Kind(recv) != analyzer.KindIdentifier && f.Kind(recv) != analyzer.KindAttribute {
		return
	}
	if b := m.Resolve(recv); b != nil && f.Contains(f.Field(loop, analyzer.FieldBody), b.Stmt) {
		return // an object made afresh in each iteration
	}
	// The grad mode last: it may depend on the function's callers in
	// other files, and a file that asks it is linted again when they
	// change it.
	o := m.Keeper(call)
	if o == nil || m.GradModeAt(call) == analyzer.GradDisabled {
		return
	}
	args := m.Args(call)
	fn := m.ScopeNode(call)
	for l := loop; l != analyzer.NoNode && m.ScopeNode(l) == fn; l = m.EnclosingLoop(l) {
		if readForBackward(m, recv, f.Field(l, analyzer.FieldBody), fn) {
			return // a rollout storage: what it keeps is what the update back-propagates
		}
	}
	for _, k := range o.Keeps {
		if k.Index >= len(args) {
			continue
		}
		arg := args[k.Index]
		if f.Kind(arg) == analyzer.KindKeywordArgument || !m.CarriesGraph(arg) {
			continue
		}
		stmt := analyzer.Snippet(f.Text(call), 60)
		cost := "every step's autograd graph stays alive with it, with the activations of any forward pass that no " +
			"backward() ran through still " + onDevice(f)
		body := f.Field(loop, analyzer.FieldBody)
		freed := valueBackpropagated(m, arg, m.BackpropKeys(body, fn)) && retainedBackward(m, body) == ""
		switch {
		case k.Bounded && freed:
			continue // a few back-propagated graphs' nodes, as many as the container holds
		case k.Bounded:
			cost = "as many steps' autograd graphs as it holds stay alive with it, with the activations of any forward pass " +
				"that no backward() ran through still " + onDevice(f)
		case freed:
			cost = "every step's autograd graph stays alive with it after its backward(): no activations, but a " +
				"growing chain of autograd nodes in host memory"
		}
		p.ReportRelated(call, fmt.Sprintf("`%s` passes a tensor with autograd history to `%s`, which adds it into `%s` (%s) "+
			"of an object that outlives the iteration: %s; pass `%s` instead",
			stmt, o.Site.Text, k.Site.Text, k.Site.Where(), cost, detachHint(m, arg)),
			analyzer.RelatedSite(k.Site, "where `"+o.Site.Text+"` keeps it"))
		p.Fix(detachFix(m, arg, "Pass", ""))
		graphAssumptions(p, arg, call)
		return
	}
}

// readForBackward reports whether the loop body takes values back out
// of the object recv names (`values, log_probs = memory.sample()`) into
// what it back-propagates, then empties it (`memory.clear()`: a call of
// one of its methods with no argument that keeps nothing): the object is
// the rollout of the update, whose backward runs through the graphs it
// kept since the last one. A replay buffer, sampled but never emptied,
// keeps them.
func readForBackward(m *analyzer.Model, recv, body, fn analyzer.NodeID) bool {
	f := m.File
	name := compact(f.Text(recv))
	var keys map[string]bool
	read := analyzer.NoNode
	f.Walk(body, func(id analyzer.NodeID) {
		if read != analyzer.NoNode || f.Kind(id) != analyzer.KindAssignment {
			return
		}
		if v := f.Unparen(f.Field(id, analyzer.FieldRight)); f.Kind(v) != analyzer.KindCall || !calledOn(m, v, name) {
			return
		}
		if keys == nil {
			keys = m.BackpropKeys(body, fn)
		}
		targets := map[string]bool{}
		m.ExprKeys(f.Field(id, analyzer.FieldLeft), targets)
		for t := range targets {
			if keys[t] {
				read = id
			}
		}
	})
	if read == analyzer.NoNode {
		return false
	}
	emptied := false
	f.Walk(body, func(id analyzer.NodeID) {
		if emptied || f.Kind(id) != analyzer.KindCall || f.N(id).Start < f.N(read).End || len(m.Args(id)) > 0 {
			return
		}
		emptied = calledOn(m, id, name) && m.Keeper(id) == nil
	})
	return emptied
}

// calledOn reports whether call is a method call on the object whose
// text, without spaces, is name.
func calledOn(m *analyzer.Model, call analyzer.NodeID, name string) bool {
	r := m.Receiver(call)
	return r != analyzer.NoNode && compact(m.File.Text(m.File.Unparen(r))) == name
}

// accumulation returns the target and the added value of `t += v`,
// `t = t + v`, `t = v + t`, or of a concatenation that grows t by v
// (`t = torch.cat((t, v))`, also as the arm of `v if t is None else ...`).
func accumulation(m *analyzer.Model, n analyzer.NodeID) (target, value analyzer.NodeID) {
	f := m.File
	target = f.Field(n, analyzer.FieldLeft)
	right := f.Unparen(f.Field(n, analyzer.FieldRight))
	switch f.Kind(n) {
	case analyzer.KindAugmentedAssignment:
		if !f.TextIs(f.Field(n, analyzer.FieldOperator), "+=") {
			return analyzer.NoNode, analyzer.NoNode
		}
		return target, f.Field(n, analyzer.FieldRight)
	case analyzer.KindAssignment:
		key := accumulatorKey(f, target)
		if f.Kind(right) == analyzer.KindConditionalExpression {
			// `acc = v if acc is None else torch.cat((acc, v))`: the first
			// step starts the total, the others grow it.
			for _, c := range f.ChildList(right) {
				if v := concatenated(m, f.Unparen(c), key); v != analyzer.NoNode {
					return target, v
				}
			}
			return analyzer.NoNode, analyzer.NoNode
		}
		if v := concatenated(m, right, key); v != analyzer.NoNode {
			return target, v
		}
		if f.Kind(right) != analyzer.KindBinaryOperator || !f.TextIs(f.Field(right, analyzer.FieldOperator), "+") {
			return analyzer.NoNode, analyzer.NoNode
		}
		l, r := f.Field(right, analyzer.FieldLeft), f.Field(right, analyzer.FieldRight)
		switch {
		case accumulatorKey(f, l) == key:
			return target, r
		case accumulatorKey(f, r) == key:
			return target, l
		}
	}
	return analyzer.NoNode, analyzer.NoNode
}

// startingArm returns the arm of `acc = y if acc is None else
// torch.cat((acc, y))` that starts the total with the value it grows by
// (the same text as value), NoNode where the statement has none.
func startingArm(f *analyzer.File, n, value analyzer.NodeID) analyzer.NodeID {
	right := f.Unparen(f.Field(n, analyzer.FieldRight))
	if f.Kind(n) != analyzer.KindAssignment || f.Kind(right) != analyzer.KindConditionalExpression {
		return analyzer.NoNode
	}
	for _, c := range f.ChildList(right) {
		if c != value && !f.Contains(c, value) && compact(f.Text(c)) == compact(f.Text(value)) {
			return c
		}
	}
	return analyzer.NoNode
}

// concatenators join the tensors of a sequence along an axis: the result
// holds the graph of every one of them.
var concatenators = map[string]bool{
	"torch.cat": true, "torch.concat": true, "torch.concatenate": true,
	"torch.vstack": true, "torch.hstack": true, "torch.dstack": true, "torch.row_stack": true,
}

// concatenated returns v of a call `torch.cat((acc, v))` (or `[v, acc]`,
// with any options after the sequence) whose other element is the
// accumulator keyed key; NoNode for anything else.
func concatenated(m *analyzer.Model, call analyzer.NodeID, key string) analyzer.NodeID {
	f := m.File
	if f.Kind(call) != analyzer.KindCall || !concatenators[m.CallName(call)] {
		return analyzer.NoNode
	}
	args := m.Args(call)
	if len(args) == 0 {
		return analyzer.NoNode
	}
	seq := f.Unparen(args[0])
	if k := f.Kind(seq); k != analyzer.KindTuple && k != analyzer.KindList {
		return analyzer.NoNode
	}
	elems := f.ChildList(seq)
	if len(elems) != 2 {
		return analyzer.NoNode
	}
	switch {
	case accumulatorKey(f, f.Unparen(elems[0])) == key:
		return elems[1]
	case accumulatorKey(f, f.Unparen(elems[1])) == key:
		return elems[0]
	}
	return analyzer.NoNode
}

// accumulatorKey is the target's text without whitespace, so that
// `stats[ "loss" ]` and `stats["loss"]` are one accumulator.
func accumulatorKey(f *analyzer.File, id analyzer.NodeID) string {
	return compact(f.Text(id))
}

// resetInIteration reports whether the accumulator (or, for `d[k] += v`,
// the container) is assigned afresh earlier in the same iteration of
// loop: then it does not outlive the iteration (`loss = 0` before summing
// the heads of one step).
func resetInIteration(f *analyzer.File, m *analyzer.Model, loop, stmt, target analyzer.NodeID) bool {
	keys := []string{accumulatorKey(f, target)}
	if f.Kind(target) == analyzer.KindSubscript {
		keys = append(keys, accumulatorKey(f, f.Field(target, analyzer.FieldValue)))
	}
	if f.Kind(loop) == analyzer.KindForStatement && mentions(f, f.Field(loop, analyzer.FieldLeft), keys[len(keys)-1]) {
		return true // the loop variable itself, bound afresh each iteration
	}
	start := f.N(stmt).Start
	assigns := loopAssignments(m, loop)
	for _, k := range keys {
		for _, a := range assigns[k] {
			if f.N(a).Start < start && !mentions(f, f.Field(a, analyzer.FieldRight), k) {
				return true
			}
		}
	}
	return false
}

type loopAssignKey struct{ loop analyzer.NodeID }

// loopAssignments indexes the plain assignments in a loop's body (not in
// nested functions) by their target, once per loop.
func loopAssignments(m *analyzer.Model, loop analyzer.NodeID) map[string][]analyzer.NodeID {
	return m.Memo(loopAssignKey{loop}, func() any {
		f := m.File
		out := map[string][]analyzer.NodeID{}
		f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
			if f.Kind(id) != analyzer.KindAssignment || m.EnclosingLoop(id) == analyzer.NoNode {
				return
			}
			left := f.Field(id, analyzer.FieldLeft)
			switch f.Kind(left) {
			case analyzer.KindPatternList, analyzer.KindTuplePattern, analyzer.KindListPattern:
				// `logprobs, h = step(x, h)`: each name is bound afresh.
				f.Children(left, func(c analyzer.NodeID) bool {
					if k := f.Kind(c); k == analyzer.KindIdentifier || k == analyzer.KindAttribute {
						key := accumulatorKey(f, c)
						out[key] = append(out[key], id)
					}
					return true
				})
			default:
				k := accumulatorKey(f, left)
				out[k] = append(out[k], id)
			}
		})
		return out
	}).(map[string][]analyzer.NodeID)
}

// withinStep reports whether a loop runs within one optimizer step: no
// optimizer step is taken in it, and one follows it in the body around
// it.
func withinStep(m *analyzer.Model, loop analyzer.NodeID) bool {
	f := m.File
	k := f.Kind(loop)
	if k != analyzer.KindForStatement && k != analyzer.KindWhileStatement {
		return false
	}
	if hasOptimizerStep(m, f.Field(loop, analyzer.FieldBody), 0) {
		return false
	}
	return hasOptimizerStep(m, f.Parent(loop), f.N(loop).End)
}

// hasOptimizerStep reports whether region takes an optimizer step at or
// after byte offset from, in its own function.
func hasOptimizerStep(m *analyzer.Model, region analyzer.NodeID, from uint32) bool {
	f := m.File
	fn := m.ScopeNode(region)
	found := false
	f.Walk(region, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || f.N(id).Start < from || m.MethodName(id) != "step" || m.ScopeNode(id) != fn {
			return
		}
		recv := strings.ToLower(analyzer.Snippet(f.Text(m.Receiver(id)), 80))
		found = (strings.Contains(recv, "optim") || strings.Contains(recv, "scaler") || strings.HasSuffix(recv, "opt") ||
			strings.Contains(recv, "opt_")) && !analyzer.SchedulerName(recv)
	})
	return found
}

// isForwardMethod reports whether fn is a module's forward (or __call__).
func isForwardMethod(m *analyzer.Model, fn analyzer.NodeID) bool {
	switch m.FunctionName(fn) {
	case "forward", "__call__", "_forward":
		return m.EnclosingClass(fn) != analyzer.NoNode
	}
	return false
}

// forwardPart reports whether fn is a method of a module class that the
// class's forward calls, through its other methods maybe
// (`forward_instance_eval`, whose loss terms forward returns): a loop
// there runs within one forward pass, whatever the method's name.
func forwardPart(m *analyzer.Model, fn analyzer.NodeID) bool {
	class := m.EnclosingClass(fn)
	return class != analyzer.NoNode && m.IsModuleClass(class) && m.File.Kind(fn) == analyzer.KindFunctionDefinition &&
		partOfForward(m, class, fn, 0)
}

// mentions reports whether expr's text refers to key.
func mentions(f *analyzer.File, expr analyzer.NodeID, key string) bool {
	found := false
	f.Walk(expr, func(id analyzer.NodeID) {
		k := f.Kind(id)
		if k == analyzer.KindIdentifier && id != expr {
			// The name of an attribute (`self.acts`) or of a keyword
			// argument (`f(acts=x)`) is not a use of a variable acts.
			if fl := f.N(id).Field; fl == analyzer.FieldAttribute || fl == analyzer.FieldName && f.Kind(f.Parent(id)) == analyzer.KindKeywordArgument {
				return
			}
		}
		if (k == analyzer.KindIdentifier || k == analyzer.KindAttribute || k == analyzer.KindSubscript) && accumulatorKey(f, id) == key {
			found = true
		}
	})
	return found
}

// valueBackpropagated reports whether the graph the value carries was run
// through by a backward call of the same step: the value computes no
// fresh graph of its own (a forward or loss call) and every name it
// carries a graph through is one that the step's backward reaches.
func valueBackpropagated(m *analyzer.Model, value analyzer.NodeID, stepKeys map[string]bool) bool {
	return valueBackpropagatedAt(m, value, stepKeys, 0)
}

func valueBackpropagatedAt(m *analyzer.Model, value analyzer.NodeID, stepKeys map[string]bool, depth int) bool {
	f := m.File
	if len(stepKeys) == 0 || depth > 2 {
		return false
	}
	fresh, named := false, 0
	f.Walk(value, func(id analyzer.NodeID) {
		switch f.Kind(id) {
		case analyzer.KindCall:
			if m.IsForwardCall(id) || m.IsLossCall(id) {
				fresh = true
			}
		case analyzer.KindIdentifier:
			if fl := f.N(id).Field; fl == analyzer.FieldAttribute || fl == analyzer.FieldName {
				return
			}
			if m.CarriesGraph(id) {
				named++
				if !stepKeys[f.Text(id)] && !unpackedBesideKey(m, id, stepKeys) && !madeOfKeys(m, id, stepKeys, depth) {
					fresh = true
				}
			}
		}
	})
	return !fresh && named > 0
}

// madeOfKeys reports whether name id holds, by its one assignment, a value
// computed from back-propagated names alone (`parts = (q_loss.mean(),
// fwd_err.mean())` with q_loss and fwd_err terms of the loss).
func madeOfKeys(m *analyzer.Model, id analyzer.NodeID, keys map[string]bool, depth int) bool {
	if v := m.AssignedValue(id); v != analyzer.NoNode {
		return valueBackpropagatedAt(m, v, keys, depth+1)
	}
	// A running total of back-propagated losses (`total = 0.0`, then
	// `total += loss` after each loss.backward()): every value it is
	// given is a number or made of them.
	f := m.File
	fn := m.ScopeNode(id)
	vals := m.AssignmentsIn(fn)[f.Text(id)]
	made := false
	for _, v := range vals {
		switch {
		case analyzer.ScalarLiteral(f, f.Unparen(v)), scalarTuple(f, v):
			// `total = 0.0`, `seen, total = 0, 0`
		case f.Kind(f.Parent(v)) == analyzer.KindAugmentedAssignment && !m.CarriesGraph(v):
			// `total /= batch_idx + 1`: a count scales what it holds.
		case valueBackpropagatedAt(m, v, keys, depth+1):
			made = true
		default:
			return false
		}
	}
	return made
}

// scalarTuple reports whether v is a tuple of literal numbers (`0, 0`), as
// an unpacking assignment gives its names (`seen, total = 0, 0`).
func scalarTuple(f *analyzer.File, v analyzer.NodeID) bool {
	v = f.Unparen(v)
	if k := f.Kind(v); k != analyzer.KindTuple && k != analyzer.KindExpressionList {
		return false
	}
	elems := f.ChildList(v)
	return len(elems) > 0 && !slices.ContainsFunc(elems, func(e analyzer.NodeID) bool { return !analyzer.ScalarLiteral(f, f.Unparen(e)) })
}

// handedToObject returns a call in body that hands a name of value to a
// method of an object (`self.meter.update("loss", batch_loss)`) other
// than a logger's or a tensor's; NoNode where there is none. Such an
// object may give it back for the loop's backward().
func handedToObject(m *analyzer.Model, body, value analyzer.NodeID) analyzer.NodeID {
	f := m.File
	names := map[string]bool{}
	m.ExprKeys(value, names)
	found := analyzer.NoNode
	f.Walk(body, func(id analyzer.NodeID) {
		if found != analyzer.NoNode || f.Kind(id) != analyzer.KindCall {
			return
		}
		fn := f.Unparen(f.Field(id, analyzer.FieldFunction))
		if f.Kind(fn) != analyzer.KindAttribute || m.QualifiedName(f.Field(fn, analyzer.FieldObject)) != "" ||
			hostEndMethods[m.MethodName(id)] || appendMethods[m.MethodName(id)] || m.IsForwardCall(id) || m.IsLossCall(id) {
			return // a method of an object (`self.meter.update`), not a library's, a list's or a model's
		}
		if k := f.Kind(f.Unparen(f.Field(fn, analyzer.FieldObject))); k != analyzer.KindAttribute && k != analyzer.KindIdentifier {
			return
		}
		for _, a := range m.Args(id) {
			if f.Kind(a) == analyzer.KindKeywordArgument {
				a = f.Field(a, analyzer.FieldValue)
			}
			if a = f.Unparen(a); f.Kind(a) == analyzer.KindIdentifier && names[f.Text(a)] {
				found = id
			}
		}
	})
	return found
}

// unpackedBesideKey reports whether name id was unpacked from one call
// of a loss function together with a name of keys (`loss_p, loss_v, loss
// = get_loss(...)`, loss back-propagated): the terms of one loss, whose
// graph the backward of the other ran through. The outputs of a forward
// pass are not (`pred, dist = model(x)`, only pred in the loss): the
// heads that make them record graphs of their own.
func unpackedBesideKey(m *analyzer.Model, id analyzer.NodeID, keys map[string]bool) bool {
	f := m.File
	for _, b := range m.ReachingBindings(id) {
		if b.Kind != analyzer.BindAssign || !b.Unpacked || f.Kind(b.Stmt) != analyzer.KindAssignment ||
			f.Kind(f.Unparen(b.Value)) != analyzer.KindCall || m.IsForwardCall(f.Unparen(b.Value)) {
			return false
		}
		if h := m.Helper(f.Unparen(b.Value)); h != nil && h.Forward != nil {
			return false // `pred, dist, n = model.forward_boost(x)`: a method that runs the model
		}
		beside := false
		f.Walk(f.Field(b.Stmt, analyzer.FieldLeft), func(t analyzer.NodeID) {
			if f.Kind(t) == analyzer.KindIdentifier && t != b.Name && keys[f.Text(t)] {
				beside = true
			}
		})
		if !beside {
			return false
		}
	}
	return true
}

// detachHint suggests the detached form of a value: `loss.item()`,
// `(loss * n).item()`.
func detachHint(m *analyzer.Model, value analyzer.NodeID) string {
	f := m.File
	val := analyzer.Snippet(f.Text(value), 40)
	if needsParens(f, value) {
		val = "(" + val + ")"
	}
	return val + detachMethod(m, value)
}

// detachMethod is `.item()` for a value that reads as a scalar (a loss, a
// reduction) and `.detach()` for any other tensor, on which `.item()`
// would raise.
func detachMethod(m *analyzer.Model, value analyzer.NodeID) string {
	if scalarLike(m, value, 0) {
		return ".item()"
	}
	return ".detach()"
}

// scalarLike reports whether e is a loss or a reduction: a loss call, a
// name that says loss, `.loss`, `.sum()`/`.mean()`/`.norm()`, or
// arithmetic on one of those.
func scalarLike(m *analyzer.Model, e analyzer.NodeID, depth int) bool {
	f := m.File
	e = f.Unparen(e)
	if depth > 4 {
		return false
	}
	switch f.Kind(e) {
	case analyzer.KindIdentifier:
		if v := m.AssignedValue(e); v != analyzer.NoNode && unreduced(m, v) {
			return false // `loss = F.cross_entropy(..., reduction="none")`: one per sample
		}
		return strings.Contains(strings.ToLower(f.Text(e)), "loss")
	case analyzer.KindAttribute:
		return strings.Contains(strings.ToLower(f.Text(f.Field(e, analyzer.FieldAttribute))), "loss")
	case analyzer.KindCall:
		switch m.MethodName(e) {
		case "sum", "mean", "norm":
			return len(m.Args(e)) == 0
		}
		if unreduced(m, e) {
			return false
		}
		return m.IsLossCall(e) || strings.HasSuffix(m.CallName(e), "_loss") || m.CallName(e) == "torch.nn.functional.cross_entropy"
	case analyzer.KindBinaryOperator:
		return scalarLike(m, f.Field(e, analyzer.FieldLeft), depth+1) || scalarLike(m, f.Field(e, analyzer.FieldRight), depth+1)
	}
	return false
}

// unreduced reports whether e is a call given `reduction="none"`: a loss
// per element, on which `.item()` raises.
func unreduced(m *analyzer.Model, e analyzer.NodeID) bool {
	e = m.File.Unparen(e)
	if m.File.Kind(e) != analyzer.KindCall {
		return false
	}
	r := m.Keyword(e, "reduction")
	return r != analyzer.NoNode && stringValue(m.File, r) == "none"
}

// needsParens reports whether an expression must be parenthesised before
// a method can be called on it.
func needsParens(f *analyzer.File, e analyzer.NodeID) bool {
	switch f.Kind(e) {
	case analyzer.KindBinaryOperator, analyzer.KindUnaryOperator, analyzer.KindConditionalExpression, analyzer.KindAwait,
		analyzer.KindBooleanOperator, analyzer.KindNotOperator, analyzer.KindComparisonOperator, analyzer.KindLambda,
		analyzer.KindNamedExpression, analyzer.KindInteger, analyzer.KindFloat:
		return true
	}
	return false
}

// detachFix makes the value a Python number (`.item()`) or, for a tensor
// that may hold more than one element, a detached tensor, unless method
// names the one to call; verb begins its message ("Accumulate", "Pass"). It is unsafe: the accumulator may be
// back-propagated later in code not seen here.
func detachFix(m *analyzer.Model, value analyzer.NodeID, verb, method string) *analyzer.Fix {
	f := m.File
	n := f.N(value)
	if method == "" {
		method = detachMethod(m, value)
	}
	edits := []analyzer.Edit{analyzer.Insert(n.End, method)}
	if needsParens(f, value) {
		edits = []analyzer.Edit{analyzer.Insert(n.Start, "("), analyzer.Insert(n.End, ")"+method)}
	}
	return &analyzer.Fix{Message: verb + " `" + method + "`", Applicability: analyzer.Unsafe, Edits: edits}
}

// retainedBackward returns the keyword with which the last backward in
// region keeps the graph it runs through (`loss.backward(retain_graph=True)`,
// or the pre-0.4 `retain_variables=True`): its saved activations are not
// freed. It returns "" where that backward frees them.
func retainedBackward(m *analyzer.Model, region analyzer.NodeID) string {
	f := m.File
	retains := ""
	f.Walk(region, func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindCall && m.IsBackwardCall(id) {
			// The last backward of the step decides: one without
			// retain_graph after a retaining one frees what they share
			// (GradNorm's `Lgrad.backward()` after the tasks' losses).
			retains = retainKeyword(m, id)
		}
	})
	return retains
}
