package rules

import (
	"fmt"
	"slices"

	"github.com/torchlint/torchlint/analyzer"
)

// VolatileHasNoEffect is TL202.
var VolatileHasNoEffect = &analyzer.Rule{
	Code:      "TL202",
	Name:      "volatile-has-no-effect",
	Summary:   "`Variable(..., volatile=True)` has no effect since PyTorch 0.4",
	Severity:  analyzer.SeverityWarning,
	Precision: "very-high",
	Tags:      []string{"memory", "grad-mode", "deprecated"},
	Fixable:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkVolatileHasNoEffect,
	Doc: `## What it does
Checks for ` + "`torch.autograd.Variable(..., volatile=...)`" + `, and for
` + "`Variable(x, requires_grad=False)`" + ` whose result is fed to a model that runs
with grad enabled.

## Why is this bad?
Before PyTorch 0.4, ` + "`volatile=True`" + ` was how inference turned autograd off.
Since 0.4 ` + "`Variable`" + ` is a no-op wrapper that returns a tensor, and the
` + "`volatile`" + ` flag is ignored with a warning: the forward pass that follows
records its graph and keeps its activations alive exactly as in training.
Likewise, ` + "`requires_grad=False`" + ` on an input does not stop the graph from
being built, because the model's parameters still require grad.

Measured: on an NVIDIA H200 with PyTorch 2.11.0, median of 5 repetitions ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL202.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl201_tl202_eval.py)):
wrapping each input in ` + "`Variable(x, volatile=True)`" + ` changes nothing. A
loop evaluating a randomly initialised ResNet-50 peaks at 10460 MiB above
the weights with or without it, against 637.2 MiB under
` + "`torch.no_grad()`" + `; a transformer of GPT-2 small's shape at 12470 MiB,
against 3189 MiB. Latency stays within 1 ms (10.25 against 9.551 ms, 51.95
against 51.84 ms).

## Example
` + "```python" + `
def evaluate(model, loader):
    for x, y in loader:
        x = Variable(x.cuda(), volatile=True)
        out = model(x)
` + "```" + `

## Use instead
` + "```python" + `
@torch.no_grad()
def evaluate(model, loader):
    for x, y in loader:
        out = model(x.cuda())
` + "```" + `

## Fix safety
The fix removes the ` + "`volatile`" + ` argument, which changes nothing at run time
but the warning. It is marked unsafe because it does not disable gradients
by itself: wrap the evaluation in ` + "`torch.no_grad()`" + ` or
` + "`torch.inference_mode()`" + ` as well.

## Known problems
A call already under ` + "`no_grad`" + ` (or in a function that every caller in the
file runs under it) is not reported: there the flag is dead code but
costs nothing. Nor is a volatile input that the function feeds only to
models whose parameters the file freezes (` + "`for p in netD.parameters(): p.requires_grad = False`" + `, or
` + "`p.detach_()`" + ` as a mean teacher's are, as TL201 judges a frozen model, wherever in
the file): such a pass records no graph either. Nor is a volatile value
that the function feeds to no forward pass where it back-propagates (the
labels of a training step), or that no forward pass takes beside a
volatile input one does (the labels of an evaluation, whose input's
finding is the evaluation's), or, in a function that back-propagates, only to forward passes that
take other inputs beside it and whose outputs do not end before a
backward (a task id handed to the model a training step trains, or a
generator's noise: before PyTorch 0.4 the flag would have stopped that
step's backward, so nothing relies on it; a pass of the volatile input
alone beside another pass of the same model, as a DQN's target values,
is reported),
or that a constructor keeps on ` + "`self`" + ` (a
constant of a detector's): no evaluation relies on the flag there, and
` + "`no_grad`" + ` would break the step. ` + "`requires_grad=False`" + ` is reported only when the wrapped
value is passed to a model call in the same function, and that function
does not back-propagate, is not a model's own ` + "`forward`" + ` (which runs in its
caller's grad mode) and does not return what the file back-propagates.

A flag passed on (` + "`def to_var(x, volatile=False): return Variable(x, volatile=volatile)`" + `)
is reported where some call can turn it on: not where its default is off
and every call of the function in the file leaves it off. Where no call
in the file shows it (its callers are in other files, which the project's
facts do not record the arguments of), the finding is one level less sure.

## References
- [PyTorch 0.4.0 migration guide: volatile flag deprecated](https://pytorch.org/blog/pytorch-0_4_0-migration-guide/)
- [torch.no_grad](https://pytorch.org/docs/stable/generated/torch.no_grad.html)
`,
}

var variableNames = map[string]bool{
	"torch.autograd.Variable":          true,
	"torch.autograd.variable.Variable": true,
}

func checkVolatileHasNoEffect(p *analyzer.Pass, call analyzer.NodeID) {
	f, m := p.File, p.Model
	if !variableNames[m.CallName(call)] || m.GradModeAt(call) == analyzer.GradDisabled {
		return
	}
	if val := m.Keyword(call, "volatile"); val != analyzer.NoNode {
		kw := f.Parent(val)
		if f.Kind(val) == analyzer.KindFalse {
			return
		}
		off, unseen := flagOff(m, val)
		if off {
			return // `Variable(x, volatile=volatile)` in a helper whose flag is off wherever the file calls it
		}
		fed := fedModels(m, call)
		if len(fed) > 0 && !slices.ContainsFunc(fed, func(c analyzer.NodeID) bool { return !frozen(m, c) }) {
			// Every model the input is fed to has its parameters frozen
			// (`for p in netD.parameters(): p.requires_grad = False`):
			// nothing records a graph, and the flag costs nothing.
			return
		}
		if fn := m.ScopeNode(call); len(fed) > 0 && fn != analyzer.Root && usesGradients(m, fn, f.N(fn).Start) &&
			!slices.ContainsFunc(fed, func(c analyzer.NodeID) bool {
				goes, _ := fateApart(m, c, analyzer.NoNode)
				return goes == fateNo || len(m.Args(c)) < 2 && secondPass(m, c)
			}) {
			// A function that back-propagates feeds it only to forward
			// passes beside other inputs, whose outputs are not seen to
			// end before a backward (a task id of a training step,
			// `self.model(task, x)`, then a loss of it back-propagated):
			// volatile, it would have made that loss volatile too before
			// PyTorch 0.4, so no code relies on the flag, and no_grad would
			// break the step. A pass of the volatile input alone (a DQN's
			// target, `model(next_states)`) is what the flag kept out of
			// the graph, and is reported; a volatile input alone of the
			// only pass of its model (a generator's noise) is the
			// step's own input.
			return
		}
		if len(fed) == 0 && !handedWithModel(m, call) && siblingFed(m, call) && !namePassedToPass(m, call) {
			// A label beside the input it goes with (`label =
			// Variable(label.cuda(), volatile=True)` after `im = ...`):
			// no model takes it, so the flag costs nothing; the input's
			// finding is the evaluation's.
			return
		}
		if fn := m.ScopeNode(call); len(fed) == 0 && (fn != analyzer.Root && usesGradients(m, fn, f.N(fn).Start) && !handedWithModel(m, call) ||
			constantAttribute(m, call)) {
			// Labels of a training step (`[Variable(t, volatile=True) for t
			// in targets]` beside a backward()), or a constant a
			// constructor keeps (`self.priors = Variable(..., volatile=True)`):
			// no evaluation relies on the flag, and no_grad would be wrong.
			return
		}
		var fix *analyzer.Fix
		if e, ok := removeArgument(f, call, kw); ok {
			fix = &analyzer.Fix{Message: "Remove `" + analyzer.Snippet(f.Text(kw), 30) + "` (and wrap the code in `torch.no_grad()`)",
				Applicability: analyzer.Unsafe, Edits: []analyzer.Edit{e}}
		}
		effect := "the forward pass keeps its graph and activations"
		if len(fed) == 0 {
			// No pass of a model is seen to take it (a lesson's cell, an
			// input handed on): say what it would cost, not that it did.
			effect = "a forward pass it is given to still records its graph and keeps its activations"
		}
		p.ReportFix(kw, fmt.Sprintf("`%s` has had no effect since PyTorch 0.4: gradients stay enabled and %s; "+
			"use `with torch.no_grad():` or `torch.inference_mode()`", analyzer.Snippet(f.Text(kw), 30), effect), fix)
		if unseen {
			p.Assume(fmt.Sprintf("`%s` is set by callers in other files: it is off by default, and no call in this file sets it",
				f.Text(val)))
		}
		return
	}
	val := m.Keyword(call, "requires_grad")
	if val == analyzer.NoNode || f.Kind(val) != analyzer.KindFalse || m.GradModeAt(call) != analyzer.GradEnabled {
		return
	}
	kw := f.Parent(val)
	if fn := m.ScopeNode(call); !feedsModel(m, call) || usesGradients(m, fn, f.N(fn).Start) || runsInCallersMode(m, fn) {
		return // not an input of a model, or training code, where the flag is harmless
	}
	p.Report(kw, "`requires_grad=False` on an input does not disable autograd: the model's parameters still require grad, "+
		"so its forward pass records the graph and keeps its activations; use `with torch.no_grad():` or `torch.inference_mode()`")
}

// siblingFed reports whether the function of call, a Variable made
// volatile that no model is seen to take, makes another volatile
// Variable that one does.
func siblingFed(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	fn := m.ScopeNode(call)
	found := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if found || id == call || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != fn || !variableNames[m.CallName(id)] {
			return
		}
		if v := m.Keyword(id, "volatile"); v != analyzer.NoNode && f.Kind(v) != analyzer.KindFalse {
			found = len(fedModels(m, id)) > 0
		}
	})
	return found
}

// namePassedToPass reports whether the name call's value is bound to,
// through the methods called on it (`img = Variable(img,
// volatile=True).cuda()`), is an argument of a forward pass of its
// function: an input, whatever fedModels sees.
func namePassedToPass(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	t := f.BoundTo(call)
	if f.Kind(t) != analyzer.KindIdentifier {
		return true // not a plain name: judged an input
	}
	name := f.Text(t)
	fn := m.ScopeNode(call)
	found := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != fn || !m.IsForwardCall(id) {
			return
		}
		for _, arg := range m.Args(id) {
			if f.Kind(arg) == analyzer.KindKeywordArgument {
				arg = f.Field(arg, analyzer.FieldValue)
			}
			if f.TextIs(f.Unparen(arg), name) {
				found = true
			}
		}
	})
	return found
}

// flagOff reports whether val names a parameter whose default is False
// or None (`def to_var(x, volatile=False)`) and that the calls of its
// function this file shows give nothing else. With no call of it in
// sight (callers in other files, who may turn it on), it is not off, and
// unseen says so.
func flagOff(m *analyzer.Model, val analyzer.NodeID) (off, unseen bool) {
	f := m.File
	isOff := func(v analyzer.NodeID) bool {
		k := f.Kind(f.Unparen(v))
		return k == analyzer.KindFalse || k == analyzer.KindNone
	}
	b := m.Resolve(val)
	if f.Kind(val) != analyzer.KindIdentifier || b == nil || b.Kind != analyzer.BindParam ||
		(f.Kind(b.Stmt) != analyzer.KindDefaultParameter && f.Kind(b.Stmt) != analyzer.KindTypedDefaultParameter) ||
		!isOff(f.Field(b.Stmt, analyzer.FieldValue)) {
		return false, false
	}
	vals, ok := m.ParamValues(val)
	if !ok {
		return false, true
	}
	return !slices.ContainsFunc(vals, func(v analyzer.NodeID) bool { return !isOff(v) }), false
}

// runsInCallersMode reports whether fn is a model's own forward (or
// `__call__`), which runs in whatever grad mode its caller has, or a
// function whose result the file back-propagates: `requires_grad=False`
// on an index it builds there is a leftover of old code, not a way of
// turning autograd off for an evaluation.
func runsInCallersMode(m *analyzer.Model, fn analyzer.NodeID) bool {
	if fn == analyzer.Root {
		return false
	}
	if class := m.EnclosingClass(fn); class != analyzer.NoNode && m.IsModuleClass(class) && partOfForward(m, class, fn, 0) {
		return true
	}
	return m.ResultBackpropagated(fn)
}

// partOfForward reports whether fn, a method of class, is its forward (or
// `__call__`), or a method that forward calls, through its other methods
// maybe (`self.process_and_get_pooling(doc)` in forward): part of the
// forward pass, in the caller's grad mode. A method of the class that
// also calls it for an evaluation (`emit_one`) has findings of its own.
func partOfForward(m *analyzer.Model, class, fn analyzer.NodeID, depth int) bool {
	if name := m.FunctionName(fn); name == "forward" || name == "__call__" {
		return true
	}
	calls, ok := m.CallsOf(fn)
	if !ok || depth > 3 {
		return false
	}
	return slices.ContainsFunc(calls, func(c analyzer.NodeID) bool {
		caller := m.ScopeNode(c)
		return caller != fn && m.EnclosingClass(caller) == class && partOfForward(m, class, caller, depth+1)
	})
}

// feedsModel reports whether the Variable built by call is passed to a
// forward call that runs with grad enabled, directly or through the name
// it is assigned to in the same function.
func feedsModel(m *analyzer.Model, call analyzer.NodeID) bool {
	return len(fedModels(m, call)) > 0
}

// constantAttribute reports whether call is the value a constructor
// assigns to an attribute of self (`self.priors = Variable(...)`).
func constantAttribute(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	a := f.Parent(call)
	if f.Kind(a) != analyzer.KindAssignment || f.Field(a, analyzer.FieldRight) != call {
		return false
	}
	left := f.Field(a, analyzer.FieldLeft)
	fn := m.ScopeNode(call)
	return f.Kind(left) == analyzer.KindAttribute && f.TextIs(f.Field(left, analyzer.FieldObject), "self") &&
		fn != analyzer.Root && m.FunctionName(fn) == "__init__"
}

// secondPass reports whether the function of call, a forward pass, runs
// the same model in another forward pass too (`model(states)` beside
// `model(next_states)`).
func secondPass(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	fn, callee := m.ScopeNode(call), compactText(f, f.Unparen(f.Field(call, analyzer.FieldFunction)))
	found := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if !found && id != call && f.Kind(id) == analyzer.KindCall && m.ScopeNode(id) == fn && m.IsForwardCall(id) {
			found = compactText(f, f.Unparen(f.Field(id, analyzer.FieldFunction))) == callee
		}
	})
	return found
}

// handedWithModel reports whether the name call's value is bound to (in
// a list comprehension too) is later passed, alone or in a tuple, to a
// call that also takes a model (`data_parallel(netG, (text, fixed_noise))`):
// a forward pass that fedModels does not see.
func handedWithModel(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	a := f.Parent(call)
	for f.Kind(a) == analyzer.KindListComprehension || f.Kind(a) == analyzer.KindParenthesizedExpression {
		a = f.Parent(a)
	}
	if f.Kind(a) != analyzer.KindAssignment || f.Kind(f.Field(a, analyzer.FieldLeft)) != analyzer.KindIdentifier {
		return false
	}
	names, fn := map[string]bool{f.Text(f.Field(a, analyzer.FieldLeft)): true}, m.ScopeNode(call)
	// Names bound to a tuple or list holding it (`inputs = (text, noise)`).
	f.Walk(fn, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindAssignment || f.N(id).Start < f.N(a).End || m.ScopeNode(id) != fn {
			return
		}
		left, right := f.Field(id, analyzer.FieldLeft), f.Unparen(f.Field(id, analyzer.FieldRight))
		if k := f.Kind(right); f.Kind(left) != analyzer.KindIdentifier || k != analyzer.KindTuple && k != analyzer.KindList {
			return
		}
		for _, c := range f.ChildList(right) {
			if f.Kind(c) == analyzer.KindIdentifier && names[f.Text(c)] {
				names[f.Text(left)] = true
			}
		}
	})
	found := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != fn || f.N(id).Start < f.N(a).End {
			return
		}
		mentions, model := false, false
		f.Walk(f.Field(id, analyzer.FieldArguments), func(x analyzer.NodeID) {
			if f.Kind(x) != analyzer.KindIdentifier {
				return
			}
			if names[f.Text(x)] {
				mentions = true
			} else if f.Kind(f.Parent(x)) == analyzer.KindArgumentList && m.ClassifyCallee(x) == analyzer.CallableModel {
				model = true
			}
		})
		found = mentions && model
	})
	return found
}

// fedModels returns the forward calls, with grad enabled, that the
// Variable built by call is passed to, directly or through the name it is
// assigned to in the same function.
func fedModels(m *analyzer.Model, call analyzer.NodeID) []analyzer.NodeID {
	f := m.File
	name := ""
	if a := f.Parent(call); f.Kind(a) == analyzer.KindAssignment && f.Field(a, analyzer.FieldRight) == call {
		if left := f.Field(a, analyzer.FieldLeft); f.Kind(left) == analyzer.KindIdentifier {
			name = f.Text(left)
		}
	} else if k := f.Kind(a); k == analyzer.KindExpressionList || k == analyzer.KindTuple {
		// `inputs, targets = Variable(inputs, volatile=True), Variable(targets)`:
		// the name at its place.
		if as := f.Parent(a); f.Kind(as) == analyzer.KindAssignment && f.Field(as, analyzer.FieldRight) == a {
			left := f.Field(as, analyzer.FieldLeft)
			rs, ls := f.ChildList(a), f.ChildList(left)
			if i := slices.Index(rs, call); i >= 0 && len(rs) == len(ls) && f.Kind(ls[i]) == analyzer.KindIdentifier {
				name = f.Text(ls[i])
			}
		}
	}
	fn := m.ScopeNode(call)
	var fed []analyzer.NodeID
	f.Walk(fn, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != fn || !m.IsForwardCall(id) || m.GradModeAt(id) != analyzer.GradEnabled {
			return
		}
		for _, a := range m.Args(id) {
			a = f.Unparen(a)
			if a == call || (name != "" && f.Kind(a) == analyzer.KindIdentifier && f.Text(a) == name && f.N(a).Start > f.N(call).Start) {
				fed = append(fed, id)
				break
			}
		}
	})
	return fed
}
