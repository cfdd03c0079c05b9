package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// EmptyCacheInLoop is TL301.
var EmptyCacheInLoop = &analyzer.Rule{
	Code:      "TL301",
	Name:      "empty-cache-in-loop",
	Summary:   "`torch.cuda.empty_cache()` is called on every step of a loop",
	Severity:  analyzer.SeverityWarning,
	Precision: "high",
	Tags:      []string{"memory", "performance", "cuda"},
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkEmptyCacheInLoop,
	Doc: `## What it does
Checks for ` + "`torch.cuda.empty_cache()`" + ` (however imported) that runs on every
iteration of a loop that runs once per step or per item: a loop over a
data loader, one that back-propagates or steps an optimizer, or one that
runs a model on each item (a frame, an image, a sample), directly, through
` + "`self.forward`" + `, a module of an ` + "`nn.ModuleDict`" + ` or ` + "`nn.ModuleList`" + `
(` + "`self.blocks[name](frame)`" + `), or through a method or function of the project whose body
runs the model (` + "`tracker.track(frame)`" + `). The call may sit in a loop nested in
that one: it still runs on each of its iterations, even where the nested
loop runs it once per model or on some of its own iterations only (per
chunk of rays, ` + "`for level in range(n):`" + ` runs each level's model, or
flushes under ` + "`if level == 0:`" + `). A generator of the file that calls it each
time it yields is reported where such a loop iterates it
(` + "`for batch in make_batches(prompts):`" + `). A comprehension is such a loop
too (` + "`[(model(c).cpu(), torch.cuda.empty_cache())[0] for c in chunks]`" + `).
A module's ` + "`forward`" + ` (or a Lightning ` + "`training_step`" + `, ` + "`validation_step`" + `,
` + "`test_step`" + `, ` + "`predict_step`" + `) runs once per batch wherever the module is
trained or run: a flush it calls on every call, itself or through a
function of the project (` + "`sample_and_group(...)`" + `), outside any loop of its
own and under no test but of the module's settings (` + "`if self.group_all:`" + `),
is reported there, one level lower, as the loop that runs it is not seen;
once, where the flush or the helper that flushes is called, not again at
each batch method up the chain (` + "`training_step`" + ` calling ` + "`self.forward`" + `), and
not in pytest modules, which flush to measure memory.
A loop that hands each item to a method of a parameter whose code the
project does not show (` + "`tracker.track(frame)`" + `, no class of the project
with a ` + "`track`" + ` method, not a method every module has) is taken to run a
model on it: its finding says so and is one level lower.

## Why is this bad?
` + "`empty_cache()`" + ` returns the CUDA caching allocator's *unused* blocks to the
driver. It cannot free memory that live tensors hold, so it does not fix
an out-of-memory error caused by tensors that are kept alive. Called every
step, it throws away exactly the blocks the next step was about to reuse:
the allocator must ask the driver for them again (` + "`cudaMalloc`" + `, which
synchronises), and throughput drops. The memory shown as "reserved" goes
down, but the peak a step needs does not.

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, median of 5 repetitions ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL301.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl301_empty_cache.py)):
training a ResNet-18 with random weights on synthetic images with
` + "`torch.cuda.empty_cache()`" + ` after every step ran at 65.77 steps per second
against 88.51 without it (0.74 times), and its peak reserved memory was
not lower: 1044 MiB against 940 MiB. Called once per epoch it measured
105.1 steps per second: no cost beyond the run-to-run variation.

## Example
` + "```python" + `
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    torch.cuda.empty_cache()
` + "```" + `

## Use instead
` + "```python" + `
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
` + "```" + `
If fragmentation is the problem, set
` + "`PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`" + ` before CUDA is initialised.
Calling ` + "`empty_cache()`" + ` once at a phase boundary is not reported: between
training and evaluation, once per epoch, once per model, layer or block of
a one-off conversion (` + "`for layer in model.layers:`" + ` in a calibration or a
quantization), once per video whose frames a function runs in a loop of
its own. Neither is a call that runs on some iterations only: under
` + "`if step % k == 0:`" + `, ` + "`if i == 0:`" + `, ` + "`if i in steps:`" + `, or after ` + "`if step % k: continue`" + `.
A test that does not thin the iterations (` + "`if i < n:`" + `, ` + "`if x is not None:`" + `)
does not make it one. A call in an ` + "`except`" + ` branch (freeing the cache after an
out-of-memory error, before a smaller retry) runs only when a step fails, and
so does one in a branch that leaves the iteration (a recovery path that
skips the step: ` + "`if isnan(loss.item()): ...; continue`" + `). An epoch loop's
` + "`optimizer.zero_grad()`" + ` before its loop of steps does not make it a loop of steps.
A loop that waits for a person on every iteration (` + "`path = input(...)`" + `) is
no throughput loop: the flush costs nothing against the wait.

A helper function, in this file or another of the project, that calls
` + "`empty_cache()`" + ` every time it runs is reported where a per-step loop
calls it, with the helper's call as a related location. A helper that
runs a loop of steps of its own (a training phase between rollouts)
flushes between phases, and is not. A method its class leaves to
subclasses (` + "`raise NotImplementedError`" + `, ` + "`@abstractmethod`" + `) runs their
overrides: where one of them flushes on every run, a per-step loop that
calls it, or a method of the base class that always calls it
(` + "`model.meta_observe(x, y)`" + ` with ` + "`model: ContinualModel`" + `), is reported one
level lower, naming the override; a base method with a body of its own
is taken to run that body.

## Known problems
A method called on an object is followed only where the object's class
is known: built in the function (` + "`tracker = Tracker(model)`" + `), a parameter
annotated with it, or an attribute of ` + "`self`" + ` assigned once. A function of
another file is taken to run the model on each item when the project
says it runs one and the call passes the iteration's item, or a part of
something taken by the iteration's count (` + "`net.complete(video[t:t + 10])`" + `;
not a loader, not the counter alone); whether it loops over that item's parts is not known
there. A loop around a nested one counts as running the model on each of
its items only where the model is given what it draws (` + "`rays_chunk`" + `, or a
slice its count takes, ` + "`net(rays[s:s + chunk])`" + `) and nothing the nested loops
draw, but for what a nested loop over modules draws with each module (its
number of samples); the callables such a loop draws are its models,
whatever the key that picks them (` + "`models['net_{}'.format(level)]`" + `); and a generator is followed only in the
file that defines it, with the flush in the block of its ` + "`yield`" + `.

## References
- [CUDA semantics: memory management](https://pytorch.org/docs/stable/notes/cuda.html#memory-management)
- [torch.cuda.empty_cache](https://pytorch.org/docs/stable/generated/torch.cuda.empty_cache.html)
`,
}

func checkEmptyCacheInLoop(p *analyzer.Pass, call analyzer.NodeID) {
	m := p.Model
	const cost = ": it cannot free memory that live tensors hold, " +
		"only cached blocks the next step would reuse, so each step pays for cudaFree/cudaMalloc again; " +
		"remove it, or call it once between phases"
	var helper *analyzer.Object
	if m.CallName(call) != "torch.cuda.empty_cache" {
		if loop, flush := generatorFlush(m, call); flush != analyzer.NoNode {
			f := p.File
			def := m.LocalCallee(call)
			pos := f.Position(f.N(flush).Start)
			p.ReportRelated(call, fmt.Sprintf("`%s` runs `torch.cuda.empty_cache()` on %s, through the generator `%s`, which calls it "+
				"each time it yields (line %d)%s", analyzer.Snippet(f.Text(call), 40), tl301Often(m, loop, "this loop"),
				m.FunctionName(def), pos.Line, cost),
				analyzer.Related{Path: f.Path, Line: pos.Line, Column: pos.Column,
					Message: "`torch.cuda.empty_cache()` called after each item `" + m.FunctionName(def) + "` yields"})
			return
		}
		if helper = m.Helper(call); helper == nil || helper.EmptyCache == nil {
			return
		}
	}
	loop := m.HotLoop(call)
	unseen := analyzer.NoNode
	if loop == analyzer.NoNode && helper == nil {
		if l := m.EnclosingLoop(call); l != analyzer.NoNode && !m.OnSomeIterations(l, call) {
			if unseen = m.UnseenItemWork(l); unseen != analyzer.NoNode {
				loop = l
			}
		}
	}
	if loop == analyzer.NoNode {
		if def := batchMethod(m, call); def != analyzer.NoNode && (m.Always(call, def) || underSettings(m, call, def)) && m.EnclosingLoop(call) == analyzer.NoNode &&
			!m.IsPytestFile() && (helper == nil || !flushedInBatchMethod(helper)) {
			f := p.File
			class := f.Text(f.Field(m.EnclosingClass(def), analyzer.FieldName))
			what := fmt.Sprintf("every forward pass of `%s`", class)
			if name := m.FunctionName(def); name != "forward" {
				what = fmt.Sprintf("every call of `%s.%s`", class, name)
			}
			if helper == nil {
				p.Report(call, "`torch.cuda.empty_cache()` runs on "+what+", once per batch wherever the module runs"+cost)
			} else {
				p.ReportRelated(call, fmt.Sprintf("`%s` runs `torch.cuda.empty_cache()` on %s, once per batch wherever the module runs, through `%s` (%s)%s",
					analyzer.Snippet(f.Text(call), 40), what, helper.Site.Text, helper.EmptyCache.Where(), cost),
					analyzer.RelatedSite(helper.EmptyCache, "`torch.cuda.empty_cache()` called by `"+helper.Site.Text+"`"))
			}
			p.Assume(fmt.Sprintf("`%s` runs once per batch or step: the loop that runs it is not seen", class))
		}
		return
	}
	if stepsInside(m, loop, call) {
		return
	}
	where := "this loop"
	if loop != m.EnclosingLoop(call) {
		where = fmt.Sprintf("the loop at line %d", p.File.Position(p.File.N(loop).Start).Line)
	}
	every := tl301Often(m, loop, where)
	if unseen != analyzer.NoNode {
		p.Report(call, fmt.Sprintf("`torch.cuda.empty_cache()` runs on every iteration of %s, each of which hands an item to `%s`%s",
			where, analyzer.Snippet(p.File.Text(unseen), 40), cost))
		p.Assume(fmt.Sprintf("`%s` runs a model on the GPU: a method of a parameter whose code the project does not show",
			analyzer.Snippet(p.File.Text(unseen), 40)))
		return
	}
	if helper == nil {
		p.Report(call, "`torch.cuda.empty_cache()` runs on "+every+cost)
		return
	}
	if by := helper.EmptyCacheBy; by != "" {
		// The flush of an override of an abstract method that `helper`
		// is or calls: on objects of that class alone.
		class, method, _ := strings.Cut(by, ".")
		how := fmt.Sprintf(", whose `%s` calls it", method)
		if _, called, _ := strings.Cut(helper.Site.Text, "."); called != method {
			how = fmt.Sprintf(": `%s` runs its `%s`, which calls it", helper.Site.Text, method)
		}
		recv := helper.Site.Text
		if r := m.Receiver(call); r != analyzer.NoNode {
			recv = analyzer.Snippet(p.File.Text(r), 30)
		}
		p.ReportRelated(call, fmt.Sprintf("`%s` runs `torch.cuda.empty_cache()` on %s where `%s` is a `%s`%s (%s)%s",
			analyzer.Snippet(p.File.Text(call), 40), every, recv, class, how, helper.EmptyCache.Where(), cost),
			analyzer.RelatedSite(helper.EmptyCache, "`torch.cuda.empty_cache()` called by `"+by+"`"))
		p.Assume(fmt.Sprintf("`%s` is a `%s`, or of another class whose `%s` flushes", recv, class, method))
		return
	}
	p.ReportRelated(call, fmt.Sprintf("`%s` runs `torch.cuda.empty_cache()` on %s, through `%s` (%s)%s",
		analyzer.Snippet(p.File.Text(call), 40), every, helper.Site.Text, helper.EmptyCache.Where(), cost),
		analyzer.RelatedSite(helper.EmptyCache, "`torch.cuda.empty_cache()` called by `"+helper.Site.Text+"`"))
}

// batchMethods are the methods of a module that run once per batch
// wherever it is used: forward and Lightning's steps.
var batchMethods = map[string]bool{
	"forward": true, "training_step": true, "validation_step": true, "test_step": true, "predict_step": true,
}

// batchMethod returns the method of a module class that call is in, when
// the method runs once per batch wherever the module is used: `forward`,
// or a Lightning step (`training_step`, `validation_step`, `test_step`,
// `predict_step`). NoNode otherwise.
func batchMethod(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	def := m.ScopeNode(call)
	if def == analyzer.Root || m.File.Kind(def) != analyzer.KindFunctionDefinition {
		return analyzer.NoNode
	}
	if !batchMethods[m.FunctionName(def)] {
		return analyzer.NoNode
	}
	if class := m.EnclosingClass(def); class == analyzer.NoNode || !m.IsModuleClass(class) {
		return analyzer.NoNode
	}
	return def
}

// flushedInBatchMethod reports whether a helper a batch method calls is
// itself a batch method (`self.forward(x)` in `training_step`,
// `self.transformer.forward(x)`): its flush is reported in it, or in
// the one it calls, not once more at each caller up the chain.
func flushedInBatchMethod(helper *analyzer.Object) bool {
	name := helper.Site.Text
	return batchMethods[name[strings.LastIndexByte(name, '.')+1:]]
}

// underSettings reports whether every condition between call and def,
// its function, tests settings of the module alone (`if self.group_all:`,
// `elif not self.knn:`): attributes of self, literals, and their
// comparisons. Such a branch is taken on every call of a module built
// with those settings, not on some inputs.
func underSettings(m *analyzer.Model, call, def analyzer.NodeID) bool {
	f := m.File
	settingsOnly := func(test analyzer.NodeID) bool {
		ok := test != analyzer.NoNode
		f.Walk(test, func(id analyzer.NodeID) {
			switch f.Kind(id) {
			case analyzer.KindCall, analyzer.KindSubscript, analyzer.KindLambda:
				ok = false
			case analyzer.KindIdentifier:
				if f.N(id).Field != analyzer.FieldAttribute && !f.TextIs(id, "self") && !f.TextIs(id, "None") {
					ok = false
				}
			}
		})
		return ok
	}
	for x := f.Parent(call); x != def && x != analyzer.NoNode; x = f.Parent(x) {
		switch f.Kind(x) {
		case analyzer.KindIfStatement, analyzer.KindElifClause:
			if !settingsOnly(f.Field(x, analyzer.FieldCondition)) {
				return false
			}
		case analyzer.KindElseClause:
			if p := f.Parent(x); f.Kind(p) != analyzer.KindIfStatement || !settingsOnly(f.Field(p, analyzer.FieldCondition)) {
				return false
			}
		case analyzer.KindTryStatement, analyzer.KindBooleanOperator, analyzer.KindConditionalExpression, analyzer.KindLambda,
			analyzer.KindFunctionDefinition, analyzer.KindExceptClause:
			return false
		}
	}
	return true
}

// stepsInside reports whether a loop nested in loop, apart from call,
// back-propagates or steps an optimizer on each of its iterations: loop
// iterates over phases of many steps (`for brain in loader:`, then a
// step for each cube of the brain), and call runs once per phase.
func stepsInside(m *analyzer.Model, loop, call analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found || m.ScopeNode(id) != m.ScopeNode(loop) || f.Contains(id, call) {
			return
		}
		if k := f.Kind(id); k == analyzer.KindForStatement || k == analyzer.KindWhileStatement {
			found = m.Loop(id).Backward
		}
	})
	return found
}

// tl301Often says how often a call runs in a hot loop, for a
// message: "every step of this loop", or, in a loop that runs the model
// on each item (a loop of no hot role of its own is one: HotLoop),
// "every iteration of this loop, each of which runs the model".
func tl301Often(m *analyzer.Model, loop analyzer.NodeID, where string) string {
	if role := m.LoopRole(loop); role == analyzer.LoopItem || !role.Hot() {
		return "every iteration of " + where + ", each of which runs the model"
	}
	return "every step of " + where
}

// generatorFlush returns, for a call of a generator function of this
// file that a hot loop iterates (`for batch in make_batches(...)`), that
// loop and the `torch.cuda.empty_cache()` the generator calls each time
// it yields: in the block of a `yield`, with nothing between them that
// could leave it. Each item the loop takes resumes the generator through
// it. A flush the generator's own loop already runs per step is reported
// there instead.
func generatorFlush(m *analyzer.Model, call analyzer.NodeID) (loop, flush analyzer.NodeID) {
	f := m.File
	def := m.LocalCallee(call)
	if def == analyzer.NoNode {
		return analyzer.NoNode, analyzer.NoNode
	}
	var yields []analyzer.NodeID
	f.Walk(f.Field(def, analyzer.FieldBody), func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindYield && m.ScopeNode(id) == def {
			yields = append(yields, id)
		}
	})
	if len(yields) == 0 {
		return analyzer.NoNode, analyzer.NoNode
	}
	if loop = m.HotIterating(call); loop == analyzer.NoNode {
		return analyzer.NoNode, analyzer.NoNode
	}
	flush = analyzer.NoNode
	f.Walk(f.Field(def, analyzer.FieldBody), func(id analyzer.NodeID) {
		if flush != analyzer.NoNode || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != def ||
			m.CallName(id) != "torch.cuda.empty_cache" || m.HotLoop(id) != analyzer.NoNode {
			return
		}
		for _, y := range yields {
			if sameRun(f, id, y) {
				flush = id
				return
			}
		}
	})
	if flush == analyzer.NoNode {
		return analyzer.NoNode, analyzer.NoNode
	}
	return loop, flush
}

// sameRun reports whether two nodes sit in statements of one block with
// only plain statements between them (expressions, assignments, `del`):
// whenever one of them runs, so does the other.
func sameRun(f *analyzer.File, a, b analyzer.NodeID) bool {
	sa, sb := blockStatement(f, a), blockStatement(f, b)
	if sa == analyzer.NoNode || sb == analyzer.NoNode || f.Parent(sa) != f.Parent(sb) {
		return false
	}
	if f.N(sb).Start < f.N(sa).Start {
		sa, sb = sb, sa
	}
	for s := f.N(sa).NextSibling; s != analyzer.NoNode && s != sb; s = f.N(s).NextSibling {
		switch f.Kind(s) {
		case analyzer.KindExpressionStatement, analyzer.KindAssignment, analyzer.KindAugmentedAssignment,
			analyzer.KindDeleteStatement, analyzer.KindComment:
		default:
			return false
		}
	}
	return true
}

// blockStatement returns the statement around id that is a child of a
// block, or NoNode where a function or class comes first.
func blockStatement(f *analyzer.File, id analyzer.NodeID) analyzer.NodeID {
	for s := id; s != analyzer.NoNode; s = f.Parent(s) {
		switch f.Kind(f.Parent(s)) {
		case analyzer.KindBlock:
			return s
		case analyzer.KindFunctionDefinition, analyzer.KindClassDefinition, analyzer.KindLambda:
			return analyzer.NoNode
		}
	}
	return analyzer.NoNode
}

// onSelectedIterations (TL501's test; TL301 asks the analyzer's
// OnSomeIterations) reports whether call runs only on some iterations
// of loop: under a periodic condition (`if step % 100 == 0:`) or one that
// tests the loop variable (`if i in refine_steps:`).
func onSelectedIterations(m *analyzer.Model, loop, call analyzer.NodeID) bool {
	f := m.File
	targets := map[string]bool{}
	if f.Kind(loop) == analyzer.KindForStatement {
		f.Walk(f.Field(loop, analyzer.FieldLeft), func(id analyzer.NodeID) {
			if f.Kind(id) == analyzer.KindIdentifier {
				targets[f.Text(id)] = true
			}
		})
	}
	for n := f.Parent(call); n != analyzer.NoNode && n != loop; n = f.Parent(n) {
		k := f.Kind(n)
		if k != analyzer.KindIfStatement && k != analyzer.KindElifClause {
			continue
		}
		selected := false
		f.Walk(f.Field(n, analyzer.FieldCondition), func(id analyzer.NodeID) {
			switch f.Kind(id) {
			case analyzer.KindBinaryOperator:
				selected = selected || f.TextIs(f.Field(id, analyzer.FieldOperator), "%")
			case analyzer.KindComparisonOperator:
				f.Walk(id, func(c analyzer.NodeID) {
					selected = selected || f.Kind(c) == analyzer.KindIdentifier && targets[f.Text(c)]
				})
			}
		})
		if selected {
			return true
		}
	}
	return false
}
