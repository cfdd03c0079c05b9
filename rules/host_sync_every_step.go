package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// HostSyncEveryStep is TL501.
var HostSyncEveryStep = &analyzer.Rule{
	Code:      "TL501",
	Name:      "host-sync-every-step",
	Summary:   "A GPU tensor is read on the host on every step of a training or evaluation loop",
	Severity:  analyzer.SeverityWarning,
	Precision: "medium",
	Tags:      []string{"performance", "cuda"},
	Preview:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall, analyzer.KindIfStatement, analyzer.KindElifClause},
	Check:     checkHostSync,
	Doc: `## What it does
Checks for a tensor computed on the GPU (a model's output, a loss, a value
computed from them) that is read on the host on every iteration of a
training loop (one that back-propagates or steps an optimizer) or an
evaluation loop (one over a data loader):

- ` + "`.item()`" + `, ` + "`.tolist()`" + `, ` + "`float(t)`" + `, ` + "`int(t)`" + ` or ` + "`bool(t)`" + `;
- ` + "`.cpu()`" + ` or ` + "`.numpy()`" + ` of a loss or of a whole-tensor reduction (` + "`.sum()`" + `, ` + "`.mean()`" + `);
- ` + "`print(t)`" + `;
- ` + "`if t:`" + ` on a tensor's truth value.

## Why is this bad?
CUDA work is asynchronous: the host queues a step's kernels and goes on
to prepare the next batch and queue the next step while the GPU runs.
Reading a value on the host makes it wait until the GPU has finished
everything queued so far. Done every step, the host's own work (its
Python, the next batch's preparation, the next step's kernel launches)
no longer overlaps the GPU's, and steps take the sum of the two times
instead of the longer one.

How much that costs depends on how much host work there is to overlap.
It is small for a model whose steps are long compared with the host's
work. It is large when batches are prepared in the training process.

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, median of 5 repetitions ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL501.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl501_host_sync.py)):
a small CNN whose batches are prepared in the training process (8-bit
images converted, normalised, pinned and copied without blocking)
trained at 258.3 steps per second with ` + "`total += loss.item()`" + ` every step,
against 334.0 with ` + "`total += loss.detach()`" + ` and one ` + "`.item()`" + ` after the
loop (0.7734 times); reading the loss on a logging cadence (one step in
fifty) instead measured 340.4. Copied as most tutorials copy a batch,
` + "`x.to(device)`" + ` from pageable memory, which itself waits for the GPU every
step, the same loop still paid: 242.3 against 269.9 steps per second
(0.8977 times): without the read, the host prepares the next batch
while the GPU still runs the step, and only the copy waits. GPT-2
small's shape (about 70 ms a step) ran at 14.0 steps per second against
14.43 (0.9702 times). With batches made on the GPU, the small CNN and a
small transformer measured 380.3 against 396.7 and 133.0 against 146.4
steps per second (0.9085 times); an earlier run of the same programs
measured no difference for these two beyond its run-to-run variation.

This rule is in preview, so it is off by default; select it by its code
(` + "`--select TL501`" + `, or ` + "`extend-select = [\"TL501\"]`" + ` in ` + "`[tool.torchlint]`" + `) when
tuning a run's throughput. It reports the loop that PyTorch's own
tutorials write, and most runs pay little for it: the cost ranges from
nothing to a quarter of the steps, and only a profile of the run says
which.

## Example
` + "```python" + `
for x, y in loader:
    loss = criterion(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    total += loss.item()
print(total / len(loader))
` + "```" + `

## Use instead
` + "```python" + `
total = 0
for x, y in loader:
    loss = criterion(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    total += loss.detach()
print(total.item() / len(loader))
` + "```" + `
Or read the value on a logging cadence (` + "`if step % 100 == 0:`" + `), which is
not reported.

Not reported either:
- reads after the loop;
- a read whose value decides a stop (` + "`if not math.isfinite(loss.item()): break`" + `,
  a ` + "`raise`" + `, a ` + "`return`" + `, a ` + "`while`" + ` condition, the loop's own included:
  ` + "`while value < 0.99:`" + ` after ` + "`value = out.item()`" + `), or a comparison that
  saves a checkpoint or feeds early stopping (` + "`if loss < best: best = loss; wait = 0`" + `
  with a later ` + "`if wait == patience: break`" + `): the host needs it;
- reads in a loop that waits for the GPU every step anyway: one that
  calls ` + "`GradScaler.step`" + ` (which reads its inf check), that calls
  ` + "`torch.cuda.synchronize()`" + `, that moves outputs to the host
  (` + "`out.cpu()`" + `), that reads a value the host needs, or that calls, every
  step, a function (of this file or another) that reads a tensor on the
  host: ` + "`.item()`" + `, ` + "`.tolist()`" + `, ` + "`.cpu()`" + `, ` + "`.nonzero()`" + `. One more read
  costs little there, and the advice would not remove the wait.

- reads in a script's module-level loop, in a file whose code (not its
  comments) names no ` + "`cuda`" + `, device, GPU or accelerator: such a
  script trains on the CPU, where a read waits for nothing.

## Known problems
Where a tensor lives is not known without running the code: a function's
loop that runs on the CPU is reported too (its model and batches may
come from a file that moved them), and pays nothing, and a helper's read
silences the loop even when the helper reads a tensor on the CPU. Waits
hidden in library code are not seen: indexing with a boolean mask,
PyTorch Geometric's pooling (which reads ` + "`batch.max()`" + `), and the overflow
checks of DeepSpeed's fp16 optimizers make the host wait every step
already; in those loops the reported read costs little more. Read on
real code, about three findings in four (150 of 194 over 45 projects)
are reads that a change would really speed up; most of the others are
waits of that kind. ` + "`tensorboard`" + `'s ` + "`add_scalar`" + ` and similar loggers read
a tensor on the host themselves; passing them the tensor instead of
` + "`.item()`" + ` does not remove the wait, a logging cadence does.

## References
- [CUDA semantics: asynchronous execution](https://pytorch.org/docs/stable/notes/cuda.html#asynchronous-execution)
- [Performance tuning guide: avoid unnecessary CPU-GPU synchronization](https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html#avoid-unnecessary-cpu-gpu-synchronization)
- [torch.cuda.set_sync_debug_mode](https://pytorch.org/docs/stable/generated/torch.cuda.set_sync_debug_mode.html)
`,
}

// readMethods read a tensor's values on the host.
var readMethods = map[string]bool{"item": true, "tolist": true, "cpu": true, "numpy": true}

// accelerateCollectives are the methods of accelerate's Accelerator that
// return their tensor arguments' values from every rank, on the device.
var accelerateCollectives = map[string]bool{"gather": true, "gather_for_metrics": true, "reduce": true, "pad_across_processes": true}

// readBuiltins convert a one-element tensor to a Python value.
var readBuiltins = map[string]bool{"float": true, "int": true, "bool": true}

// hostMethods return what is no GPU tensor: a host copy, a number, a shape.
var hostMethods = map[string]bool{
	"item": true, "tolist": true, "cpu": true, "numpy": true, "size": true, "dim": true, "numel": true,
	"element_size": true, "nelement": true, "get_device": true, "data_ptr": true, "is_contiguous": true,
	"stride": true, "storage_offset": true, "type": true,
}

// reductions reduce a whole tensor to one element when called without a
// dimension.
var reductions = map[string]bool{
	"sum": true, "mean": true, "max": true, "min": true, "norm": true, "std": true, "var": true,
	"prod": true, "all": true, "any": true, "amax": true, "amin": true,
}

func checkHostSync(p *analyzer.Pass, id analyzer.NodeID) {
	m, f := p.Model, p.File
	loop := stepLoop(m, id)
	if loop == analyzer.NoNode {
		return
	}
	reads := loopReads(m, loop)
	if len(reads) == 0 || reads[0].node != id || loopWaitsAnyway(m, loop) {
		return
	}
	if m.ScopeNode(loop) == analyzer.Root && !m.Memo(gpuKey{}, func() any { return onDevice(f) == "on the GPU" }).(bool) {
		// A script whose module-level loop trains what it builds, in a
		// file that shows no GPU (no `cuda`, no `device`): its tensors
		// live on the host, and a read waits for nothing. (A function's
		// loop may be handed a model and batches another file moved.)
		return
	}
	first := reads[0]
	msg := fmt.Sprintf("%s makes the host wait for the GPU on every step of this loop, "+
		"so the host's work no longer overlaps the GPU's; %s", first.text, syncAdvice(m, id, statementOf(f, id), first.value))
	var related []analyzer.Related
	if len(reads) > 1 {
		msg += fmt.Sprintf(" (the loop also reads the GPU at %s: the wait goes only when every read of the step does)",
			readLines(f, reads[1:]))
		for _, r := range reads[1:] {
			pos := f.Position(f.N(r.at).Start)
			related = append(related, analyzer.Related{Path: f.Path, Line: pos.Line, Column: pos.Column,
				Message: r.text + " also waits for the GPU"})
		}
	}
	p.ReportRelated(first.at, msg, related...)
}

type gpuKey struct{}

// hostReadSite is one read of a GPU tensor on the host.
type hostReadSite struct {
	node  analyzer.NodeID // the call or if statement
	at    analyzer.NodeID // what a finding spans
	value analyzer.NodeID // the tensor read
	text  string          // the read, for messages
}

// readOf returns the read a call or if statement makes, if it reads a GPU
// tensor on the host.
func readOf(m *analyzer.Model, id analyzer.NodeID) (hostReadSite, bool) {
	f := m.File
	r := hostReadSite{node: id, at: id}
	switch f.Kind(id) {
	case analyzer.KindCall:
		r.value, r.text = hostRead(m, id)
	case analyzer.KindIfStatement, analyzer.KindElifClause:
		cond := f.Unparen(f.Field(id, analyzer.FieldCondition))
		if !truthOfTensor(m, cond) {
			return r, false
		}
		r.value, r.text, r.at = cond, ifCode(m, cond), cond
	default:
		return r, false
	}
	return r, r.value != analyzer.NoNode && deviceTensor(m, r.value, 0)
}

type readsKey struct{ loop analyzer.NodeID }

// loopReads lists, in source order, the reads of GPU tensors that run on
// every iteration of a step loop and that the host does not need there.
func loopReads(m *analyzer.Model, loop analyzer.NodeID) []hostReadSite {
	return m.Memo(readsKey{loop}, func() any {
		f := m.File
		var out []hostReadSite
		f.Walk(f.Field(loop, analyzer.FieldBody), func(n analyzer.NodeID) {
			k := f.Kind(n)
			if k != analyzer.KindCall && k != analyzer.KindIfStatement && k != analyzer.KindElifClause {
				return
			}
			r, ok := readOf(m, n)
			if !ok || stepLoop(m, n) != loop || onSelectedIterations(m, loop, n) || decidesStop(m, n, statementOf(f, n), loop) {
				return
			}
			out = append(out, r)
		})
		return out
	}).([]hostReadSite)
}

// readLines names the lines of reads: "lines 12, 14".
func readLines(f *analyzer.File, reads []hostReadSite) string {
	var lines []string
	for _, r := range reads {
		lines = append(lines, fmt.Sprint(f.Position(f.N(r.at).Start).Line))
	}
	if len(lines) == 1 {
		return "line " + lines[0]
	}
	return "lines " + strings.Join(lines, ", ")
}

// hostRead returns the tensor a call reads on the host and how the
// message names the read, or NoNode.
func hostRead(m *analyzer.Model, call analyzer.NodeID) (analyzer.NodeID, string) {
	if meth := m.MethodName(call); readMethods[meth] {
		recv := m.Receiver(call)
		if (meth == "cpu" || meth == "numpy") && !scalarTensor(m, recv, 0) {
			return analyzer.NoNode, "" // outputs moved to the host: judged by loopWaitsAnyway
		}
		return recv, code(m, call, 40, "this read")
	}
	args := m.Args(call)
	switch q := m.CallName(call); {
	case readBuiltins[q] && len(args) == 1:
		return args[0], code(m, call, 40, "this read")
	case q == "print":
		for _, a := range args {
			if deviceTensor(m, a, 0) {
				return a, code(m, call, 40, "this read")
			}
		}
	}
	return analyzer.NoNode, ""
}

// truthOfTensor reports whether an if condition takes the truth value of
// a GPU tensor: a numeric comparison, a whole-tensor reduction or a loss,
// possibly negated. A condition that reads the tensor through a call
// (`.item()`, `float()`) is judged as that call.
func truthOfTensor(m *analyzer.Model, cond analyzer.NodeID) bool {
	f := m.File
	switch f.Kind(cond) {
	case analyzer.KindNotOperator:
		return truthOfTensor(m, f.Unparen(f.Field(cond, analyzer.FieldArgument)))
	case analyzer.KindComparisonOperator:
		// `is`, `is not`, `in` and `not in` compare objects, not values.
		kids := f.ChildList(cond)
		for i := 1; i < len(kids); i++ {
			gap := strings.TrimSpace(string(f.Src[f.N(kids[i-1]).End:f.N(kids[i]).Start]))
			if strings.HasPrefix(gap, "is") || strings.HasSuffix(gap, "in") {
				return false
			}
		}
		return true
	case analyzer.KindCall:
		if _, read := hostRead(m, cond); read != "" {
			return false
		}
		return scalarTensor(m, cond, 0)
	case analyzer.KindIdentifier:
		return scalarTensor(m, cond, 0)
	}
	return false
}

// deviceTensor reports whether expr is a tensor the GPU computes: a
// forward pass's output, a loss, a value that carries a graph, or one
// computed from them by torch functions, tensor methods and operators.
func deviceTensor(m *analyzer.Model, expr analyzer.NodeID, depth int) bool {
	f := m.File
	expr = f.Unparen(expr)
	if expr == analyzer.NoNode || depth > 12 {
		return false
	}
	next := func(e analyzer.NodeID) bool { return deviceTensor(m, e, depth+1) }
	switch f.Kind(expr) {
	case analyzer.KindCall:
		if m.IsForwardCall(expr) || m.IsLossCall(expr) {
			return true
		}
		if meth := m.MethodName(expr); meth != "" {
			switch {
			case hostMethods[meth]:
				return false
			case meth == "to":
				for _, a := range m.Args(expr) {
					if t := f.Text(a); strings.Contains(t, "cpu") || strings.Contains(t, "numpy") {
						return false
					}
				}
				return next(m.Receiver(expr))
			case meth == "cuda":
				return true
			case accelerateCollectives[meth] && constructor(m, m.Receiver(expr)) == "accelerate.Accelerator":
				// accelerator.gather(loss): the ranks' values, on the device.
				for _, a := range m.Args(expr) {
					if next(a) {
						return true
					}
				}
				return false
			}
			if q := m.CallName(expr); q == "" || !strings.HasPrefix(q, "torch.") {
				return next(m.Receiver(expr))
			}
		}
		q := m.CallName(expr)
		rest, ok := strings.CutPrefix(q, "torch.")
		if !ok || strings.HasPrefix(rest, "cuda.") || strings.HasPrefix(rest, "distributed.") || strings.HasPrefix(rest, "utils.") {
			return m.CarriesGraph(expr)
		}
		for _, a := range m.Args(expr) {
			if next(a) {
				return true
			}
		}
		return false
	case analyzer.KindIdentifier:
		if m.CarriesGraph(expr) {
			return true
		}
		b := m.Resolve(expr)
		if b == nil {
			return false
		}
		switch b.Kind {
		case analyzer.BindAssign, analyzer.BindAugAssign:
			if b.Value != analyzer.NoNode && f.Contains(m.ScopeNode(expr), b.Stmt) {
				return next(b.Value)
			}
		}
		return false
	case analyzer.KindAttribute:
		switch f.Text(f.Field(expr, analyzer.FieldAttribute)) {
		case "data", "grad", "T", "mT", "real", "imag":
			return next(f.Field(expr, analyzer.FieldObject))
		}
		return false
	case analyzer.KindSubscript:
		return next(f.Field(expr, analyzer.FieldValue))
	case analyzer.KindBinaryOperator:
		return next(f.Field(expr, analyzer.FieldLeft)) || next(f.Field(expr, analyzer.FieldRight))
	case analyzer.KindUnaryOperator:
		return next(f.Field(expr, analyzer.FieldArgument))
	case analyzer.KindComparisonOperator:
		found := false
		f.Children(expr, func(c analyzer.NodeID) bool {
			found = f.N(c).Kind != analyzer.KindToken && next(c)
			return !found
		})
		return found
	}
	return false
}

// scalarTensor reports whether expr is a one-element GPU tensor: a loss,
// or a whole-tensor reduction.
func scalarTensor(m *analyzer.Model, expr analyzer.NodeID, depth int) bool {
	f := m.File
	expr = f.Unparen(expr)
	if depth > 8 {
		return false
	}
	switch f.Kind(expr) {
	case analyzer.KindCall:
		if m.IsLossCall(expr) {
			return true
		}
		switch meth := m.MethodName(expr); {
		case meth == "detach" || meth == "clone" || meth == "float" || meth == "double":
			return scalarTensor(m, m.Receiver(expr), depth+1)
		case reductions[meth]:
			return len(m.Args(expr)) == 0 && deviceTensor(m, m.Receiver(expr), 0)
		}
	case analyzer.KindIdentifier:
		if backpropagated(m, expr) {
			return true
		}
		if b := m.Resolve(expr); b != nil && (b.Kind == analyzer.BindAssign || b.Kind == analyzer.BindAugAssign) &&
			b.Value != analyzer.NoNode && f.Contains(m.ScopeNode(expr), b.Stmt) {
			return scalarTensor(m, b.Value, depth+1)
		}
	case analyzer.KindAttribute:
		if f.TextIs(f.Field(expr, analyzer.FieldAttribute), "data") {
			return scalarTensor(m, f.Field(expr, analyzer.FieldObject), depth+1)
		}
	}
	return false
}

type backpropKey struct{ fn analyzer.NodeID }

// backpropagated reports whether a name is back-propagated with
// `name.backward()` and no gradient argument in its function: only a
// one-element tensor can be.
func backpropagated(m *analyzer.Model, id analyzer.NodeID) bool {
	f := m.File
	fn := m.ScopeNode(id)
	names := m.Memo(backpropKey{fn}, func() any {
		out := map[string]bool{}
		f.Walk(fn, func(n analyzer.NodeID) {
			if f.Kind(n) == analyzer.KindCall && m.MethodName(n) == "backward" && len(m.Args(n)) == 0 &&
				m.Keyword(n, "gradient") == analyzer.NoNode {
				if r := m.Receiver(n); f.Kind(r) == analyzer.KindIdentifier {
					out[f.Text(r)] = true
				}
			}
		})
		return out
	}).(map[string]bool)
	return names[f.Text(id)]
}

// stepLoop returns the innermost loop around id, in its function, that
// runs once per training or evaluation step: it back-propagates, steps
// an optimizer, computes a loss, or iterates a data loader. A loop that
// only runs a model (sampling, decoding) is not one.
func stepLoop(m *analyzer.Model, id analyzer.NodeID) analyzer.NodeID {
	f := m.File
	for l := m.EnclosingLoop(id); l != analyzer.NoNode; l = m.EnclosingLoop(l) {
		if k := f.Kind(l); k != analyzer.KindForStatement && k != analyzer.KindWhileStatement {
			continue
		}
		if a := m.Loop(l); a.Backward || a.Loss || a.Batches {
			return l
		}
	}
	return analyzer.NoNode
}

// statementOf returns the statement that holds id: the nearest ancestor
// whose parent is a block or the module.
func statementOf(f *analyzer.File, id analyzer.NodeID) analyzer.NodeID {
	for n := id; n != analyzer.NoNode; n = f.Parent(n) {
		if p := f.Parent(n); p == analyzer.NoNode || f.Kind(p) == analyzer.KindBlock || f.Kind(p) == analyzer.KindModule {
			return n
		}
	}
	return id
}

// decidesStop reports whether the value read decides a stop: the read is
// in the condition of an if whose branch leaves the iteration, of a
// while, or of an assert; or its value, assigned to a name, is tested so
// later in the loop; or it is handed to a scheduler's step. An if that
// saves a checkpoint, or sets names that a later test of the loop stops
// on (early stopping's `if loss < best: best = loss; wait = 0`), decides
// too.
func decidesStop(m *analyzer.Model, id, stmt, loop analyzer.NodeID) bool {
	f := m.File
	if k := f.Kind(id); k == analyzer.KindIfStatement || k == analyzer.KindElifClause {
		return decidingIf(m, id, loop)
	}
	for n, child := f.Parent(id), id; n != analyzer.NoNode && n != loop; child, n = n, f.Parent(n) {
		switch f.Kind(n) {
		case analyzer.KindIfStatement, analyzer.KindElifClause:
			if f.N(child).Field == analyzer.FieldCondition && decidingIf(m, n, loop) {
				return true
			}
		case analyzer.KindWhileStatement:
			if f.N(child).Field == analyzer.FieldCondition {
				return true
			}
		case analyzer.KindAssertStatement:
			return true
		case analyzer.KindCall:
			if m.MethodName(n) == "step" {
				return true
			}
		}
	}
	name := assignedName(f, stmt)
	names := map[string]bool{name: true}
	return name != "" && (whileTests(f, loop, names) || testedLater(m, loop, stmt, names))
}

// decidingIf reports whether an if's outcome is needed on the host now:
// its branch leaves the iteration, or one of its branches saves a
// checkpoint or sets a name that a later test of the loop stops on.
func decidingIf(m *analyzer.Model, n, loop analyzer.NodeID) bool {
	f := m.File
	if leavesIteration(m, n) {
		return true
	}
	saves := false
	names := map[string]bool{}
	f.Walk(n, func(c analyzer.NodeID) {
		switch f.Kind(c) {
		case analyzer.KindCall:
			saves = saves || strings.Contains(strings.ToLower(lastIdent(f, f.Field(c, analyzer.FieldFunction))), "save")
		case analyzer.KindAssignment, analyzer.KindAugmentedAssignment:
			if l := f.Field(c, analyzer.FieldLeft); f.Kind(l) == analyzer.KindIdentifier {
				names[f.Text(l)] = true
			}
		}
	})
	if k := f.Kind(n); k == analyzer.KindElifClause {
		n = f.Parent(n)
	}
	return saves || len(names) > 0 && testedLater(m, loop, n, names)
}

// testedLater reports whether an if or while of the loop's body, after
// node after, tests one of names and stops on it: the while, or an if
// whose branch leaves the iteration.
func testedLater(m *analyzer.Model, loop, after analyzer.NodeID, names map[string]bool) bool {
	f := m.File
	stop := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(n analyzer.NodeID) {
		if stop || f.N(n).Start < f.N(after).End {
			return
		}
		k := f.Kind(n)
		if k != analyzer.KindIfStatement && k != analyzer.KindElifClause && k != analyzer.KindWhileStatement {
			return
		}
		stop = readsName(f, f.Field(n, analyzer.FieldCondition), names) && (k == analyzer.KindWhileStatement || leavesIteration(m, n))
	})
	return stop
}

// whileTests reports whether loop is a while loop whose own condition
// reads one of names: `while value < 0.99:` after `value = out.item()`
// in its body needs the value on the host to decide whether to go on.
func whileTests(f *analyzer.File, loop analyzer.NodeID, names map[string]bool) bool {
	return f.Kind(loop) == analyzer.KindWhileStatement && readsName(f, f.Field(loop, analyzer.FieldCondition), names)
}

// readsName reports whether expression e reads one of names.
func readsName(f *analyzer.File, e analyzer.NodeID, names map[string]bool) bool {
	reads := false
	f.Walk(e, func(c analyzer.NodeID) {
		reads = reads || f.Kind(c) == analyzer.KindIdentifier && names[f.Text(c)]
	})
	return reads
}

// leavesIteration reports whether an if's own branch (not its elif or
// else clauses) breaks, continues, returns, raises or exits.
func leavesIteration(m *analyzer.Model, branch analyzer.NodeID) bool {
	f := m.File
	leaves := false
	f.Walk(f.Field(branch, analyzer.FieldConsequence), func(n analyzer.NodeID) {
		switch f.Kind(n) {
		case analyzer.KindBreakStatement, analyzer.KindContinueStatement, analyzer.KindReturnStatement,
			analyzer.KindRaiseStatement:
			leaves = true
		case analyzer.KindCall:
			leaves = leaves || exitCall(m, n)
		}
	})
	return leaves
}

// assignedName is the name a statement `name = ...` binds, or "".
func assignedName(f *analyzer.File, stmt analyzer.NodeID) string {
	if f.Kind(stmt) == analyzer.KindExpressionStatement {
		stmt = f.FirstChild(stmt)
	}
	if f.Kind(stmt) != analyzer.KindAssignment {
		return ""
	}
	left := f.Field(stmt, analyzer.FieldLeft)
	if f.Kind(left) != analyzer.KindIdentifier {
		return ""
	}
	return f.Text(left)
}

// loopWaitsAnyway reports whether every iteration of loop already waits
// for the GPU: it steps a GradScaler, whose step reads its inf check on
// the host, moves a model's outputs to the host, or reads a value that
// decides a stop. Another read there costs little.
func loopWaitsAnyway(m *analyzer.Model, loop analyzer.NodeID) bool {
	return m.Memo(waitsKey{loop}, func() any {
		f := m.File
		waits := false
		f.Walk(f.Field(loop, analyzer.FieldBody), func(n analyzer.NodeID) {
			if waits || m.EnclosingFunction(n) != m.EnclosingFunction(loop) || onSelectedIterations(m, loop, n) {
				return
			}
			switch f.Kind(n) {
			case analyzer.KindIfStatement, analyzer.KindElifClause:
				cond := f.Unparen(f.Field(n, analyzer.FieldCondition))
				waits = truthOfTensor(m, cond) && deviceTensor(m, cond, 0) && decidingIf(m, n, loop)
				return
			case analyzer.KindCall:
			default:
				return
			}
			if h := m.StepsReadingHost(n); h != nil && h.HostRead != nil && everyIteration(f, n, loop) {
				// A helper that reads a tensor on the host: the wait is
				// there, where this rule's advice does not reach.
				waits = true
				return
			}
			if m.CallName(n) == "torch.cuda.synchronize" {
				// Only when every iteration does: `if args.sync_step:` is
				// a choice of the run's.
				waits = everyIteration(f, n, loop)
				return
			}
			switch meth := m.MethodName(n); meth {
			case "step":
				recv := strings.ToLower(lastIdent(f, m.Receiver(n)))
				waits = strings.Contains(recv, "scaler")
			case "cpu", "numpy", "tolist":
				if !scalarTensor(m, m.Receiver(n), 0) {
					waits = deviceTensor(m, m.Receiver(n), 0)
					return
				}
			}
			if v, _ := hostRead(m, n); !waits && v != analyzer.NoNode && deviceTensor(m, v, 0) {
				waits = decidesStop(m, n, statementOf(f, n), loop)
			}
		})
		return waits
	}).(bool)
}

type waitsKey struct{ loop analyzer.NodeID }

// lastIdent is the last identifier of a name or attribute chain.
func lastIdent(f *analyzer.File, id analyzer.NodeID) string {
	switch f.Kind(id) {
	case analyzer.KindIdentifier:
		return f.Text(id)
	case analyzer.KindAttribute:
		return f.Text(f.Field(id, analyzer.FieldAttribute))
	}
	return ""
}

// syncAdvice says what to do instead, from how the value read is used.
func syncAdvice(m *analyzer.Model, id, stmt, value analyzer.NodeID) string {
	f := m.File
	inner := stmt
	if f.Kind(inner) == analyzer.KindExpressionStatement {
		inner = f.FirstChild(inner)
	}
	tensor := strings.Join(strings.Fields(f.Text(value)), " ")
	if m.CarriesGraph(value) {
		tensor += ".detach()"
	}
	if len(tensor) > 40 {
		// Advice that quotes a cut expression reads as code that does
		// not parse: name the value instead.
		tensor = "the value"
	}
	if f.Kind(inner) == analyzer.KindAugmentedAssignment && f.Contains(f.Field(inner, analyzer.FieldRight), id) &&
		f.TextIs(f.Field(inner, analyzer.FieldOperator), "+=") && f.Kind(id) == analyzer.KindCall {
		return fmt.Sprintf("accumulate %s on the GPU and call `.item()` once after the loop", quoted(tensor))
	}
	if f.Kind(inner) == analyzer.KindCall && m.MethodName(inner) == "append" {
		return fmt.Sprintf("keep %s and convert once after the loop, or read it every k steps (`if step %% k == 0:`)", quoted(tensor))
	}
	if f.Kind(id) != analyzer.KindCall {
		return "test it every k steps (`if step % k == 0:`) or once after the loop"
	}
	return "read it every k steps (`if step % k == 0:`) or once after the loop"
}

// ifCode names an if statement's condition in a message: `if c:`, or
// words where c is too long to quote.
func ifCode(m *analyzer.Model, cond analyzer.NodeID) string {
	if c := code(m, cond, 30, ""); c != "" && !strings.Contains(c, "(...)") {
		return "`if " + strings.Trim(c, "`") + ":`"
	}
	return "the `if` on a GPU tensor"
}

// quoted puts code in backquotes, and leaves "the value" as words.
func quoted(code string) string {
	if code == "the value" {
		return code
	}
	return "`" + code + "`"
}

// everyIteration reports whether a statement of loop's body runs on
// every iteration: under no condition but a test of the device (`if
// device.type == "cuda":`), which is true for a whole run.
func everyIteration(f *analyzer.File, id, loop analyzer.NodeID) bool {
	body := f.Field(loop, analyzer.FieldBody)
	for n := f.Parent(id); n != analyzer.NoNode && n != body; n = f.Parent(n) {
		switch f.Kind(n) {
		case analyzer.KindIfStatement:
			if c := f.Text(f.Field(n, analyzer.FieldCondition)); !strings.Contains(c, "cuda") && !strings.Contains(c, "device") {
				return false
			}
		case analyzer.KindElifClause, analyzer.KindElseClause, analyzer.KindForStatement, analyzer.KindWhileStatement,
			analyzer.KindTryStatement, analyzer.KindExceptClause, analyzer.KindMatchStatement,
			analyzer.KindConditionalExpression, analyzer.KindBooleanOperator:
			return false
		}
	}
	return true
}
