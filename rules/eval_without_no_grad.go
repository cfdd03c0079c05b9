package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// EvalWithoutNoGrad is TL201.
var EvalWithoutNoGrad = &analyzer.Rule{
	Code:      "TL201",
	Name:      "eval-without-no-grad",
	Summary:   "Evaluation or inference code runs a model forward pass with grad enabled",
	Severity:  analyzer.SeverityWarning,
	Precision: "high",
	Tags:      []string{"memory", "autograd", "performance"},
	Fixable:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkEvalWithoutNoGrad,
	Doc: `## What it does
Checks for evaluation and inference code that runs a model forward pass
while grad is enabled: a function named like evaluation (` + "`evaluate`" + `,
` + "`validate`" + `, ` + "`test`" + `, ` + "`predict`" + `, ` + "`infer`" + `, ` + "`generate`" + `, ...), or code that follows
` + "`model.eval()`" + ` in the same function, that calls the model and never
back-propagates. The finding points at the first such call.

## Why is this bad?
` + "`model.eval()`" + ` only switches layers such as dropout and batch norm to their
inference behaviour; it does not turn autograd off. With grad enabled,
every forward pass records a graph and keeps the activations that a
backward pass would need for as long as its outputs are alive. Evaluation
then needs much more memory than it should (often the difference between
fitting a batch and ` + "`CUDA out of memory`" + `), and any output kept across
batches (a list of predictions, a summed loss) keeps every batch's
activations on the GPU. It is hardly slower: recording the graph costs
little next to the kernels.

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, median of 5 repetitions ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL201.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl201_tl202_eval.py)):
a loop evaluating a randomly initialised ResNet-50 at a fixed batch with
grad enabled peaks at 10460 MiB above the weights, against 637.2 MiB
under ` + "`torch.no_grad()`" + ` or ` + "`torch.inference_mode()`" + ` (16.42 times as much);
a transformer of GPT-2 small's shape (124.4M parameters) peaks at 12470
MiB against 3189 MiB (3.91 times). The peak holds two batches' graphs: the
previous batch's output is still alive while the next forward pass runs.
Latency does not change: 11.3 against 11.37 ms and 52.28 against 52.21 ms
per forward pass, and ` + "`inference_mode`" + ` measured the same as ` + "`no_grad`" + `
(11.29 and 52.42 ms).

## Example
` + "```python" + `
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return correct
` + "```" + `

## Use instead
` + "```python" + `
@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return correct
` + "```" + `
` + "`torch.inference_mode()`" + ` is stricter, and can be slightly faster, when the
outputs never re-enter autograd.

## Fix safety
When the finding is in a function named for evaluation, the fix decorates
that function with ` + "`@torch.no_grad()`" + ` (adding ` + "`import torch`" + ` when the name
is unbound). It is unsafe: a caller that back-propagates through the
function's results would stop getting gradients.

## Known problems
A function runs with grad disabled when its decorators say so, or when
every call of it in the project, in any file, runs under ` + "`no_grad`" + `; an
evaluation helper called only under ` + "`no_grad`" + ` is therefore not reported.
An evaluation function (or script) that calls a project helper running a
forward pass in its caller's grad mode is reported at that call, with the
helper's forward pass as a related location. A method is followed when
it is called through a name bound once to an instance of a class of the
project (` + "`net = GPT(); net.generate(x)`" + `) or annotated with one
(` + "`net: GPT`" + `), or through an attribute of ` + "`self`" + ` assigned once in its
class (` + "`self.model = GPT()`" + ` then ` + "`self.model.generate(x)`" + `): ` + "`generate`" + ` is
then judged by those callers, and reported at a call that runs it with
grad enabled. An attribute assigned more than once, or to anything but a
constructor call, is not followed. In a method, a helper's forward pass
is reported only after the method itself calls ` + "`.eval()`" + `, not for its
name alone: the callers of methods are often a script or a framework's
loop under ` + "`no_grad`" + `, which the project does not show. A model is recognised by what
the code does with it (` + "`.eval()`" + `, ` + "`.parameters()`" + `, being wrapped in DDP,
a class that derives from ` + "`nn.Module`" + ` in any file of the project) before
its name. Code that needs gradients during evaluation (saliency maps,
adversarial examples, test-time training) is recognised by its
` + "`backward()`" + `, ` + "`torch.autograd.grad`" + ` or ` + "`requires_grad_()`" + ` calls and is not reported;
neither are pytest test functions or Lightning's ` + "`validation_step`" + `,
` + "`test_step`" + ` and ` + "`predict_step`" + `, which Lightning runs under ` + "`no_grad`" + `.

## References
- [torch.no_grad](https://pytorch.org/docs/stable/generated/torch.no_grad.html)
- [torch.inference_mode](https://pytorch.org/docs/stable/generated/torch.inference_mode.html)
- [Autograd mechanics: locally disabling gradient computation](https://pytorch.org/docs/stable/notes/autograd.html#locally-disabling-gradient-computation)
`,
}

// evalWords are the words of function names that mean evaluation or
// inference.
var evalWords = map[string]bool{
	"evaluate": true, "evaluation": true, "eval": true, "validate": true, "validation": true,
	"val": true, "valid": true, "test": true, "testing": true, "predict": true, "prediction": true,
	"infer": true, "inference": true, "generate": true, "generation": true,
}

// trainWords mark a function that trains as well.
var trainWords = map[string]bool{"train": true, "training": true, "fit": true, "finetune": true, "step": true}

func checkEvalWithoutNoGrad(p *analyzer.Pass, call analyzer.NodeID) {
	m := p.Model
	helper := helperForward(m, call)
	if !m.IsForwardCall(call) && helper == nil || m.GradModeAt(call) != analyzer.GradEnabled {
		return
	}
	fn := m.ScopeNode(call)
	first := m.Memo(evalKey{fn}, func() any { return firstEvalForward(m, fn) }).(analyzer.NodeID)
	if first != call {
		return
	}
	f := p.File
	where := "after `.eval()`"
	if fn != analyzer.Root && isEvalName(m.FunctionName(fn)) {
		where = fmt.Sprintf("in `%s`", m.FunctionName(fn))
	}
	var fix *analyzer.Fix
	if fn != analyzer.Root && isEvalName(m.FunctionName(fn)) {
		fix = noGradDecoratorFix(m, fn)
	}
	const cost = ": autograd records the graph and keeps " +
		"its activations alive although nothing back-propagates; wrap the evaluation in `with torch.no_grad():` " +
		"(or `torch.inference_mode()`)"
	if helper == nil || m.IsForwardCall(call) {
		p.ReportFix(call, fmt.Sprintf("`%s` runs a forward pass with grad enabled %s%s", analyzer.Snippet(f.Text(call), 40), where, cost), fix)
		return
	}
	p.ReportRelated(call, fmt.Sprintf("`%s` runs a forward pass with grad enabled %s, through `%s` (%s), which runs `%s`%s",
		analyzer.Snippet(f.Text(call), 40), where, helper.Site.Text, helper.Forward.Where(), helper.Forward.Text, cost),
		analyzer.RelatedSite(helper.Forward, "the forward pass `"+helper.Site.Text+"` runs"))
	if fix != nil {
		p.Fix(fix)
	}
}

// helperForward returns the project function a call runs when
// that function runs a forward pass in its caller's grad mode, itself or
// through what it calls; nil otherwise. A helper named as evaluation is
// reported in its own body instead.
func helperForward(m *analyzer.Model, call analyzer.NodeID) *analyzer.Object {
	o := m.Helper(call)
	if o == nil {
		return nil
	}
	if o.Forward == nil {
		// A helper that calls what it is passed runs a forward pass when
		// it is passed a model.
		site := m.ParamForward(o, call)
		if site == nil {
			return nil
		}
		c := *o
		c.Forward = site
		o = &c
	}
	// A function named as evaluation is reported in its own body; a
	// method ("Class.name", called through an object) is not, and is
	// reported where it is called.
	if dot := strings.LastIndexByte(o.Site.Text, '.'); dot < 0 && isEvalName(o.Site.Text) {
		return nil
	}
	return o
}

// noGradDecoratorFix decorates an evaluation function with
// `@torch.no_grad()`, on the line just above its `def` so that it wraps
// the function itself rather than a staticmethod or property object. It
// returns nil for an `async def` (no_grad does not wrap coroutines) and
// for a `def` that does not start its line.
func noGradDecoratorFix(m *analyzer.Model, fn analyzer.NodeID) *analyzer.Fix {
	f := m.File
	if f.Kind(fn) != analyzer.KindFunctionDefinition {
		return nil
	}
	start := f.N(fn).Start
	indent := f.Indent(start)
	if f.LineStart(start)+uint32(len(indent)) != start || !strings.HasPrefix(f.Text(fn), "def") {
		return nil
	}
	imp, ok := torchName(m, fn)
	if !ok {
		return nil
	}
	var edits []analyzer.Edit
	if imp != nil {
		edits = append(edits, *imp)
	}
	edits = append(edits, analyzer.Insert(start, "@torch.no_grad()"+f.Newline()+indent))
	return &analyzer.Fix{Message: "Decorate `" + m.FunctionName(fn) + "` with `@torch.no_grad()`", Applicability: analyzer.Unsafe, Edits: edits}
}

type evalKey struct{ fn analyzer.NodeID }

// firstEvalForward returns the first forward call in fn (not in nested
// functions) that runs with grad enabled in evaluation code, or NoNode.
func firstEvalForward(m *analyzer.Model, fn analyzer.NodeID) analyzer.NodeID {
	f := m.File
	if m.IsPytestFile() || inTestsFolder(f.Path) {
		return analyzer.NoNode // test code: small models, and pytest functions may need grad
	}
	if class := m.EnclosingClass(fn); fn != analyzer.Root && class != analyzer.NoNode && m.IsModuleClass(class) {
		return analyzer.NoNode // a model's own methods: grad mode is its caller's to set
	}
	if fn != analyzer.Root && isTestFunction(m, fn) {
		return analyzer.NoNode
	}
	named := fn != analyzer.Root && isEvalName(m.FunctionName(fn))
	// A method's callers are often out of the project's sight (a script
	// or a framework's loop, under no_grad): there, a helper's forward
	// pass is reported only after the method itself calls `.eval()`.
	method := fn != analyzer.Root && m.EnclosingClass(fn) != analyzer.NoNode
	if named && usesGradients(m, fn, f.N(fn).Start) {
		return analyzer.NoNode
	}
	first := analyzer.NoNode
	evalOn := false
	evalFrom := uint32(0)
	f.Walk(fn, func(id analyzer.NodeID) {
		if first != analyzer.NoNode || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != fn {
			return
		}
		switch m.MethodName(id) {
		case "eval":
			if len(m.Args(id)) == 0 && isModelReceiver(m, m.Receiver(id)) && !evalOn {
				evalOn, evalFrom = true, f.N(id).Start
			}
			return
		case "train":
			if isModelReceiver(m, m.Receiver(id)) {
				args := m.Args(id)
				evalOn = len(args) == 1 && f.Kind(args[0]) == analyzer.KindFalse
			}
			return
		}
		forward := m.IsForwardCall(id) || (evalOn || !method) && helperForward(m, id) != nil
		if (named || evalOn) && forward && m.GradModeAt(id) == analyzer.GradEnabled && !smokeTest(m, id) {
			first = id
		}
	})
	if first != analyzer.NoNode && !named && usesGradients(m, fn, evalFrom) {
		return analyzer.NoNode
	}
	return first
}

// syntheticTensors are torch factories of random or constant tensors.
var syntheticTensors = map[string]bool{
	"torch.randn": true, "torch.rand": true, "torch.randint": true, "torch.zeros": true,
	"torch.ones": true, "torch.empty": true, "torch.full": true, "torch.arange": true,
}

// smokeTest reports whether a forward call only feeds the model synthetic
// tensors (`net(torch.randn(1, 3, 32, 32))`): a shape check, not an
// evaluation of trained weights.
func smokeTest(m *analyzer.Model, call analyzer.NodeID) bool {
	args := m.Args(call)
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		if !isSynthetic(m, a, 0) {
			return false
		}
	}
	return true
}

// isSynthetic reports whether e is a synthetic tensor, possibly indexed,
// moved or cast (`torch.randn(2, 8).to(device)[None]`), directly or
// through the name it was assigned to.
func isSynthetic(m *analyzer.Model, e analyzer.NodeID, depth int) bool {
	f := m.File
	e = f.Unparen(e)
	if depth > 8 {
		return false
	}
	switch f.Kind(e) {
	case analyzer.KindIdentifier:
		v := m.AssignedValue(e)
		return v != analyzer.NoNode && isSynthetic(m, v, depth+1)
	case analyzer.KindSubscript:
		return isSynthetic(m, f.Field(e, analyzer.FieldValue), depth+1)
	case analyzer.KindCall:
		if syntheticTensors[m.CallName(e)] {
			return true
		}
		switch m.MethodName(e) {
		case "to", "cuda", "float", "half", "double", "bfloat16", "unsqueeze", "contiguous":
			return isSynthetic(m, m.Receiver(e), depth+1)
		}
	}
	return false
}

// isModelReceiver reports whether recv, in `recv.eval()`, is a model.
func isModelReceiver(m *analyzer.Model, recv analyzer.NodeID) bool {
	if recv == analyzer.NoNode {
		return false
	}
	if m.File.TextIs(recv, "self") {
		class := m.EnclosingClass(recv)
		return class != analyzer.NoNode && m.IsModuleClass(class)
	}
	return m.ClassifyCallee(recv) == analyzer.CallableModel
}

// isEvalName reports whether a function name reads as evaluation or
// inference and not also as training.
func isEvalName(name string) bool {
	eval := false
	for _, w := range strings.Split(strings.ToLower(strings.Trim(name, "_")), "_") {
		if trainWords[w] {
			return false
		}
		if evalWords[w] {
			eval = true
		}
	}
	return eval
}

// isTestFunction reports whether pytest or unittest would run fn as a
// test: a test* function of a pytest module, a method of a TestCase, or a
// test_* method of a test class or mixin in a tests/ folder, which pytest
// collects through the subclasses that use it.
func isTestFunction(m *analyzer.Model, fn analyzer.NodeID) bool {
	name := m.FunctionName(fn)
	if !strings.HasPrefix(name, "test") {
		return false
	}
	if m.IsPytestFile() {
		return true
	}
	class := m.EnclosingClass(fn)
	if class != analyzer.NoNode {
		if m.ClassInherits(class, func(q string) bool { return q == "unittest.TestCase" }) {
			return true
		}
		if strings.HasPrefix(name, "test_") && strings.Contains(m.File.Text(m.File.Field(class, analyzer.FieldName)), "Test") {
			return true
		}
	}
	return strings.HasPrefix(name, "test_") && inTestsFolder(m.File.Path)
}

// inTestsFolder reports whether a path lies under a tests/ or test/ folder.
func inTestsFolder(path string) bool {
	p := "/" + strings.ReplaceAll(path, "\\", "/")
	return strings.Contains(p, "/tests/") || strings.Contains(p, "/test/")
}

// usesGradients reports whether fn, from byte offset from on,
// back-propagates or asks for gradients: then grad must stay enabled
// (saliency, adversarial examples, test-time training).
func usesGradients(m *analyzer.Model, fn analyzer.NodeID, from uint32) bool {
	f := m.File
	uses := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if uses || f.N(id).Start < from {
			return
		}
		switch f.Kind(id) {
		case analyzer.KindCall:
			q := m.CallName(id)
			uses = m.IsBackwardCall(id) || m.MethodName(id) == "requires_grad_" ||
				(strings.HasPrefix(q, "torch.autograd.") && !variableNames[q]) || q == "torch.enable_grad"
			if !uses && m.Keyword(id, "requires_grad") != analyzer.NoNode {
				uses = f.Kind(m.Keyword(id, "requires_grad")) == analyzer.KindTrue
			}
		case analyzer.KindAssignment:
			left := f.Field(id, analyzer.FieldLeft)
			uses = f.Kind(left) == analyzer.KindAttribute && f.TextIs(f.Field(left, analyzer.FieldAttribute), "requires_grad") &&
				f.Kind(f.Field(id, analyzer.FieldRight)) == analyzer.KindTrue
		}
	})
	return uses
}
