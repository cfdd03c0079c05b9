package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// TensorWithGraphStored is TL102.
var TensorWithGraphStored = &analyzer.Rule{
	Code:      "TL102",
	Name:      "tensor-with-graph-stored",
	Summary:   "A tensor that carries autograd history is stored where it outlives the step",
	Severity:  analyzer.SeverityWarning,
	Precision: "medium",
	// Shown from medium, the default: an entry of an output dict (the
	// class that made its medium findings wrong more often than not when
	// first read) is low, and every medium finding over 530 repositories
	// read since was right (6 of 6).
	Tags:  []string{"memory", "autograd"},
	Kinds: []analyzer.Kind{analyzer.KindCall, analyzer.KindAssignment, analyzer.KindAugmentedAssignment},
	Check: checkTensorWithGraphStored,
	Doc: `## What it does
Checks for a tensor that still carries autograd history (a loss, a model
output, arithmetic on them) being stored, while grad is enabled, in a
container that outlives the training or evaluation step that made it:
` + "`outputs.append(out)`" + `, ` + "`preds.extend(...)`" + `, ` + "`losses += [loss]`" + `, ` + "`preds[i] = logits`" + `,
` + "`self.history.append(loss)`" + `, ` + "`stats[\"loss\"].append(loss)`" + `. The container
outlives the step when it is created before the loop over batches (or
steps), is an attribute such as ` + "`self.outputs`" + `, or is a module-level
name, and the store runs once per step: in that loop, or in a function
run once per step such as Lightning's ` + "`training_step`" + `. A store once per
epoch counts too: in a loop that runs the loop of steps over batches,
such as the samples of a generator drawn after each epoch's steps. An
episode that steps an environment on every iteration
(` + "`state, reward, done, _ = env.step(action)`" + `) is a loop of steps: a list of
its function that it fills with the policy's values keeps every step's
graph until the update.

## Why is this bad?
A stored tensor keeps its whole autograd graph reachable, so nothing of
that graph can be freed while the container holds it. What that costs
depends on whether the step's graph was back-propagated:

- **Never back-propagated** (predictions collected in an evaluation loop
  that runs with grad enabled): every step's saved activations stay on the
  GPU. Memory grows by one step's
  activations per iteration until the run fails with ` + "`CUDA out of memory`" + `.
- **Already back-propagated** (` + "`loss.backward()`" + ` then ` + "`losses.append(loss)`" + `):
  ` + "`backward()`" + ` frees the saved activations of the graph it runs through, so
  the activations are not kept. Each stored tensor still keeps its chain
  of autograd nodes in host memory, and the tensor itself stays a tensor
  that requires grad, so every later use of it (` + "`torch.stack(losses).mean()`" + `
  for logging) records more graph. A metric computed outside the loss
  from outputs that the loss back-propagates costs the same: only the
  metric's own saved tensors stay on the GPU, and its chain of autograd
  nodes in host memory. A backward with ` + "`retain_graph=True`" + ` frees nothing:
  there, the activations stay on the GPU too.

Either way the fix is the same: store ` + "`.detach()`" + ` (and ` + "`.cpu()`" + ` if the
values are only needed on the host) or a Python number with ` + "`.item()`" + `.

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, over 300 steps, median of 5 runs ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL102.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl102_stored.py)):
collecting the logits of an evaluation loop with grad enabled grows GPU
memory by 10.19 MiB per step for a small CNN and by 14.08 MiB for a small
transformer (a 1 GiB budget is gone at step 101 and 73), against 0.001
and 0.0013 MiB with ` + "`logits.detach()`" + `, the logits themselves. Appending
each training step's loss after its ` + "`backward()`" + ` grows GPU memory by
0.0005 MiB per step, the scalars themselves, and host memory by 16.12 and
72.08 KiB per step (1 GiB at step 65038 and 14548); a metric of the
back-propagated logits (the Brier score) by 0.0029 MiB and by 18.12 and
74.05 KiB. With ` + "`.item()`" + `, GPU memory does not grow and host memory grows
by at most 0.21 KiB per step.

## Example
` + "```python" + `
all_logits = []
for x, y in loader:
    logits = model(x)
    all_logits.append(logits)
accuracy = (torch.cat(all_logits).argmax(1) == labels).float().mean()
` + "```" + `

## Use instead
` + "```python" + `
all_logits = []
with torch.no_grad():
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits.cpu())
accuracy = (torch.cat(all_logits).argmax(1) == labels).float().mean()
` + "```" + `
Outside ` + "`no_grad`" + `, store ` + "`logits.detach()`" + ` (or ` + "`loss.item()`" + ` for a scalar).

## Known problems
Its findings on code it was not written against are wrong more often
than TL101's: the outputs of an encoder that a class of another file
freezes (a momentum key encoder; a model its callers freeze before handing
it over, in this file or another, is known to record none), numbers that a model returns in its
output dict beside its loss, state that one forward pass builds for its
own later steps. Read what it reports. An entry of an output dict
(` + "`out[\"reward\"]`" + `) that the code never back-propagates is taken to carry a
graph on trust, and the finding says so (one level lower). A table of
` + "`self`" + ` that the function makes afresh before the loop that fills it
(` + "`self.table = torch.zeros(n, d)`" + `), or binds again to its own detached
value after that loop, holds one call's values and is not reported. A list of the function
whose later uses reach a ` + "`backward()`" + ` is not reported; one handed to code
whose use of it is not seen makes the finding say so, one level lower,
unless each stored tensor had its own backward() in its step without
` + "`retain_graph=True`" + `: a graph that backward() has freed cannot be
back-propagated again, wherever the list goes. A list the function
later joins into one tensor that reaches ` + "`.numpy()`" + ` (` + "`torch.cat(feats).numpy()`" + `)
held no graph, since ` + "`.numpy()`" + ` raises on a tensor that requires grad: it is
not reported. The outputs of a model class of the project whose
` + "`forward`" + ` returns a tuple are judged element by element, by what the
forward returns there, where the model is passed in as a parameter and
every call passes an instance of that class; where the project cannot tell
which elements of that tuple hold a graph (losses from a network the model
is handed), the element is taken to hold one on trust, and the finding
says so, one level lower.

A conditional ` + "`x.item() if flag else x`" + `, where ` + "`x`" + ` is made a tensor only under
` + "`if flag:`" + ` with the same condition, stores a number either way.

A store made on every few iterations only (` + "`if step % 500 == 0:`" + `) keeps one
graph every few steps: the finding is one level less sure. A store after
a ` + "`return`" + `, ` + "`raise`" + `, ` + "`continue`" + ` or ` + "`break`" + ` of its block never runs and is not
reported (in a notebook, a cell's top-level ` + "`raise`" + ` stops no later cell),
nor is one in a function that a later definition of its name replaces
before anything can call it.

Whether a value carries autograd history is inferred as for TL101: by
what the code does with it first (a value that is back-propagated carries
a graph), then from calls of models, loss functions and project functions
that return a graph, in any file of the project, and arithmetic on their
results. A container filled in a function that is called once per step
from another module is not seen unless the function is a Lightning step
hook or is named like a training step.

Stores that are meant to keep the graph are not reported: a list whose
contents are summed and back-propagated in the same step (the losses of
several tasks, the log-probabilities of a REINFORCE episode), a container
that is itself back-propagated, a list that one forward pass builds and
consumes (U-Net skip connections, the outputs of an unrolled RNN), a list
whose last element each iteration hands to the next forward pass
(` + "`h = cell(x, hs[-1]); hs.append(h)`" + `: a recurrence unrolled across steps, its
graph chained into the state the loop carries and back-propagated on
purpose, as a meta-learner's is), and a container that is reset within
each step. A container emptied every few
steps (gradient accumulation) is treated as reset, and so is one made afresh
for each optimizer step and filled by a loop over the chunks of its batch,
each back-propagated and their gradients summed by that step. A loop whose every
iteration steps an optimizer that the iteration picks (` + "`opts[i].step()`" + `,
` + "`opt = opts[level]`" + `, ` + "`for net, opt in zip(nets, opts)`" + `, a new optimizer
made in the iteration) and runs no loop over batches trains one model per
iteration, all within one step: a list made before it, in that step or in
the function that runs it, holds one tensor per model and is not reported
(the losses of each agent of a multi-agent update, the query loss of each
task of a meta-learning step). A container made afresh for each step of
an outer loop and filled by a loop of inner steps is not reported where a
backward of that outer step, after the inner loop, runs through what it
holds (first-order MAML's query outputs): it holds one outer step's
graphs, which that backward frees. A loop over the levels of one model with
one optimizer for all of them is taken for a loop of steps. A loop whose
only derivatives are taken to be differentiated again
(` + "`torch.autograd.grad(..., create_graph=True)`" + `, a MAML inner loop, directly or
in a function of the file it calls) runs no training step, and a store
into the same slots on every step (fast weights keyed by the names of the
weights, ` + "`fast[names[i]] = w`" + `) holds one step's values, not one more each
step; a slot named by the step or by a counter the loop moves is a new
one each step. A slot of an attribute named by the index of a loop over
` + "`range(...)`" + ` of fixed bounds that runs no step of its own (the layers of one
forward pass, ` + "`self.outputs[\"conv%d\" % i] = h`" + `) is the same slot on
every call: each call overwrites the last.

## References
- [PyTorch FAQ: My model reports "cuda runtime error(2): out of memory"](https://pytorch.org/docs/stable/notes/faq.html#my-model-reports-cuda-runtime-error-2-out-of-memory)
- [Autograd mechanics: saved tensors](https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors)
- [Lightning: LightningModule.on_train_epoch_end](https://lightning.ai/docs/pytorch/stable/common/lightning_module.html#on-train-epoch-end)
`,
}

func checkTensorWithGraphStored(p *analyzer.Pass, n analyzer.NodeID) {
	f, m := p.File, p.Model
	container, value := storedTarget(f, m, n)
	if value == analyzer.NoNode || m.IsPytestFile() || unreachable(m, n) || !storedCarries(m, value) || m.GradModeAt(n) == analyzer.GradDisabled ||
		frozenOrigin(m, value) {
		return
	}
	base := storedBase(f, container)
	key := accumulatorKey(f, base)
	fn := m.ScopeNode(n)
	if fn != analyzer.Root && m.FunctionName(fn) == "__init__" {
		return // a constructor runs once, and builds modules rather than graphs
	}
	loop, local, ok := storedStepLoop(m, n, base, fn)
	if !ok || detachedLater(m, fn, key, n) || storedFixedSlot(m, n, loop, fn) || joinedIntoNumpy(m, fn, key, n) {
		return
	}
	if local && loop != analyzer.NoNode && backpropagatedByOuterStep(m, loop, base, value, fn) {
		return
	}
	if m.ContainerBackpropagated(fn, n, base) || storedPopped(m, fn, key) {
		// The container is back-propagated (a sum of losses built on
		// purpose) or is a queue whose tensors are taken out again (a
		// pipeline schedule's outputs, awaiting their backward).
		return
	}
	if class := m.EnclosingClass(n); class != analyzer.NoNode && strings.HasPrefix(key, "self.") &&
		(m.BackpropKeys(class, class)[key] || storedPopped(m, class, key)) {
		return
	}
	if globalContainer(m, base) && backpropagatedInFile(m, fn, base) {
		// A list of a module-level object that another function of the
		// file back-propagates (an episode's log-probabilities, stacked
		// into the loss at the episode's end).
		return
	}
	if local && storedModuleMethod(m, fn) && (loop == analyzer.NoNode || !m.Loop(loop).Backward) {
		// A module method that splits its input into chunks or tiles and
		// concatenates the results: one forward pass, however many
		// iterations.
		return
	}
	if loop != analyzer.NoNode {
		if a := m.Loop(loop); !a.Batches && (!a.Backward || a.Derivatives) && !storedRunsSteps(m, loop) && fn != analyzer.Root && !isEvalName(m.FunctionName(fn)) &&
			!environmentLoop(m, loop) && (local || storedReturned(m, fn, key) || isForwardMethod(m, fn)) {
			// A list that one call builds over something other than
			// batches and hands on: skip connections, an unrolled RNN's
			// outputs, the tiles of one image.
			return
		}
	}
	if loop != analyzer.NoNode && feedsBack(m, loop, key) {
		// `h = cell(x, hs[-1]); hs.append(h)`: each stored state is the
		// next iteration's input, so its graph is chained into the state
		// the loop carries (an unrolled recurrence, back-propagated
		// through on purpose); storing it keeps nothing more alive.
		return
	}
	region := fn
	if loop != analyzer.NoNode {
		region = f.Field(loop, analyzer.FieldBody)
	}
	stepKeys := m.BackpropKeys(region, fn)
	if loop == analyzer.NoNode && !isEvalName(m.FunctionName(fn)) {
		// A step function's returned loss is back-propagated by its caller
		// (Lightning's training_step).
		stepKeys = storedWithReturned(m, fn, stepKeys)
	}
	goes, unseen, followed := heldFate(m, base, n)
	if followed && goes == fateYes {
		return // the stored graphs are back-propagated later (a list of losses summed on purpose)
	}
	if loop != analyzer.NoNode && siblingsBackpropagated(m, value, loop) {
		if outer := m.EnclosingLoop(loop); outer != analyzer.NoNode && storedResetIn(m, f.Field(outer, analyzer.FieldBody), key) {
			// `policy, q, value = model(s)`, each stored for a loss of
			// the rollout that back-propagates the policies and the
			// Q-values: the backward runs through the pass that made the
			// value, and the container is made anew for each rollout.
			return
		}
	}
	stmt := analyzer.Snippet(f.Text(n), 60)
	hint := storedHint(f, m, value)
	where := onDevice(f)
	unit := "step"
	if storedOncePerEpoch(m, n, loop) {
		unit = "epoch"
	}
	backpropagated, retained := valueBackpropagated(m, value, stepKeys), retainedBackward(m, region)
	if backpropagated && retained == "" && local && loop != analyzer.NoNode && fn != analyzer.Root && m.EnclosingLoop(loop) == analyzer.NoNode &&
		!m.Loop(loop).Batches && withinStep(m, loop) && !returnsItself(m, fn, key) {
		// `for w in workers: losses[w] = loss; loss.backward()`, then the
		// optimizer step: the parts of one step, each back-propagated,
		// in a container of this call that it does not return, which
		// ends with it.
		return
	}
	switch {
	case backpropagated && retained != "":
		p.Report(n, fmt.Sprintf("`%s` keeps each %s's autograd graph reachable, and its backward(%s=True) "+
			"frees none of the activations it saved: every stored tensor keeps them %s; store %s instead", stmt, unit, retained, where, hint))
	case backpropagated:
		p.Report(n, fmt.Sprintf("`%s` keeps each %s's autograd graph reachable after its backward(): "+
			"no activations, but every stored tensor keeps its chain of autograd nodes in host memory and still requires grad; "+
			"store %s instead", stmt, unit, hint))
	default:
		p.Report(n, fmt.Sprintf("`%s` stores a tensor whose autograd graph no backward() of this %s is seen to run through: "+
			"every %s's graph stays alive for as long as `%s` holds it, with the activations of any forward pass that "+
			"no backward() ran through still %s; store %s instead",
			stmt, unit, unit, analyzer.Snippet(f.Text(base), 30), where, hint))
	}
	graphAssumptions(p, value, n)
	if !backpropagated {
		methodAssumption(p, value)
	}
	if loop != analyzer.NoNode {
		if test := periodicTest(f, loop, n); test != analyzer.NoNode {
			p.Seldom(fmt.Sprintf("it stores on every few iterations of the loop at line %d only (`%s`): one graph every few %ss, not one per %s",
				f.Position(f.N(loop).Start).Line, analyzer.Snippet(compactText(f, test), 30), unit, unit))
		}
	}
	if followed && goes == fateUnknown && !consumedByBackward(f, value, backpropagated, retained != "") {
		p.Assume(fmt.Sprintf("nothing back-propagates what `%s` holds: `%s` hands it to code whose use of it is not seen",
			analyzer.Snippet(f.Text(base), 30), analyzer.Snippet(compactText(f, unseen), 40)))
	}
}

// siblingsBackpropagated reports whether value is one of the names a
// forward pass's outputs are unpacked into (`policy, q_value, value =
// model(state)`), and loop stores another of them in a container whose
// later uses back-propagate it (heldFate): a backward runs through the
// pass that made value.
func siblingsBackpropagated(m *analyzer.Model, value, loop analyzer.NodeID) bool {
	f := m.File
	value = f.Unparen(value)
	if f.Kind(value) != analyzer.KindIdentifier {
		return false
	}
	bs := m.ReachingBindings(value)
	if len(bs) != 1 || bs[0].Kind != analyzer.BindAssign || !bs[0].Unpacked {
		return false
	}
	call := f.Unparen(bs[0].Value)
	if f.Kind(call) != analyzer.KindCall || !m.IsForwardCall(call) {
		return false
	}
	back := false
	appendedOutputs(m, f.Field(loop, analyzer.FieldBody), assignedNames(f, call), func(app analyzer.NodeID, sib []*analyzer.Binding) bool {
		if len(sib) == 1 && sib[0].Name != bs[0].Name {
			goes, _, followed := heldFate(m, m.Receiver(app), app)
			back = followed && goes == fateYes
		}
		return !back
	})
	return back
}

// feedsBack reports whether loop's body hands the last element of the
// container named key (`hs[-1]`) to a forward pass: the stored values
// feed the next iteration.
func feedsBack(m *analyzer.Model, loop analyzer.NodeID, key string) bool {
	return m.Memo(feedsBackKey{loop}, func() any {
		f := m.File
		keys := map[string]bool{}
		f.Walk(f.Field(loop, analyzer.FieldBody), func(n analyzer.NodeID) {
			if f.Kind(n) != analyzer.KindSubscript || !f.TextIs(f.Unparen(f.Field(n, analyzer.FieldSubscript)), "-1") {
				return
			}
			a := f.Parent(n)
			if f.Kind(a) == analyzer.KindList {
				a = f.Parent(a)
			}
			if f.Kind(a) == analyzer.KindArgumentList && m.IsForwardCall(f.Parent(a)) {
				keys[accumulatorKey(f, f.Field(n, analyzer.FieldValue))] = true
			}
		})
		return keys
	}).(map[string]bool)[key]
}

type feedsBackKey struct{ loop analyzer.NodeID }

// storedTarget returns the container and the stored value of
// `c.append(v)`, `c.appendleft(v)`, `c.extend(v)`, `c.insert(i, v)` or
// `c[i] = v` (with an index that is not a constant, so that each step
// fills a new slot).
// numpyArray reports whether e is an array NumPy made: a name bound once
// to a call of numpy's (`accs = np.zeros(n)`), or an entry of a dict
// whose every value is one (`results = {"acc": np.zeros(n)}`, then
// `results["acc"]`).
func numpyArray(m *analyzer.Model, e analyzer.NodeID) bool {
	f := m.File
	e = f.Unparen(e)
	made := func(v analyzer.NodeID) bool {
		v = f.Unparen(v)
		if f.Kind(v) != analyzer.KindCall {
			return false
		}
		if strings.HasPrefix(m.CallName(v), "numpy.") {
			return true
		}
		// `np.zeros(n)` in a script whose `np` another cell or file
		// imports: the name bound nowhere here is numpy's alias.
		fn := f.Unparen(f.Field(v, analyzer.FieldFunction))
		root := f.Unparen(f.Field(fn, analyzer.FieldObject))
		return f.Kind(fn) == analyzer.KindAttribute && f.Kind(root) == analyzer.KindIdentifier && f.TextIs(root, "np") && m.Resolve(root) == nil
	}
	switch f.Kind(e) {
	case analyzer.KindIdentifier:
		return made(m.AssignedValue(e))
	case analyzer.KindSubscript:
		if f.Kind(f.Unparen(f.Field(e, analyzer.FieldValue))) != analyzer.KindIdentifier {
			return false
		}
		vals := m.EntryValues(f.Field(e, analyzer.FieldValue), f.Field(e, analyzer.FieldSubscript), e)
		return len(vals) > 0 && !slices.ContainsFunc(vals, func(v analyzer.NodeID) bool { return !made(v) })
	}
	return false
}

func storedTarget(f *analyzer.File, m *analyzer.Model, n analyzer.NodeID) (container, value analyzer.NodeID) {
	switch f.Kind(n) {
	case analyzer.KindCall:
		args := m.Args(n)
		switch m.MethodName(n) {
		case "append", "appendleft", "extend":
			if len(args) == 1 {
				return m.Receiver(n), args[0]
			}
		case "insert":
			if len(args) == 2 {
				return m.Receiver(n), args[1]
			}
		}
	case analyzer.KindAugmentedAssignment:
		// `losses += [loss]`: a list extended by a display of values.
		left, right := f.Field(n, analyzer.FieldLeft), f.Unparen(f.Field(n, analyzer.FieldRight))
		if k := f.Kind(left); (k == analyzer.KindIdentifier || k == analyzer.KindAttribute) && f.Kind(right) == analyzer.KindList &&
			strings.HasPrefix(f.Text(f.Field(n, analyzer.FieldOperator)), "+") {
			return left, right
		}
	case analyzer.KindAssignment:
		left := f.Field(n, analyzer.FieldLeft)
		if f.Kind(left) != analyzer.KindSubscript {
			return analyzer.NoNode, analyzer.NoNode
		}
		if storedConstantIndex(f, left) {
			return analyzer.NoNode, analyzer.NoNode
		}
		right := f.Field(n, analyzer.FieldRight)
		if f.Kind(right) == analyzer.KindAssignment || numpyArray(m, f.Field(left, analyzer.FieldValue)) {
			// A NumPy array's element holds a number: a tensor stored
			// there is converted, never kept.
			return analyzer.NoNode, analyzer.NoNode
		}
		return f.Field(left, analyzer.FieldValue), right
	}
	return analyzer.NoNode, analyzer.NoNode
}

// storedConstantIndex reports whether a subscript's index is made of
// literals only (`stats["loss"]`, `buf[0]`): the slot is overwritten each
// step rather than a new one filled.
func storedConstantIndex(f *analyzer.File, sub analyzer.NodeID) bool {
	constant := true
	f.Children(sub, func(c analyzer.NodeID) bool {
		if f.N(c).Field == analyzer.FieldValue {
			return true
		}
		f.Walk(c, func(id analyzer.NodeID) {
			if f.Kind(id) == analyzer.KindIdentifier {
				constant = false
			}
		})
		return constant
	})
	return constant
}

// storedFixedSlot reports whether a subscript store inside loop writes
// the same slots on every iteration: its index is made of names the
// loop's body does not bind (nor fn, for an attribute), and of the
// targets of loops nested in it over iterables made of such names
// (`fast[self.names[i]] = w` in `for i in range(self.n)`, a MAML inner
// step's fast weights). The container then holds one iteration's values
// per slot, not one more each step.
func storedFixedSlot(m *analyzer.Model, n, loop, fn analyzer.NodeID) bool {
	f := m.File
	if loop == analyzer.NoNode || f.Kind(n) != analyzer.KindAssignment {
		return false
	}
	left := f.Field(n, analyzer.FieldLeft)
	if f.Kind(left) != analyzer.KindSubscript {
		return false
	}
	body := f.Field(loop, analyzer.FieldBody)
	// The names bound in the loop's body, and the nested loops' targets.
	bound, inner := map[string]bool{}, map[string]analyzer.NodeID{}
	for l := loop; l != analyzer.NoNode; l = m.EnclosingLoop(l) {
		if f.Kind(l) == analyzer.KindForStatement {
			for _, x := range targetNames(f, f.Field(l, analyzer.FieldLeft)) {
				bound[f.Text(x)] = true // `history[epoch] = loss`: a new slot each step or epoch
			}
		}
	}
	f.Walk(body, func(id analyzer.NodeID) {
		switch f.Kind(id) {
		case analyzer.KindAssignment, analyzer.KindAugmentedAssignment, analyzer.KindForStatement:
			for _, x := range targetNames(f, f.Field(id, analyzer.FieldLeft)) {
				bound[f.Text(x)] = true
				if f.Kind(id) == analyzer.KindForStatement && f.Contains(id, n) {
					inner[f.Text(x)] = f.Field(id, analyzer.FieldRight)
				}
			}
		case analyzer.KindNamedExpression:
			bound[f.Text(f.Field(id, analyzer.FieldName))] = true
		}
	})
	// fixed reports whether an expression names the same values on every
	// iteration of loop.
	var fixed func(e analyzer.NodeID, depth int) bool
	fixed = func(e analyzer.NodeID, depth int) bool {
		ok := depth < 4
		f.Walk(e, func(id analyzer.NodeID) {
			switch {
			case !ok:
			case f.Kind(id) == analyzer.KindAttribute && f.N(id).Field != analyzer.FieldObject:
				// `self.names`: not assigned anywhere in fn.
				ok = len(m.AssignmentsIn(fn)[f.Text(id)]) == 0
			case f.Kind(id) == analyzer.KindCall:
				// `len(self.names)`, `range(n)`: a call of a builtin only.
				q := m.CallName(id)
				ok = q == "range" || q == "len" || q == "enumerate" || q == "zip"
			case f.Kind(id) != analyzer.KindIdentifier || f.N(id).Field == analyzer.FieldAttribute || f.N(id).Field == analyzer.FieldFunction:
			case hasIter(inner, f.Text(id)):
				ok = fixed(inner[f.Text(id)], depth+1)
			default:
				ok = !bound[f.Text(id)]
			}
		})
		return ok
	}
	slots, any := true, false
	f.Children(left, func(c analyzer.NodeID) bool {
		if f.N(c).Field != analyzer.FieldValue {
			any, slots = true, fixed(c, 0) // each index of `x[:, i]`
		}
		return slots
	})
	return any && slots
}

func hasIter(inner map[string]analyzer.NodeID, name string) bool {
	_, ok := inner[name]
	return ok
}

// targetNames returns the names and attribute chains an assignment's
// target binds (`x`, `self.ptr`, each of `a, (b, self.c)`), not those
// read inside a subscript target (`d[k]` binds nothing but an entry).
func targetNames(f *analyzer.File, t analyzer.NodeID) []analyzer.NodeID {
	switch t = f.Unparen(t); f.Kind(t) {
	case analyzer.KindIdentifier, analyzer.KindAttribute:
		return []analyzer.NodeID{t}
	case analyzer.KindPatternList, analyzer.KindTuplePattern, analyzer.KindListPattern, analyzer.KindTuple, analyzer.KindList:
		var out []analyzer.NodeID
		f.Children(t, func(c analyzer.NodeID) bool {
			out = append(out, targetNames(f, c)...)
			return true
		})
		return out
	}
	return nil
}

// storedCarries is CarriesGraph, extended to dictionary displays
// (`outputs.append({"loss": loss, "logits": logits})`).
func storedCarries(m *analyzer.Model, value analyzer.NodeID) bool {
	f := m.File
	value = f.Unparen(value)
	if f.Kind(value) != analyzer.KindDictionary {
		return m.CarriesGraph(value) && !m.DetachedElements(value)
	}
	yes := false
	f.Children(value, func(c analyzer.NodeID) bool {
		if f.Kind(c) == analyzer.KindPair {
			yes = m.CarriesGraph(f.Field(c, analyzer.FieldValue))
		}
		return !yes
	})
	return yes
}

// storedBase strips subscripts from a container expression:
// `stats["loss"]` is stored in `stats`, `self.buf[k]` in `self.buf`.
func storedBase(f *analyzer.File, c analyzer.NodeID) analyzer.NodeID {
	c = f.Unparen(c)
	for f.Kind(c) == analyzer.KindSubscript {
		c = f.Unparen(f.Field(c, analyzer.FieldValue))
	}
	return c
}

// storedRoot returns the identifier an attribute chain starts from.
func storedRoot(f *analyzer.File, c analyzer.NodeID) analyzer.NodeID {
	for {
		switch f.Kind(c) {
		case analyzer.KindAttribute:
			c = f.Unparen(f.Field(c, analyzer.FieldObject))
		case analyzer.KindSubscript:
			c = f.Unparen(f.Field(c, analyzer.FieldValue))
		case analyzer.KindIdentifier:
			return c
		default:
			return analyzer.NoNode
		}
	}
}

// storedStepLoop decides whether the container base, stored into at n,
// outlives the step that runs n. It returns the per-step loop the
// container is created outside of, or NoNode with ok when n runs in a
// function called once per step and the container outlives the call (an
// attribute, a module-level name). local says that the container is
// created within n's own function.
func storedStepLoop(m *analyzer.Model, n, base, fn analyzer.NodeID) (loop analyzer.NodeID, local, ok bool) {
	f := m.File
	root := storedRoot(f, base)
	if root == analyzer.NoNode {
		return analyzer.NoNode, false, false
	}
	key := accumulatorKey(f, base)
	// bound is the statement that creates the container within fn, or
	// NoNode when it comes from outside fn (an attribute of self, a
	// parameter, a global).
	bound := analyzer.NoNode
	switch b := m.Resolve(root); {
	case f.TextIs(root, "self"):
		// `self.table = torch.zeros(n, d)` made afresh by this call,
		// before the loop that fills it: it holds this call's values
		// alone, as a local container would.
		bound = freshAttribute(m, fn, key, n)
	case b == nil:
		return analyzer.NoNode, false, false
	case b.Kind == analyzer.BindImport || b.Kind == analyzer.BindFunction || b.Kind == analyzer.BindClass:
		return analyzer.NoNode, false, false
	case b.Kind == analyzer.BindLoopTarget:
		if root == base {
			return analyzer.NoNode, false, false // one of several containers, picked per iteration
		}
		bound = b.Stmt
	case b.Kind == analyzer.BindParam:
	case m.ScopeNode(b.Stmt) != fn:
	default:
		bound = b.Stmt
	}
	local = bound != analyzer.NoNode
	for l := m.EnclosingLoop(n); l != analyzer.NoNode; l = m.EnclosingLoop(l) {
		if k := f.Kind(l); k != analyzer.KindForStatement && k != analyzer.KindWhileStatement {
			continue
		}
		if local && f.Contains(l, bound) {
			return analyzer.NoNode, local, false // created afresh in each iteration
		}
		if storedResetIn(m, f.Field(l, analyzer.FieldBody), key) {
			return analyzer.NoNode, local, false
		}
		if local && m.FixedIterations(l) {
			continue // `for x in [real, fake]:`: a few passes of one step
		}
		if local && storedPerModelLoop(m, l) {
			// `for i in range(n_agents): ...; opts[i].step()`: one step of
			// each model, all within one step of the loop or call around.
			continue
		}
		if !local && slotPerIndex(m, n, l, fn) {
			// `self.outputs["conv%d" % i] = h` over the layers of a forward
			// pass: the same slots each call, overwritten, not one more.
			continue
		}
		a := m.Loop(l)
		// An epoch: each iteration runs a loop of steps. One that runs a
		// forward pass of its own (samples of the generator, a validation
		// loss) is an epoch when its loop of steps goes over batches, and
		// the loop of steps itself when what it runs steps one model per
		// iteration; a loop over tasks that adapts a model in a few steps
		// for each is neither.
		runs := !a.PerStep() && storedRunsSteps(m, l) || storedRunsBatchSteps(m, l) || storedRunsModelSteps(m, l)
		// An episode (environmentLoop): each iteration a pass on a new
		// observation, a step of the rollout.
		episode := local && environmentLoop(m, l)
		if a.PerStep() || runs || episode {
			if local && !a.Batches && !a.Backward && !runs && !episode {
				// A loop over tokens, chunks or models rather than
				// batches: one step of an outer loop, if any.
				continue
			}
			if local && !a.Batches && accumulatesOneStep(m, l, bound) {
				return analyzer.NoNode, local, false
			}
			return l, local, true
		}
	}
	if local || fn == analyzer.Root || m.EnclosingLoop(n) != analyzer.NoNode {
		return analyzer.NoNode, local, false
	}
	if storedResetIn(m, fn, key) || !storedPerStepFunction(m, fn) {
		return analyzer.NoNode, local, false
	}
	return analyzer.NoNode, local, true
}

// backpropagatedByOuterStep reports whether a container of fn, made
// afresh in each iteration of a loop around loop (the loop of steps it is
// filled in), holds values that a backward of that outer loop's own body,
// after loop, runs through: MAML's outer step back-propagates the outputs
// of its inner adaptation steps. The container then holds one outer
// step's graphs, which that backward frees, and no more.
func backpropagatedByOuterStep(m *analyzer.Model, loop, base, value, fn analyzer.NodeID) bool {
	f := m.File
	key := accumulatorKey(f, base)
	b := m.Resolve(storedRoot(f, base))
	for o := m.EnclosingLoop(loop); o != analyzer.NoNode; o = m.EnclosingLoop(o) {
		body := f.Field(o, analyzer.FieldBody)
		madeHere := b != nil && b.Kind == analyzer.BindAssign && f.Contains(body, b.Stmt)
		if !madeHere && !storedResetIn(m, body, key) {
			continue
		}
		keys := map[string]bool{}
		var after []analyzer.NodeID // the statements between loop and the last backward that reaches a key
		for _, s := range f.ChildList(body) {
			if f.N(s).Start < f.N(loop).End {
				continue
			}
			after = append(after, s)
			if k := m.BackpropKeys(s, fn); len(k) > 0 {
				maps.Copy(keys, k)
				if valueBackpropagated(m, value, keys) {
					break // what binds the names after this backward does not matter
				}
			}
		}
		// The names are the stored values only where the outer step does
		// not bind them again before its backward (`loss = ...;
		// loss.backward()` on an anchor batch back-propagates a new tensor).
		rebound := false
		f.Walk(value, func(id analyzer.NodeID) {
			if f.Kind(id) == analyzer.KindIdentifier {
				for _, s := range after {
					rebound = rebound || len(m.AssignmentsIn(s)[f.Text(id)]) > 0
				}
			}
		})
		return !rebound && valueBackpropagated(m, value, keys) && retainedBackward(m, body) == ""
	}
	return false
}

// freshAttribute returns the statement of function fn, outside any loop
// and before node n, that binds attribute key of self to a new value (a
// call or a literal: `self.table = torch.zeros(n, d)`, `self.outs = []`);
// NoNode where there is none.
func freshAttribute(m *analyzer.Model, fn analyzer.NodeID, key string, n analyzer.NodeID) analyzer.NodeID {
	f := m.File
	if fn == analyzer.Root {
		return analyzer.NoNode
	}
	found := analyzer.NoNode
	f.Walk(fn, func(id analyzer.NodeID) {
		if found != analyzer.NoNode || f.Kind(id) != analyzer.KindAssignment || f.N(id).Start >= f.N(n).Start ||
			m.ScopeNode(id) != fn || m.EnclosingLoop(id) != analyzer.NoNode && f.Contains(fn, m.EnclosingLoop(id)) {
			return
		}
		switch f.Kind(f.Unparen(f.Field(id, analyzer.FieldRight))) {
		case analyzer.KindCall, analyzer.KindList, analyzer.KindDictionary:
		default:
			return
		}
		if left := f.Field(id, analyzer.FieldLeft); f.Kind(left) == analyzer.KindAttribute && compactText(f, left) == key {
			found = id
		}
	})
	return found
}

// detachedLater reports whether function fn, after node n and outside
// any loop, binds container key again to its own detached value
// (`self.table = self.table.detach()`): what the call stored keeps no
// graph past it.
func detachedLater(m *analyzer.Model, fn analyzer.NodeID, key string, n analyzer.NodeID) bool {
	f := m.File
	if fn == analyzer.Root {
		return false
	}
	found := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindAssignment || f.N(id).Start <= f.N(n).End || m.ScopeNode(id) != fn ||
			m.EnclosingLoop(id) != analyzer.NoNode && f.Contains(fn, m.EnclosingLoop(id)) || compactText(f, f.Field(id, analyzer.FieldLeft)) != key {
			return
		}
		right := f.Unparen(f.Field(id, analyzer.FieldRight))
		found = f.Kind(right) == analyzer.KindCall && m.MethodName(right) == "detach" &&
			strings.HasPrefix(compactText(f, right), key+".")
	})
	return found
}

// joinedIntoNumpy reports whether function fn, after the store n, joins
// the container named key into one tensor (`torch.cat(feats)`) whose
// value reaches `.numpy()`, which raises on a tensor that requires grad:
// what the code stores there, if it runs at all, carries no graph (a
// frozen feature extractor's features).
func joinedIntoNumpy(m *analyzer.Model, fn analyzer.NodeID, key string, n analyzer.NodeID) bool {
	f := m.File
	if fn == analyzer.Root {
		return false
	}
	found := false
	f.Walk(f.Field(fn, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || f.N(id).Start <= f.N(n).End || m.ScopeNode(id) != fn {
			return
		}
		switch m.QualifiedName(f.Field(id, analyzer.FieldFunction)) {
		case "torch.cat", "torch.concat", "torch.concatenate", "torch.stack", "torch.vstack", "torch.hstack":
		default:
			return
		}
		if args := m.Args(id); len(args) > 0 && compactText(f, f.Unparen(args[0])) == key {
			found = reachesNumpyThrough(m, id, 0, true)
		}
	})
	return found
}

// slotPerIndex reports whether n, a subscript store, writes a slot named
// by the index of loop, a loop over `range(...)` of bounds fn does not
// bind (constants, attributes, parameters) that runs no step of its own
// (no batches, no backward): each call of fn writes the same slots.
func slotPerIndex(m *analyzer.Model, n, loop, fn analyzer.NodeID) bool {
	f := m.File
	if f.Kind(n) != analyzer.KindAssignment || f.Kind(f.Field(n, analyzer.FieldLeft)) != analyzer.KindSubscript ||
		f.Kind(loop) != analyzer.KindForStatement {
		return false
	}
	iter := f.Unparen(f.Field(loop, analyzer.FieldRight))
	if f.Kind(iter) != analyzer.KindCall || m.CallName(iter) != "range" {
		return false
	}
	if a := m.Loop(loop); a.Batches || a.Backward {
		return false
	}
	assigned := m.AssignmentsIn(fn)
	fixed := true
	f.Walk(f.Field(iter, analyzer.FieldArguments), func(id analyzer.NodeID) {
		switch {
		case !fixed:
		case f.Kind(id) == analyzer.KindAttribute && f.N(id).Field != analyzer.FieldObject:
			fixed = len(assigned[f.Text(id)]) == 0 // `self.num_layers`
		case f.Kind(id) == analyzer.KindIdentifier && f.N(id).Field != analyzer.FieldAttribute && f.N(id).Field != analyzer.FieldObject:
			b := m.Resolve(id)
			fixed = b == nil || b.Kind == analyzer.BindParam || b.Kind == analyzer.BindImport
		}
	})
	return fixed
}

// storedOncePerEpoch reports whether the store n runs once per
// iteration of a loop that runs a loop of steps over batches (an epoch),
// outside that loop of steps: after it, to sample or validate.
func storedOncePerEpoch(m *analyzer.Model, n, loop analyzer.NodeID) bool {
	if loop == analyzer.NoNode || !storedRunsBatchSteps(m, loop) {
		return false
	}
	for l := m.EnclosingLoop(n); l != loop && l != analyzer.NoNode; l = m.EnclosingLoop(l) {
		if m.Loop(l).Backward {
			return false
		}
	}
	return true
}

// storedRunsBatchSteps reports whether loop's body runs a loop over
// batches that back-propagates or steps an optimizer in each iteration.
func storedRunsBatchSteps(m *analyzer.Model, loop analyzer.NodeID) bool {
	return storedRunsLoop(m, loop, func(l analyzer.NodeID) bool {
		a := m.Loop(l)
		return a.Batches && a.Backward
	})
}

// storedRunsModelSteps reports whether loop's body runs a loop that
// steps one model per iteration (storedPerModelLoop).
func storedRunsModelSteps(m *analyzer.Model, loop analyzer.NodeID) bool {
	return storedRunsLoop(m, loop, func(l analyzer.NodeID) bool {
		return m.Loop(l).Backward && storedPerModelLoop(m, l)
	})
}

// storedRunsLoop reports whether loop's body, in its own function, has
// a loop that is accepts.
func storedRunsLoop(m *analyzer.Model, loop analyzer.NodeID, is func(analyzer.NodeID) bool) bool {
	f := m.File
	fn := m.ScopeNode(loop)
	found := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if k := f.Kind(id); !found && (k == analyzer.KindForStatement || k == analyzer.KindWhileStatement) && m.ScopeNode(id) == fn {
			found = is(id)
		}
	})
	return found
}

// storedPerModelLoop reports whether each iteration of loop trains a
// different model: it iterates no batches nor runs a loop over them, and
// every optimizer it steps
// is picked by the iteration (`opts[i].step()` or `opt = opts[level]`
// with i and level the loop's variables, `for net, opt in zip(nets,
// opts)`, `scaler.step(opts[i])`). Its iterations are the models of one step, as many as there
// are models, not successive steps.
func storedPerModelLoop(m *analyzer.Model, loop analyzer.NodeID) bool {
	f := m.File
	if f.Kind(loop) != analyzer.KindForStatement || m.Loop(loop).Batches || storedRunsBatchSteps(m, loop) {
		return false // over batches, or epochs
	}
	targets := map[string]bool{}
	f.Walk(f.Field(loop, analyzer.FieldLeft), func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindIdentifier {
			targets[f.Text(id)] = true
		}
	})
	fn := m.ScopeNode(loop)
	steps, picked := 0, 0
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall || m.MethodName(id) != "step" || m.ScopeNode(id) != fn {
			return
		}
		recv := f.Unparen(m.Receiver(id))
		if args := m.Args(id); strings.Contains(strings.ToLower(storedBaseName(f, recv)), "scaler") && len(args) == 1 {
			recv = f.Unparen(args[0]) // `scaler.step(opts[i])`
		} else if !optimizerName(storedBaseName(f, recv)) {
			return
		}
		steps++
		if pickedByIteration(m, loop, recv, targets) {
			picked++
		}
	})
	return steps > 0 && picked == steps
}

// storedBaseName is the last name of an expression with its subscripts
// taken off: `opts` for `self.opts[i]`.
func storedBaseName(f *analyzer.File, e analyzer.NodeID) string {
	return lastIdent(f, storedBase(f, e))
}

// optimizerName reports whether a name reads as an optimizer or a list
// of them: `opt`, `opts`, `c_opts`, `optimizer_g`, `optimizers`.
func optimizerName(name string) bool {
	name = strings.ToLower(name)
	return (strings.Contains(name, "optim") || strings.HasSuffix(name, "opt") || strings.HasSuffix(name, "opts") ||
		strings.HasPrefix(name, "opt_")) && !analyzer.SchedulerName(name)
}

// pickedByIteration reports whether e, in loop's body, differs in each
// iteration: a subscript by one of the loop's variables (`opts[i]`), an
// attribute of one (`agent.optimizer`), a variable itself, or a name
// assigned one of these in the body (`opt = opts[level]`) or a new
// optimizer (`opt = torch.optim.SGD(fast.parameters())`).
func pickedByIteration(m *analyzer.Model, loop, e analyzer.NodeID, targets map[string]bool) bool {
	f := m.File
	for range 4 {
		e = f.Unparen(e)
		switch f.Kind(e) {
		case analyzer.KindSubscript:
			if i := f.Unparen(f.Field(e, analyzer.FieldSubscript)); f.Kind(i) == analyzer.KindIdentifier && targets[f.Text(i)] {
				return true
			}
			e = f.Field(e, analyzer.FieldValue)
		case analyzer.KindAttribute:
			e = f.Field(e, analyzer.FieldObject)
		case analyzer.KindIdentifier:
			b := m.Resolve(e)
			if b == nil {
				return false
			}
			if b.Kind == analyzer.BindLoopTarget && b.Stmt == loop {
				return true
			}
			if b.Kind != analyzer.BindAssign || b.Unpacked || !f.Contains(f.Field(loop, analyzer.FieldBody), b.Stmt) {
				return false
			}
			if v := f.Unparen(b.Value); f.Kind(v) == analyzer.KindCall && strings.HasPrefix(m.CallName(v), "torch.optim.") {
				return true // a fresh optimizer each iteration
			}
			e = b.Value
		default:
			return false
		}
	}
	return false
}

// accumulatesOneStep reports whether loop back-propagates the parts of
// one optimizer step (the chunks of a batch, their gradients summed)
// inside a loop whose every iteration creates the container afresh
// (bound) and steps the optimizer: the container holds one step's parts.
func accumulatesOneStep(m *analyzer.Model, loop, bound analyzer.NodeID) bool {
	f := m.File
	if stepsOptimizer(m, loop) {
		return false
	}
	for o := m.EnclosingLoop(loop); o != analyzer.NoNode; o = m.EnclosingLoop(o) {
		if f.Contains(f.Field(o, analyzer.FieldBody), bound) {
			return stepsOptimizer(m, o)
		}
	}
	return false
}

// stepsOptimizer reports whether a statement of loop's own body (not of
// a loop nested in it) steps an optimizer.
func stepsOptimizer(m *analyzer.Model, loop analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if !found && f.Kind(id) == analyzer.KindCall && m.EnclosingLoop(id) == loop && m.MethodName(id) == "step" {
			recv := strings.ToLower(lastIdent(f, m.Receiver(id)))
			found = optimizerName(recv) || strings.Contains(recv, "scaler")
		}
	})
	return found
}

// storedRunsSteps reports whether loop's body runs a loop that
// back-propagates (not only derivatives to differentiate again) or steps
// an optimizer in each iteration.
func storedRunsSteps(m *analyzer.Model, loop analyzer.NodeID) bool {
	f := m.File
	fn := m.ScopeNode(loop)
	found := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if k := f.Kind(id); !found && (k == analyzer.KindForStatement || k == analyzer.KindWhileStatement) && m.ScopeNode(id) == fn {
			a := m.Loop(id)
			found = a.Backward && !a.Derivatives
		}
	})
	return found
}

// environmentLoop reports whether loop steps an environment on every
// iteration (`state, reward, done, _ = env.step(action)`: a method named
// step whose result is unpacked into three names or more, gym's
// observation, reward and done): an episode, each iteration a pass on a
// new observation, not the parts of one forward pass.
func environmentLoop(m *analyzer.Model, loop analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || m.MethodName(id) != "step" || m.EnclosingLoop(id) != loop {
			return
		}
		a := f.Parent(id)
		if f.Kind(a) != analyzer.KindAssignment || f.Field(a, analyzer.FieldRight) != id {
			return
		}
		if left := f.Field(a, analyzer.FieldLeft); (f.Kind(left) == analyzer.KindPatternList || f.Kind(left) == analyzer.KindTuplePattern) && len(f.ChildList(left)) >= 3 {
			found = true
		}
	})
	return found
}

// storedModuleMethod reports whether fn is a method of an nn.Module
// class other than a step hook or an evaluation method.
func storedModuleMethod(m *analyzer.Model, fn analyzer.NodeID) bool {
	if fn == analyzer.Root {
		return false
	}
	name := m.FunctionName(fn)
	class := m.EnclosingClass(fn)
	return class != analyzer.NoNode && m.IsModuleClass(class) && !storedStepNames[name] && !isEvalName(name)
}

// storedPopped reports whether region takes tensors out of the container
// key again (`outputs.pop(0)`): a queue, not an archive.
func storedPopped(m *analyzer.Model, region analyzer.NodeID, key string) bool {
	f := m.File
	found := false
	f.Walk(region, func(id analyzer.NodeID) {
		if !found && f.Kind(id) == analyzer.KindCall {
			switch m.MethodName(id) {
			case "pop", "popleft":
				found = accumulatorKey(f, storedBase(f, m.Receiver(id))) == key
			}
		}
	})
	return found
}

// storedResetIn reports whether region empties or re-creates the
// container key: `preds = []`, `self.outputs = []`, `preds.clear()`,
// `del preds[:]`. A container reset every few steps holds a bounded
// number of steps.
func storedResetIn(m *analyzer.Model, region analyzer.NodeID, key string) bool {
	f := m.File
	found := false
	f.Walk(region, func(id analyzer.NodeID) {
		if found {
			return
		}
		switch f.Kind(id) {
		case analyzer.KindAssignment:
			left := f.Field(id, analyzer.FieldLeft)
			switch f.Kind(left) {
			case analyzer.KindIdentifier, analyzer.KindAttribute:
				found = accumulatorKey(f, left) == key
			case analyzer.KindPatternList, analyzer.KindTuplePattern, analyzer.KindExpressionList, analyzer.KindTuple:
				f.Children(left, func(c analyzer.NodeID) bool {
					found = found || accumulatorKey(f, c) == key
					return true
				})
			}
		case analyzer.KindCall:
			switch m.MethodName(id) {
			case "clear", "pop", "popleft":
				found = accumulatorKey(f, storedBase(f, m.Receiver(id))) == key
			}
		case analyzer.KindDeleteStatement:
			f.Children(id, func(c analyzer.NodeID) bool {
				found = found || accumulatorKey(f, storedBase(f, c)) == key
				return true
			})
		}
	})
	return found
}

// storedStepNames are functions run once per training or evaluation
// step: Lightning's step hooks and their common hand-written names.
var storedStepNames = map[string]bool{
	"training_step": true, "validation_step": true, "test_step": true, "predict_step": true,
	"train_step": true, "val_step": true, "eval_step": true, "train_batch": true,
	"training_step_end": true, "train_one_step": true, "train_on_batch": true,
}

// storedPerStepFunction reports whether fn runs once per step: it is a
// step hook, or this file calls it inside a per-step loop.
func storedPerStepFunction(m *analyzer.Model, fn analyzer.NodeID) bool {
	if storedStepNames[m.FunctionName(fn)] {
		return true
	}
	return storedCalledPerStep(m)[fn]
}

type storedCalledKey struct{}

// storedCalledPerStep finds the functions and methods of this file that
// are called inside a per-step loop, once per file.
func storedCalledPerStep(m *analyzer.Model) map[analyzer.NodeID]bool {
	return m.Memo(storedCalledKey{}, func() any {
		f := m.File
		out := map[analyzer.NodeID]bool{}
		f.Walk(analyzer.Root, func(id analyzer.NodeID) {
			if f.Kind(id) != analyzer.KindCall {
				return
			}
			def := m.LocalCallee(id)
			if def == analyzer.NoNode || out[def] {
				return
			}
			for l := m.EnclosingLoop(id); l != analyzer.NoNode; l = m.EnclosingLoop(l) {
				if m.Loop(l).PerStep() {
					out[def] = true
					return
				}
			}
		})
		return out
	}).(map[analyzer.NodeID]bool)
}

// storedReturned reports whether fn returns the container key, or a
// value computed from it (`h = torch.stack(outs); return h`).
// returnsItself reports whether a return of fn gives the container key
// as it is, alone or in a tuple (`return losses`, `return x, losses`),
// not what is read from it.
func returnsItself(m *analyzer.Model, fn analyzer.NodeID, key string) bool {
	f := m.File
	return slices.ContainsFunc(m.ReturnValues(fn), func(r analyzer.NodeID) bool {
		r = f.Unparen(r)
		if f.TextIs(r, key) {
			return true
		}
		switch f.Kind(r) {
		case analyzer.KindTuple, analyzer.KindExpressionList, analyzer.KindList:
			return slices.ContainsFunc(f.ChildList(r), func(e analyzer.NodeID) bool { return f.TextIs(f.Unparen(e), key) })
		}
		return false
	})
}

func storedReturned(m *analyzer.Model, fn analyzer.NodeID, key string) bool {
	return storedReturnKeys(m, fn)[key]
}

type storedReturnKey struct{ fn analyzer.NodeID }

// storedReturnKeys returns the names that flow into fn's return values:
// those the returns mention, then, transitively, those assigned into them.
func storedReturnKeys(m *analyzer.Model, fn analyzer.NodeID) map[string]bool {
	return m.Memo(storedReturnKey{fn}, func() any {
		f := m.File
		keys := map[string]bool{}
		f.Walk(fn, func(id analyzer.NodeID) {
			if k := f.Kind(id); (k == analyzer.KindReturnStatement || k == analyzer.KindYield) && m.EnclosingFunction(id) == fn {
				m.ExprKeys(id, keys)
			}
		})
		// Values put into a container flow wherever the container does.
		assigns := map[string][]analyzer.NodeID{}
		for k, v := range m.AssignmentsIn(fn) {
			assigns[k] = append(assigns[k], v...)
		}
		f.Walk(fn, func(id analyzer.NodeID) {
			if f.Kind(id) != analyzer.KindCall {
				return
			}
			if c, v := storedTarget(f, m, id); v != analyzer.NoNode {
				k := accumulatorKey(f, storedBase(f, c))
				assigns[k] = append(assigns[k], v)
			}
		})
		m.ExpandKeys(keys, assigns)
		return keys
	}).(map[string]bool)
}

// storedWithReturned adds the names fn returns to the step's
// back-propagated names.
func storedWithReturned(m *analyzer.Model, fn analyzer.NodeID, keys map[string]bool) map[string]bool {
	ret := storedReturnKeys(m, fn)
	if len(ret) == 0 {
		return keys
	}
	out := make(map[string]bool, len(keys)+len(ret))
	for k := range keys {
		out[k] = true
	}
	for k := range ret {
		out[k] = true
	}
	return out
}

// storedHint suggests, for a message, the detached form of a stored
// value: `.item()` for a value that reads as a scalar (a loss, a
// reduction), `.detach()` otherwise (a per-sample loss included).
func storedHint(f *analyzer.File, m *analyzer.Model, value analyzer.NodeID) string {
	v := f.Unparen(value)
	val := analyzer.Snippet(f.Text(v), 40)
	switch f.Kind(v) {
	case analyzer.KindList, analyzer.KindTuple, analyzer.KindDictionary:
		return "detached tensors"
	case analyzer.KindBinaryOperator:
		// `d.get(k, []) + [v]`: a list grown by concatenation holds the
		// tensors, which are what to detach; the list has no `.detach()`.
		left, right := f.Unparen(f.Field(v, analyzer.FieldLeft)), f.Unparen(f.Field(v, analyzer.FieldRight))
		if f.TextIs(f.Field(v, analyzer.FieldOperator), "+") && (f.Kind(left) == analyzer.KindList || f.Kind(right) == analyzer.KindList) {
			list, other := right, left
			if f.Kind(left) == analyzer.KindList {
				list, other = left, right
			}
			elems := f.ChildList(list)
			if len(elems) != 1 {
				return "detached tensors"
			}
			elem := strings.Trim(storedHint(f, m, elems[0]), "`")
			if list == right {
				return "`" + analyzer.Snippet(f.Text(other), 30) + " + [" + elem + "]`"
			}
			return "`[" + elem + "] + " + analyzer.Snippet(f.Text(other), 30) + "`"
		}
		val = "(" + val + ")"
	case analyzer.KindUnaryOperator, analyzer.KindConditionalExpression, analyzer.KindAwait:
		val = "(" + val + ")"
	}
	if scalarLike(m, v, 0) {
		return "`" + val + ".item()`"
	}
	return "`" + val + ".detach()`"
}

// frozenOrigin reports whether a value is the output of a forward pass of
// a model whose parameters the file freezes (a target network): with
// nothing to train and inputs that need no gradient, it has no graph.
func frozenOrigin(m *analyzer.Model, value analyzer.NodeID) bool {
	f := m.File
	v := f.Unparen(value)
	for i := 0; i < 8; i++ {
		switch {
		case f.Kind(v) == analyzer.KindIdentifier:
			if m.WrittenInPlace(m.ScopeNode(v), f.Text(v)) {
				return false // `out.add_(adapter(x))`: another graph written in
			}
			v = f.Unparen(m.AssignedValue(v))
		case f.Kind(v) == analyzer.KindCall && ownHistory[m.MethodName(v)]:
			v = f.Unparen(m.Receiver(v)) // `backbone(x).sum()`
		default:
			i = 8
		}
	}
	return f.Kind(v) == analyzer.KindCall && (m.IsForwardCall(v) || m.LocalCallee(v) != analyzer.NoNode) && frozen(m, v)
}

// ownHistory are the tensor methods whose result has the autograd history
// of their receiver alone: what they are given besides is no tensor.
var ownHistory = map[string]bool{
	"sum": true, "mean": true, "max": true, "min": true, "norm": true, "view": true, "reshape": true,
	"flatten": true, "squeeze": true, "unsqueeze": true, "float": true, "double": true, "half": true,
	"cpu": true, "cuda": true, "to": true, "contiguous": true, "clone": true,
}

// globalContainer reports whether a container is reached through a
// module-level name (`agent.log_probs`, `saved`): any function of the file
// may use what it holds.
func globalContainer(m *analyzer.Model, base analyzer.NodeID) bool {
	f := m.File
	root := storedRoot(f, base)
	if f.Kind(root) != analyzer.KindIdentifier || f.TextIs(root, "self") {
		return false
	}
	b := m.Resolve(root)
	return b != nil && m.ScopeNode(b.Name) == analyzer.Root
}

// backpropagatedInFile reports whether a function of the file other
// than fn back-propagates what the container base holds.
func backpropagatedInFile(m *analyzer.Model, fn, base analyzer.NodeID) bool {
	f := m.File
	key := accumulatorKey(f, base)
	return m.Memo(fileBackpropKey{key}, func() any {
		found := false
		f.Walk(analyzer.Root, func(id analyzer.NodeID) {
			if !found && id != fn && f.Kind(id) == analyzer.KindFunctionDefinition {
				found = m.ContainerBackpropagated(id, f.Field(id, analyzer.FieldBody), base)
			}
		})
		return found
	}).(bool)
}

type fileBackpropKey struct{ key string }
