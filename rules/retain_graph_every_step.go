package rules

import (
	"fmt"
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
` + "`retain_graph=True`" + `) that is the last backward through a training step's
graph: nothing after it in the step back-propagates through the same
graph again. A training step is one iteration of a loop that builds the
graph afresh in every iteration, or a function that trains one step
(` + "`train_step`" + `, ` + "`training_step`" + `, ...) or is called from a training loop of
the same file.

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
value of the graph is carried over from an earlier iteration or comes from
outside the loop or function, and when the retained loss is returned to a
caller, which may back-propagate it again. Whether two losses share a
graph is judged from the assignments in the function; values that cannot
be seen through (function parameters, attributes set elsewhere) are
assumed to share it, so some unnecessary ` + "`retain_graph=True`" + ` are not
reported. A function counts as a training step by its name or by being
called from a training loop in the same file; a step function called only
from another module is not checked.

## References
- [torch.Tensor.backward](https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html)
- [torch.autograd.grad](https://pytorch.org/docs/stable/generated/torch.autograd.grad.html)
- [Autograd mechanics: saved tensors](https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors)
`,
}

func checkRetainGraph(p *analyzer.Pass, call analyzer.NodeID) {
	f, m := p.File, p.Model
	if !m.IsBackwardCall(call) || !retainsGraphLiterally(m, call) || createsGraph(m, call) {
		return
	}
	fn := m.ScopeNode(call)
	g := newRetainGraph(m, fn)
	roots := g.collect(retainedRoots(m, call))
	if len(roots) == 0 {
		return
	}
	// The step: the innermost loop around the call, or the function itself
	// when it trains one step.
	step := rgStepLoop(m, call)
	var body analyzer.NodeID
	switch {
	case step != analyzer.NoNode:
		body = f.Field(step, analyzer.FieldBody)
	case fn != analyzer.Root && rgIsStepFunction(m, fn):
		body = f.Field(fn, analyzer.FieldBody)
	default:
		return
	}
	holders, ok := g.builtWithin(roots, body)
	if !ok || len(holders) == 0 {
		return
	}
	if g.laterBackwardShares(call, body, roots) {
		return
	}
	if step == analyzer.NoNode && g.returnsAny(fn, roots) {
		return // the caller may back-propagate the returned loss again
	}
	site := analyzer.Snippet(f.Text(call), 50)
	names := rgNames(holders)
	if step == analyzer.NoNode {
		p.Report(call, fmt.Sprintf("`%s` is the last backward through this step's graph: `retain_graph=True` keeps its saved activations "+
			"on the GPU until `%s` returns (through the optimizer step and the rest of the step) instead of freeing them during "+
			"backward; drop `retain_graph=True`", site, m.FunctionName(fn)))
		return
	}
	if acc := g.accumulation(step, roots); acc != analyzer.NoNode {
		p.Report(call, fmt.Sprintf("`%s` is the last backward through this step's graph, and `%s` keeps it reachable across steps: "+
			"every step's saved activations stay on the GPU and memory grows each step; drop `retain_graph=True` and accumulate a "+
			"detached value (`.item()`)", site, analyzer.Snippet(f.Text(acc), 40)))
		return
	}
	p.Report(call, fmt.Sprintf("`%s` is the last backward through this step's graph: `retain_graph=True` keeps its saved activations "+
		"on the GPU until %s rebound in the next iteration, so peak memory holds about two steps' activations; "+
		"drop `retain_graph=True`", site, names))
}

// retainsGraphLiterally reports whether a backward call passes
// retain_graph=True as a literal.
func retainsGraphLiterally(m *analyzer.Model, call analyzer.NodeID) bool {
	v := autogradArg(m, call, "retain_graph")
	return v != analyzer.NoNode && m.File.Kind(m.File.Unparen(v)) == analyzer.KindTrue
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
	for l != analyzer.NoNode && f.Kind(l) != analyzer.KindForStatement && f.Kind(l) != analyzer.KindWhileStatement {
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

// rgIsStepFunction reports whether fn trains one step: it is named so, or
// a loop of this file that runs once per batch calls it.
func rgIsStepFunction(m *analyzer.Model, fn analyzer.NodeID) bool {
	if stepFunctionNames[strings.TrimLeft(m.FunctionName(fn), "_")] {
		return true
	}
	return m.Memo(rgStepFnKey{fn}, func() any { return rgCalledPerStep(m, fn) }).(bool)
}

type rgStepFnKey struct{ fn analyzer.NodeID }

// rgCalledPerStep reports whether some call of fn in this file sits in a
// loop that iterates batches, and no use of fn is other than a call.
func rgCalledPerStep(m *analyzer.Model, fn analyzer.NodeID) bool {
	f := m.File
	name := m.FunctionName(fn)
	class := m.EnclosingClass(fn)
	found := false
	f.Walk(analyzer.Root, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall {
			return
		}
		callee := f.Field(id, analyzer.FieldFunction)
		switch f.Kind(callee) {
		case analyzer.KindIdentifier:
			b := m.Resolve(callee)
			if b == nil || b.Kind != analyzer.BindFunction || b.Stmt != fn {
				return
			}
		case analyzer.KindAttribute:
			if class == analyzer.NoNode || m.EnclosingClass(id) != class || !f.TextIs(f.Field(callee, analyzer.FieldObject), "self") ||
				!f.TextIs(f.Field(callee, analyzer.FieldAttribute), name) {
				return
			}
		default:
			return
		}
		if l := m.EnclosingLoop(id); l != analyzer.NoNode && m.Loop(l).Batches {
			found = true
		}
	})
	return found
}

// rgSource is one place in a function where a key gets a value.
type rgSource struct {
	stmt  analyzer.NodeID // the assignment, for loop or with statement
	value analyzer.NodeID // the value assigned (the iterable of a for loop)
	loop  bool            // a for loop target
}

// retainGraph answers, for one function, which names a backward's graph
// runs through and where they get their values.
type retainGraph struct {
	m       *analyzer.Model
	f       *analyzer.File
	fn      analyzer.NodeID
	sources map[string][]rgSource
	leaf    map[string]int8 // memo of leafKey: 1 leaf, 2 may carry, 3 computing
}

type rgSourcesKey struct{ fn analyzer.NodeID }

func newRetainGraph(m *analyzer.Model, fn analyzer.NodeID) *retainGraph {
	src := m.Memo(rgSourcesKey{fn}, func() any { return rgIndexSources(m, fn) }).(map[string][]rgSource)
	return &retainGraph{m: m, f: m.File, fn: fn, sources: src, leaf: map[string]int8{}}
}

// rgIndexSources indexes every binding in fn's own scope by the key it
// binds: assignments (nested unpacking included), for loop targets, with
// targets and walrus names.
func rgIndexSources(m *analyzer.Model, fn analyzer.NodeID) map[string][]rgSource {
	f := m.File
	out := map[string][]rgSource{}
	var bind func(target analyzer.NodeID, s rgSource)
	bind = func(target analyzer.NodeID, s rgSource) {
		switch f.Kind(target) {
		case analyzer.KindIdentifier:
			out[f.Text(target)] = append(out[f.Text(target)], s)
		case analyzer.KindAttribute:
			out[rgAttrKey(f, target)] = append(out[rgAttrKey(f, target)], s)
		case analyzer.KindSubscript:
			bind(f.Field(target, analyzer.FieldValue), s)
		case analyzer.KindPatternList, analyzer.KindTuplePattern, analyzer.KindListPattern, analyzer.KindExpressionList,
			analyzer.KindTuple, analyzer.KindList, analyzer.KindListSplatPattern, analyzer.KindParenthesizedExpression, analyzer.KindListSplat:
			f.Children(target, func(c analyzer.NodeID) bool {
				bind(c, s)
				return true
			})
		}
	}
	f.Walk(fn, func(id analyzer.NodeID) {
		switch f.Kind(id) {
		case analyzer.KindAssignment, analyzer.KindAugmentedAssignment, analyzer.KindForStatement, analyzer.KindAsPattern, analyzer.KindNamedExpression:
		default:
			return
		}
		if m.ScopeNode(id) != fn {
			return
		}
		switch f.Kind(id) {
		case analyzer.KindAssignment, analyzer.KindAugmentedAssignment:
			if v := f.Field(id, analyzer.FieldRight); v != analyzer.NoNode {
				bind(f.Field(id, analyzer.FieldLeft), rgSource{stmt: id, value: v})
			}
		case analyzer.KindForStatement:
			bind(f.Field(id, analyzer.FieldLeft), rgSource{stmt: id, value: f.Field(id, analyzer.FieldRight), loop: true})
		case analyzer.KindAsPattern:
			bind(f.FirstChild(f.Field(id, analyzer.FieldAlias)), rgSource{stmt: id, value: f.FirstChild(id)})
		case analyzer.KindNamedExpression:
			bind(f.Field(id, analyzer.FieldName), rgSource{stmt: id, value: f.Field(id, analyzer.FieldValue)})
		}
	})
	return out
}

// rgAttrKey keys an attribute chain: `self.fake_B` by its text, anything
// else (`outputs.logits`, `args.beta`) by the name it hangs from.
func rgAttrKey(f *analyzer.File, attr analyzer.NodeID) string {
	root := attr
	for f.Kind(root) == analyzer.KindAttribute {
		root = f.Field(root, analyzer.FieldObject)
	}
	if f.TextIs(root, "self") {
		return strings.Join(strings.Fields(f.Text(attr)), "")
	}
	if f.Kind(root) == analyzer.KindIdentifier {
		return f.Text(root)
	}
	return ""
}

// rgDetaching are methods whose result has no autograd history, and
// rgShapeArgs methods whose arguments are shapes, devices or dtypes.
var (
	rgDetaching = map[string]bool{
		"detach": true, "detach_": true, "item": true, "tolist": true, "numpy": true, "size": true, "dim": true,
		"numel": true, "argmax": true, "argmin": true, "zero_": true, "__len__": true,
	}
	rgShapeArgs = map[string]bool{
		"to": true, "cuda": true, "cpu": true, "type": true, "view": true, "reshape": true, "permute": true,
		"expand": true, "repeat": true, "transpose": true, "squeeze": true, "unsqueeze": true, "flatten": true,
		"sum": true, "mean": true, "norm": true, "type_as": true, "view_as": true, "expand_as": true, "fill_": true,
		"float": true, "half": true, "double": true, "long": true, "contiguous": true, "split": true, "chunk": true,
	}
	rgFactories = map[string]bool{
		"randn": true, "rand": true, "randint": true, "zeros": true, "ones": true, "empty": true, "full": true,
		"arange": true, "linspace": true, "eye": true, "zeros_like": true, "ones_like": true, "empty_like": true,
		"randn_like": true, "rand_like": true, "full_like": true, "randperm": true, "tensor": true,
	}
	rgNoGradAttrs = map[string]bool{
		"shape": true, "dtype": true, "device": true, "data": true, "grad": true, "requires_grad": true,
		"ndim": true, "is_cuda": true, "grad_fn": true,
	}
)

// keysOf adds to into the keys through which expr's value may carry
// autograd history, each with the first node that mentions it. Callees,
// keyword names, detached subexpressions and shape arguments are skipped.
func (g *retainGraph) keysOf(expr analyzer.NodeID, into map[string][]analyzer.NodeID) {
	f, m := g.f, g.m
	if expr == analyzer.NoNode {
		return
	}
	add := func(k string, at analyzer.NodeID) {
		if k != "" && k != "self" {
			into[k] = append(into[k], at)
		}
	}
	switch f.Kind(expr) {
	case analyzer.KindIdentifier:
		add(f.Text(expr), expr)
		return
	case analyzer.KindAttribute:
		if rgNoGradAttrs[f.Text(f.Field(expr, analyzer.FieldAttribute))] {
			return
		}
		add(rgAttrKey(f, expr), expr)
		return
	case analyzer.KindSubscript:
		g.keysOf(f.Field(expr, analyzer.FieldValue), into)
		return
	case analyzer.KindKeywordArgument:
		g.keysOf(f.Field(expr, analyzer.FieldValue), into)
		return
	case analyzer.KindLambda, analyzer.KindString, analyzer.KindConcatenatedString, analyzer.KindComparisonOperator:
		return
	case analyzer.KindCall:
		method := m.MethodName(expr)
		if rgDetaching[method] {
			return
		}
		switch q := m.CallName(expr); {
		case q == "float", q == "int", q == "bool", q == "str", q == "repr", q == "format", strings.HasPrefix(q, "math."), strings.HasPrefix(q, "numpy."), q == "len", q == "isinstance":
			return
		case rgFactories[strings.TrimPrefix(q, "torch.")] && strings.HasPrefix(q, "torch."):
			return // a fresh tensor: its arguments are shapes and fill values
		}
		if method != "" {
			g.keysOf(m.Receiver(expr), into)
			if rgShapeArgs[method] {
				return
			}
		}
		f.Children(f.Field(expr, analyzer.FieldArguments), func(c analyzer.NodeID) bool {
			if f.Kind(c) != analyzer.KindKeywordArgument {
				g.keysOf(c, into)
			}
			return true
		})
		return
	}
	f.Children(expr, func(c analyzer.NodeID) bool {
		g.keysOf(c, into)
		return true
	})
}

// collect returns the keys a set of roots may carry a graph through,
// following assignments in the function transitively, each with the
// nodes that mention it (roots first).
func (g *retainGraph) collect(roots []analyzer.NodeID) map[string][]analyzer.NodeID {
	out := map[string][]analyzer.NodeID{}
	var queue []string
	visit := func(expr analyzer.NodeID) {
		keys := map[string][]analyzer.NodeID{}
		g.keysOf(expr, keys)
		for k, at := range keys {
			if _, seen := out[k]; !seen {
				queue = append(queue, k)
			}
			out[k] = append(out[k], at...)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, s := range g.sources[k] {
			if !s.loop || !g.iteratesData(s.value) {
				visit(s.value)
			}
		}
	}
	return out
}

// iteratesData reports whether a for loop's iterable yields data or
// counters, not tensors with history: a data loader or a range.
func (g *retainGraph) iteratesData(iter analyzer.NodeID) bool {
	f, m := g.f, g.m
	iter = f.Unparen(iter)
	for f.Kind(iter) == analyzer.KindCall {
		switch m.CallName(iter) {
		case "range":
			return true
		case "enumerate", "zip", "tqdm.tqdm", "tqdm", "tqdm.auto.tqdm", "iter", "reversed":
			args := m.Args(iter)
			if len(args) == 0 {
				return false
			}
			iter = f.Unparen(args[0])
			continue
		}
		break
	}
	name := strings.ToLower(f.Text(iter))
	return strings.Contains(name, "loader") || strings.Contains(name, "batches") || strings.Contains(name, "dataset") ||
		m.CallName(iter) == "torch.utils.data.DataLoader"
}

// mayCarry reports whether key may hold a tensor with autograd history,
// judged from every place it gets a value: models, losses, literals,
// detached values, data and hyperparameters do not.
func (g *retainGraph) mayCarry(key string, at analyzer.NodeID) bool {
	switch g.leaf[key] {
	case 1:
		return false
	case 2, 3:
		return true
	}
	g.leaf[key] = 3
	carry := g.computeMayCarry(key, at)
	g.leaf[key] = 1
	if carry {
		g.leaf[key] = 2
	}
	return carry
}

func (g *retainGraph) computeMayCarry(key string, at analyzer.NodeID) bool {
	f, m := g.f, g.m
	if c := m.ClassifyCallee(at); c == analyzer.CallableModel || c == analyzer.CallableLoss {
		return false
	}
	srcs := g.sources[key]
	for _, s := range srcs {
		if s.loop {
			if !g.iteratesData(s.value) {
				return true
			}
			continue
		}
		if !g.leafValue(s.value) {
			return true
		}
	}
	if f.Kind(at) == analyzer.KindAttribute {
		// self.x set in another method, or passed in: unseen.
		return len(srcs) == 0 || !g.assignedOnlyHere(at)
	}
	if len(srcs) > 0 && m.ScopeNode(srcs[0].stmt) == g.fn {
		return false
	}
	b := m.Resolve(at)
	switch {
	case b == nil:
		return !rgBuiltin(f.Text(at))
	case b.Kind == analyzer.BindImport || b.Kind == analyzer.BindFunction || b.Kind == analyzer.BindClass:
		return false
	case b.Kind == analyzer.BindParam:
		return !g.scalarParam(b.Stmt)
	case b.Kind == analyzer.BindAssign && !b.Unpacked:
		return !g.leafValue(b.Value)
	}
	return true
}

// assignedOnlyHere reports whether a `self.x` key is assigned in no other
// method of the class than the function under study.
func (g *retainGraph) assignedOnlyHere(attr analyzer.NodeID) bool {
	f, m := g.f, g.m
	class := m.EnclosingClass(attr)
	if class == analyzer.NoNode {
		return false
	}
	key := rgAttrKey(f, attr)
	only := true
	f.Walk(class, func(id analyzer.NodeID) {
		if !only || f.Kind(id) != analyzer.KindAssignment && f.Kind(id) != analyzer.KindAugmentedAssignment {
			return
		}
		left := f.Field(id, analyzer.FieldLeft)
		if f.Kind(left) == analyzer.KindAttribute && rgAttrKey(f, left) == key && m.ScopeNode(id) != g.fn {
			only = false
		}
	})
	return only
}

// scalarParam reports whether a parameter is a hyperparameter: it has a
// number, string, boolean or None default, or a scalar annotation.
func (g *retainGraph) scalarParam(param analyzer.NodeID) bool {
	f := g.f
	if v := f.Field(param, analyzer.FieldValue); v != analyzer.NoNode {
		switch f.Kind(v) {
		case analyzer.KindInteger, analyzer.KindFloat, analyzer.KindString, analyzer.KindTrue, analyzer.KindFalse:
			return true
		}
	}
	switch f.Text(f.Field(param, analyzer.FieldType)) {
	case "int", "float", "bool", "str":
		return true
	}
	name := param
	if f.Kind(param) != analyzer.KindIdentifier {
		name = f.Field(param, analyzer.FieldName)
		if name == analyzer.NoNode {
			name = f.FirstChild(param)
		}
	}
	return rgLeafParamName(f.Text(name))
}

// rgLeafParamWords are words of parameter names that hold data or
// hyperparameters rather than tensors with history: a batch handed to a
// step function, a loss weight, a step count.
var rgLeafParamWords = map[string]bool{
	"self": true, "cls": true, "batch": true, "data": true, "inputs": true, "input": true, "x": true, "y": true,
	"images": true, "imgs": true, "sample": true, "samples": true, "targets": true, "target": true, "labels": true,
	"steps": true, "step": true, "weight": true, "lambda": true, "alpha": true, "beta": true, "gamma": true,
	"coef": true, "scale": true, "temperature": true, "tau": true, "lr": true, "eps": true, "factor": true,
	"ratio": true, "accum": true, "device": true, "idx": true, "epoch": true, "iteration": true, "args": true,
	"config": true, "cfg": true, "opt": true, "hparams": true, "dim": true, "size": true, "num": true, "n": true,
}

// rgLeafParamName reports whether a parameter name reads as data or a
// hyperparameter: its last word, or its first (`accum_steps`,
// `lambda_gp`, `batch_idx`).
func rgLeafParamName(name string) bool {
	words := strings.Split(strings.ToLower(strings.Trim(name, "_")), "_")
	return rgLeafParamWords[words[0]] || rgLeafParamWords[words[len(words)-1]]
}

// leafValue reports whether a value has no autograd history of its own
// making: a literal, a detached value, a model, or an expression of such
// values.
func (g *retainGraph) leafValue(v analyzer.NodeID) bool {
	f, m := g.f, g.m
	v = f.Unparen(v)
	switch f.Kind(v) {
	case analyzer.KindInteger, analyzer.KindFloat, analyzer.KindString, analyzer.KindConcatenatedString, analyzer.KindTrue,
		analyzer.KindFalse, analyzer.KindNone, analyzer.KindDictionary, analyzer.KindLambda, analyzer.KindComparisonOperator:
		return true
	case analyzer.KindList, analyzer.KindTuple:
		if len(f.ChildList(v)) == 0 {
			return true
		}
	case analyzer.KindCall:
		if m.CarriesGraph(v) {
			return false
		}
		if m.CallName(v) == "" && m.Receiver(v) == analyzer.NoNode && !rgLocalDef(m, v) {
			// A constructor or a function from elsewhere with no
			// arguments that carry anything: `Generator()`, `sample(n)`.
			if c := m.ClassifyCallee(f.Field(v, analyzer.FieldFunction)); c == analyzer.CallableModel {
				return false
			}
		}
	}
	if m.CarriesGraph(v) {
		return false
	}
	keys := map[string][]analyzer.NodeID{}
	g.keysOf(v, keys)
	if f.Kind(v) == analyzer.KindCall && m.CallName(v) == "" && m.Receiver(v) == analyzer.NoNode && !rgLocalDef(m, v) && len(keys) > 0 {
		return false // a function this file cannot see, given tensors
	}
	for k, at := range keys {
		if g.mayCarry(k, at[0]) {
			return false
		}
	}
	return true
}

// rgLocalDef reports whether a call calls a function or class defined in
// this file.
func rgLocalDef(m *analyzer.Model, call analyzer.NodeID) bool {
	fn := m.File.Field(call, analyzer.FieldFunction)
	if m.File.Kind(fn) != analyzer.KindIdentifier {
		return false
	}
	b := m.Resolve(fn)
	return b != nil && (b.Kind == analyzer.BindFunction || b.Kind == analyzer.BindClass)
}

// rgBuiltin reports whether an unbound name is a Python builtin.
func rgBuiltin(name string) bool {
	switch name {
	case "True", "False", "None", "print", "range", "len", "float", "int", "sum", "max", "min", "abs", "enumerate", "zip", "list", "dict", "tuple":
		return true
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
		if !g.mayCarry(k, uses[0]) {
			continue
		}
		inside, conditional := false, false
		for _, s := range g.sources[k] {
			inside = inside || f.Contains(body, s.stmt)
		}
		if !inside {
			return nil, false // a graph from outside the step
		}
		// A read before the first assignment in the step sees the value
		// of the previous step (an RNN's hidden state).
		for _, u := range uses {
			if !f.Contains(body, u) {
				continue
			}
			ok, always := g.assignedBefore(k, u, body)
			if !ok {
				return nil, false
			}
			conditional = conditional || !always
		}
		if conditional {
			for _, s := range g.sources[k] {
				if !f.Contains(body, s.stmt) && f.N(s.stmt).Start < f.N(body).End && (s.loop || !g.leafValue(s.value)) {
					return nil, false
				}
			}
		}
		holders = append(holders, k)
	}
	sort.Strings(holders)
	return holders, true
}

// assignedBefore reports whether key is assigned inside body by a
// statement that ends before the read use, and whether that assignment
// runs on every pass through body (it is not under an if, a loop or a
// try).
func (g *retainGraph) assignedBefore(key string, use, body analyzer.NodeID) (ok, always bool) {
	f := g.f
	for _, s := range g.sources[key] {
		if !f.Contains(body, s.stmt) {
			continue
		}
		before := f.N(s.stmt).End <= f.N(use).Start && f.Kind(s.stmt) != analyzer.KindForStatement
		if s.loop && f.Contains(f.Field(s.stmt, analyzer.FieldBody), use) {
			before = true
		}
		if !before {
			continue
		}
		ok = true
		if rgUnconditional(f, s.stmt, body) {
			always = true
		}
	}
	return ok, always
}

// rgUnconditional reports whether stmt runs whenever body does.
func rgUnconditional(f *analyzer.File, stmt, body analyzer.NodeID) bool {
	for p := f.Parent(stmt); p != analyzer.NoNode && p != body; p = f.Parent(p) {
		switch f.Kind(p) {
		case analyzer.KindIfStatement, analyzer.KindElifClause, analyzer.KindElseClause, analyzer.KindForStatement,
			analyzer.KindWhileStatement, analyzer.KindTryStatement, analyzer.KindExceptClause, analyzer.KindMatchStatement,
			analyzer.KindConditionalExpression, analyzer.KindBooleanOperator:
			return false
		}
	}
	return true
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
			shares = inStep && g.backpropagatesUnseen(id)
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
		later := g.collect(exprs)
		for k, uses := range later {
			if _, ok := roots[k]; ok && g.mayCarry(k, uses[0]) {
				shares = true
				return
			}
		}
		if !inStep {
			return // after the step: only a name of this graph links them
		}
		// A later backward whose graph cannot be told apart (nothing
		// it reads may carry history as far as this file shows).
		any := false
		for k, uses := range later {
			any = any || g.mayCarry(k, uses[0])
		}
		shares = !any
	})
	return shares
}

// backpropagatesUnseen reports whether a call may back-propagate inside a
// function: a function or method of this file that does, or one named
// like backward.
func (g *retainGraph) backpropagatesUnseen(call analyzer.NodeID) bool {
	f, m := g.f, g.m
	fn := f.Field(call, analyzer.FieldFunction)
	name := strings.ToLower(rgLastName(f, fn))
	if strings.Contains(name, "backward") || strings.Contains(name, "closure") {
		return true
	}
	def := analyzer.NoNode
	switch f.Kind(fn) {
	case analyzer.KindIdentifier:
		if b := m.Resolve(fn); b != nil && b.Kind == analyzer.BindFunction {
			def = b.Stmt
		}
	case analyzer.KindAttribute:
		if class := m.EnclosingClass(call); class != analyzer.NoNode && f.TextIs(f.Field(fn, analyzer.FieldObject), "self") {
			attr := f.Text(f.Field(fn, analyzer.FieldAttribute))
			f.Walk(class, func(id analyzer.NodeID) {
				if def == analyzer.NoNode && f.Kind(id) == analyzer.KindFunctionDefinition && m.FunctionName(id) == attr {
					def = id
				}
			})
		}
	}
	if def == analyzer.NoNode {
		return false
	}
	return m.Memo(rgBackpropsKey{def}, func() any {
		found := false
		f.Walk(def, func(id analyzer.NodeID) {
			found = found || f.Kind(id) == analyzer.KindCall && (m.IsBackwardCall(id) || strings.Contains(strings.ToLower(rgLastName(f, f.Field(id, analyzer.FieldFunction))), "backward"))
		})
		return found
	}).(bool)
}

type rgBackpropsKey struct{ def analyzer.NodeID }

// lastNameOf returns the last identifier of a name or attribute chain.
func rgLastName(f *analyzer.File, id analyzer.NodeID) string {
	switch f.Kind(id) {
	case analyzer.KindIdentifier:
		return f.Text(id)
	case analyzer.KindAttribute:
		return f.Text(f.Field(id, analyzer.FieldAttribute))
	}
	return ""
}

// returnsAny reports whether fn returns or yields a value that may carry
// one of the graph's keys.
func (g *retainGraph) returnsAny(fn analyzer.NodeID, roots map[string][]analyzer.NodeID) bool {
	f, m := g.f, g.m
	found := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if found || (f.Kind(id) != analyzer.KindReturnStatement && f.Kind(id) != analyzer.KindYield) || m.ScopeNode(id) != fn {
			return
		}
		keys := map[string][]analyzer.NodeID{}
		f.Children(id, func(c analyzer.NodeID) bool {
			g.keysOf(c, keys)
			return true
		})
		for k := range keys {
			if _, ok := roots[k]; ok {
				found = true
			}
		}
	})
	return found
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
		g.keysOf(value, keys)
		hit := false
		for k := range keys {
			if _, ok := roots[k]; ok && g.mayCarry(k, keys[k][0]) {
				hit = true
			}
		}
		if !hit || !m.CarriesGraph(value) {
			return
		}
		tk := map[string][]analyzer.NodeID{}
		g.keysOf(target, tk)
		for k := range tk {
			for _, s := range g.sources[k] {
				if f.Contains(body, s.stmt) && s.stmt != id && f.N(s.stmt).End <= f.N(id).Start && f.Kind(s.stmt) == analyzer.KindAssignment {
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
