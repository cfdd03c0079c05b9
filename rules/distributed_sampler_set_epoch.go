package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// DistributedSamplerSetEpoch is TL505.
var DistributedSamplerSetEpoch = &analyzer.Rule{
	Code:      "TL505",
	Name:      "distributed-sampler-set-epoch",
	Summary:   "A DistributedSampler never told the epoch, or a DistributedDataParallel model fed by a loader that shuffles without one",
	Severity:  analyzer.SeverityWarning,
	Precision: "medium",
	Preview:   true,
	Tags:      []string{"correctness", "distributed"},
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkDistributedSampler,
	Doc: `## What it does
Checks for two mistakes in data-parallel training:

- a ` + "`DistributedSampler`" + ` that shuffles, whose loader is iterated in an
  epoch loop of the same function that never calls ` + "`set_epoch(epoch)`" + `
  (on the sampler, or on ` + "`loader.sampler`" + `);
- a ` + "`DataLoader(..., shuffle=True)`" + ` with no ` + "`sampler`" + `, in a function that wraps
  a model in ` + "`DistributedDataParallel`" + `.

## Why is this bad?
` + "`DistributedSampler`" + ` shuffles with a generator seeded by ` + "`seed + epoch`" + `,
and its epoch is 0 until ` + "`set_epoch`" + ` changes it: without the call, every
epoch visits the samples in the same order, which is no shuffling
between epochs at all.

Without a ` + "`DistributedSampler`" + `, each process iterates the whole dataset.
With the same seed on every rank (the usual ` + "`torch.manual_seed(0)`" + `),
they draw the same batches, and the averaged gradient is that of one
rank's batch: every GPU but one does no useful work. With different
seeds, an epoch processes the dataset once per rank.

Measured: on an NVIDIA H200 with PyTorch 2.11.0, 5 seeds each ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL505.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl505_set_epoch.py)):
two data-parallel ranks were simulated in one process, each with a
` + "`DistributedSampler(dataset, num_replicas=2, rank=r)`" + ` and its own
loader, built without a process group, and each step back-propagated the
mean of the two ranks' losses, the gradient DDP averages. A small CNN
trained so for 15 epochs on a synthetic ten-class image task ended at
92.5 % held-out accuracy without ` + "`set_epoch`" + ` (90.5 to 94.0 over the
seeds) against 92.7 % (89.8 to 93.8) with it; a second run measured 92.6
% against 92.1 %. The same order every epoch cost no accuracy measurable
beyond the spread between seeds here: the first epoch, the same in both
by construction, already differed by as much (91.0 % against 91.2 %),
from the nondeterminism of the GPU's kernels. A
` + "`DataLoader(shuffle=True)`" + ` without a sampler under DDP, the rule's
second pattern, was not measured.

## Example
` + "```python" + `
sampler = DistributedSampler(dataset)
loader = DataLoader(dataset, batch_size=32, sampler=sampler)
for epoch in range(epochs):
    for x, y in loader:
        train_step(ddp_model, x, y)
` + "```" + `

## Use instead
` + "```python" + `
sampler = DistributedSampler(dataset)
loader = DataLoader(dataset, batch_size=32, sampler=sampler)
for epoch in range(epochs):
    sampler.set_epoch(epoch)
    for x, y in loader:
        train_step(ddp_model, x, y)
` + "```" + `

Not reported:
- ` + "`DistributedSampler(..., shuffle=False)`" + `, for evaluation;
- an epoch loop that hands the loader or the sampler to a function, which
  may call ` + "`set_epoch`" + ` itself;
- a loader whose dataset is split per process already: its expression,
  or that of a name it is built from in the function, names the rank,
  the world size, a shard or webdataset's ` + "`split_by_node`" + `
  (` + "`Subset(ds, indices[rank::world_size])`" + `);
- a loader made where the condition of the ` + "`if`" + ` that wraps the model in
  DDP does not hold: the other branch of that ` + "`if`" + `, or of another ` + "`if`" + ` on
  the same condition (` + "`if args.distributed: ... else: DataLoader(...)`" + `).

## Known problems
Only a sampler, a loader and a training loop in the same function are
followed (through ` + "`tqdm`" + ` and ` + "`enumerate`" + ` wrappers bound to a name); a
loader handed to another function, or made at module level, is not.
Only a loader that a loop of the function trains on counts: an
evaluation's order does not matter. A loader made under an ` + "`if`" + ` on the
rank (` + "`if rank == 0:`" + `) is not reported. Two conditions are the same only
when their text is (` + "`if args.distributed`" + ` and ` + "`if world_size > 1`" + ` are
not). A dataset is taken to be split per process by the words its
expression uses, so one that is an ` + "`IterableDataset`" + ` sharding itself by
rank inside its class is not recognised, and one that merely mentions a
shard is taken to be split. Where the epoch loop names no epoch number
(` + "`for _ in range(epochs)`" + `), the advice asks for a count of the epochs
instead of naming a variable.

This rule is in preview, so it is off by default: on an independent
sample of 57 data-parallel training scripts it reported 7 findings, 3
of them right. The four wrong ones (evaluation loaders, a loader in the
branch without DDP) are silent now, but the fixed rule has not yet been
read on code it was not fixed on. Select it by its code
(` + "`--select TL505`" + `, or ` + "`extend-select = [\"TL505\"]`" + ` in ` + "`[tool.torchlint]`" + `).

## References
- [torch.utils.data.distributed.DistributedSampler](https://pytorch.org/docs/stable/data.html#torch.utils.data.distributed.DistributedSampler)
- [Getting started with distributed data parallel](https://pytorch.org/tutorials/intermediate/ddp_tutorial.html)
`,
}

var distributedSamplers = map[string]bool{
	"torch.utils.data.distributed.DistributedSampler": true,
	"torch.utils.data.DistributedSampler":             true,
}

var ddpClasses = map[string]bool{
	"torch.nn.parallel.DistributedDataParallel":             true,
	"torch.nn.DistributedDataParallel":                      true,
	"torch.nn.parallel.distributed.DistributedDataParallel": true,
}

func checkDistributedSampler(p *analyzer.Pass, call analyzer.NodeID) {
	switch q := p.Model.CallName(call); {
	case distributedSamplers[q]:
		checkSetEpoch(p, call)
	case isDataLoader(q):
		checkShuffleWithoutSampler(p, call)
	}
}

// checkSetEpoch reports a shuffling DistributedSampler whose loader is
// iterated every epoch with no set_epoch call.
func checkSetEpoch(p *analyzer.Pass, call analyzer.NodeID) {
	m, f := p.Model, p.File
	if sh := m.Keyword(call, "shuffle"); sh != analyzer.NoNode && !f.TextIs(f.Unparen(sh), "True") {
		return
	}
	fn := m.ScopeNode(call)
	sampler := boundName(f, call) // "" when passed inline
	var loaders []string
	f.Walk(fn, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != fn || !isDataLoader(m.CallName(id)) {
			return
		}
		s := m.Keyword(id, "sampler")
		if s == analyzer.NoNode {
			s = m.Keyword(id, "batch_sampler")
		}
		if s == analyzer.NoNode || f.Unparen(s) != call && (sampler == "" || !mentions(f, s, sampler)) {
			return
		}
		if name := boundName(f, id); name != "" {
			loaders = append(loaders, name)
		}
	})
	if len(loaders) == 0 || anySetEpoch(m, fn) {
		return
	}
	wrapped := wrappers(m, fn, loaders)
	for w := range wrapped {
		loaders = append(loaders, w)
	}
	epoch, inner := epochLoop(m, fn, loaders)
	if epoch == analyzer.NoNode || handsOn(m, epoch, append(loaders, sampler)) {
		return
	}
	target := sampler
	if target == "" {
		if l, ok := wrapped[inner]; ok {
			inner = l // `bar = tqdm(loader)`: the sampler is the loader's
		}
		target = inner + ".sampler"
	}
	var advice string
	if v := epochVariable(f, epoch); v != "" {
		advice = fmt.Sprintf("call `%s.set_epoch(%s)` at the start of each epoch", target, v)
	} else {
		advice = fmt.Sprintf("call `%s.set_epoch` at the start of each epoch with the epoch's number "+
			"(this loop does not name it: count the epochs)", target)
	}
	p.Report(call, fmt.Sprintf("this DistributedSampler shuffles with the seed `seed + epoch`, but the epoch loop at line %d "+
		"never calls `set_epoch`, so every epoch visits the samples in the same order; %s",
		f.Position(f.N(epoch).Start).Line, advice))
}

// epochVariable returns the name a for loop binds to the epoch's number
// (`for epoch in range(n)`, `for i, _ in enumerate(...)`), or "" when it
// binds none, or only `_`.
func epochVariable(f *analyzer.File, loop analyzer.NodeID) string {
	if f.Kind(loop) != analyzer.KindForStatement {
		return ""
	}
	left := f.Unparen(f.Field(loop, analyzer.FieldLeft))
	if f.Kind(left) != analyzer.KindIdentifier || f.TextIs(left, "_") {
		return ""
	}
	right := f.Unparen(f.Field(loop, analyzer.FieldRight))
	if f.Kind(right) != analyzer.KindCall || !f.TextIs(f.Field(right, analyzer.FieldFunction), "range") {
		return ""
	}
	return f.Text(left)
}

// wrappers returns the names bound in fn to an iteration wrapper of a
// loader (`bar = tqdm(loader)`, `it = enumerate(loader)`): a loop over
// them iterates the loader.
func wrappers(m *analyzer.Model, fn analyzer.NodeID, loaders []string) map[string]string {
	f := m.File
	out := map[string]string{}
	f.Walk(fn, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != fn || !iterationCall(m, id) {
			return
		}
		name := boundName(f, id)
		if name == "" {
			return
		}
		for _, a := range m.Args(id) {
			for _, l := range loaders {
				if mentions(f, a, l) {
					out[name] = l
					return
				}
			}
		}
	})
	return out
}

// boundName returns the name a call is assigned to (`x = call`), or "".
func boundName(f *analyzer.File, call analyzer.NodeID) string {
	p := f.Parent(call)
	if f.Kind(p) != analyzer.KindAssignment || f.Field(p, analyzer.FieldRight) != call {
		return ""
	}
	left := f.Field(p, analyzer.FieldLeft)
	if k := f.Kind(left); k != analyzer.KindIdentifier && k != analyzer.KindAttribute {
		return ""
	}
	return compact(f.Text(left))
}

// anySetEpoch reports whether a function calls set_epoch on anything.
func anySetEpoch(m *analyzer.Model, fn analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(fn, func(id analyzer.NodeID) {
		found = found || f.Kind(id) == analyzer.KindCall && m.MethodName(id) == "set_epoch"
	})
	return found
}

// epochLoop returns a loop of fn whose body trains on one of the
// loaders in a nested loop, with the loader it iterates.
func epochLoop(m *analyzer.Model, fn analyzer.NodeID, loaders []string) (analyzer.NodeID, string) {
	epoch, inner := analyzer.NoNode, ""
	trainingLoops(m, fn, loaders, func(loop analyzer.NodeID, loader string) bool {
		if outer := m.EnclosingLoop(loop); outer != analyzer.NoNode && m.ScopeNode(outer) == fn {
			epoch, inner = outer, loader
			return false
		}
		return true
	})
	return epoch, inner
}

// trainingLoops calls yield, in source order until it returns false,
// with each for loop of fn that iterates one of the loaders and trains,
// and the loader it iterates: an evaluation's order does not matter.
func trainingLoops(m *analyzer.Model, fn analyzer.NodeID, loaders []string, yield func(loop analyzer.NodeID, loader string) bool) {
	f := m.File
	done := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if done || f.Kind(id) != analyzer.KindForStatement || m.ScopeNode(id) != fn {
			return
		}
		for _, l := range loaders {
			if mentions(f, f.Field(id, analyzer.FieldRight), l) && loopTrainingOf(m, id).trains {
				done = !yield(id, l)
				return
			}
		}
	})
}

// handsOn reports whether a loop passes any of the names to a call,
// which may set the epoch itself.
func handsOn(m *analyzer.Model, loop analyzer.NodeID, names []string) bool {
	f := m.File
	found := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || iterationCall(m, id) {
			return
		}
		for _, a := range argValues(f, id) {
			for _, n := range names {
				if n != "" && mentionsHanded(m, a, n) {
					found = true
				}
			}
		}
	})
	return found
}

// mentionsHanded reports whether expr mentions name other than inside an
// iteration call: `"{}".format(len(loader))` does not hand the loader on.
func mentionsHanded(m *analyzer.Model, expr analyzer.NodeID, name string) bool {
	f := m.File
	found := false
	f.Walk(expr, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindIdentifier && f.Kind(id) != analyzer.KindAttribute || !mentions(f, id, name) {
			return
		}
		for p := id; p != analyzer.NoNode && p != f.Parent(expr); p = f.Parent(p) {
			if f.Kind(p) == analyzer.KindCall && iterationCall(m, p) {
				return
			}
		}
		found = true
	})
	return found
}

// iterationCalls are the builtins and wrappers a loop iterates a loader
// through, which set no epoch.
var iterationCalls = map[string]bool{
	"enumerate": true, "zip": true, "iter": true, "next": true, "len": true, "list": true, "print": true,
	"tqdm": true, "tqdm.tqdm": true, "tqdm.auto.tqdm": true,
}

// iterationCall reports whether a call only iterates or measures what it
// is handed.
func iterationCall(m *analyzer.Model, call analyzer.NodeID) bool {
	return iterationCalls[m.CallName(call)]
}

// checkShuffleWithoutSampler reports a loader that shuffles with no
// sampler in a function that wraps a model in DistributedDataParallel.
func checkShuffleWithoutSampler(p *analyzer.Pass, call analyzer.NodeID) {
	m, f := p.Model, p.File
	sh := m.Keyword(call, "shuffle")
	if sh == analyzer.NoNode || !f.TextIs(f.Unparen(sh), "True") ||
		m.Keyword(call, "sampler") != analyzer.NoNode || m.Keyword(call, "batch_sampler") != analyzer.NoNode {
		return
	}
	data := m.Keyword(call, "dataset")
	if args := m.Args(call); len(args) > 0 {
		data = args[0]
	}
	fn := m.ScopeNode(call)
	if data == analyzer.NoNode || shardedByRank(m, data, 0) || onOneRank(f, call, fn) {
		return
	}
	ddp := analyzer.NoNode
	f.Walk(fn, func(id analyzer.NodeID) {
		if ddp == analyzer.NoNode && f.Kind(id) == analyzer.KindCall && m.ScopeNode(id) == fn && ddpClasses[m.CallName(id)] {
			ddp = id
		}
	})
	if ddp == analyzer.NoNode || analyzer.ExclusiveBranches(f, call, ddp) || oppositeBranches(f, call, ddp) ||
		!trainsOn(m, fn, boundName(f, call)) {
		return
	}
	p.Report(sh, fmt.Sprintf("this loader shuffles the whole dataset in every process of the DistributedDataParallel model "+
		"(line %d): each rank iterates all of it, and with the same seed on every rank they draw the same batches; "+
		"pass %s instead of `shuffle=True`", f.Position(f.N(ddp).Start).Line, samplerCode(m, data)))
}

// shardWords are what the expression of a dataset split per process
// mentions: the rank and the number of processes, a shard, or
// webdataset's split_by_node.
var shardWords = []string{"rank", "world", "num_replicas", "shard", "split_by_node", "nodesplitter"}

// shardedByRank reports whether a dataset's expression, or the values
// of the names it is built from in its function, split it per process
// (`Subset(ds, indices[rank::world_size])`, `wds.WebDataset(urls,
// nodesplitter=wds.split_by_node)`): each rank then iterates its own part.
func shardedByRank(m *analyzer.Model, data analyzer.NodeID, depth int) bool {
	f := m.File
	if depth > 4 {
		return false
	}
	text := strings.ToLower(f.Text(data))
	for _, w := range shardWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	found := false
	f.Walk(data, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindIdentifier {
			return
		}
		b := m.Resolve(id)
		if b == nil || b.Kind != analyzer.BindAssign || b.Value == analyzer.NoNode || f.Contains(b.Value, id) {
			return
		}
		found = shardedByRank(m, b.Value, depth+1)
	})
	return found
}

// oppositeBranches reports whether a and b run under if statements on the
// same condition, one where it holds and one where it does not (`if
// args.distributed: model = DDP(model)`, later `if not args.distributed:`
// or its else: a loader for one process).
func oppositeBranches(f *analyzer.File, a, b analyzer.NodeID) bool {
	ca, cb := branchConditions(f, a), branchConditions(f, b)
	for c, holds := range ca {
		if h, ok := cb[c]; ok && h != holds {
			return true
		}
	}
	return false
}

// branchConditions returns the conditions of the if statements around
// id, each with whether it holds where id runs.
func branchConditions(f *analyzer.File, id analyzer.NodeID) map[string]bool {
	out := map[string]bool{}
	for c, p := id, f.Parent(id); p != analyzer.NoNode; c, p = p, f.Parent(p) {
		if f.Kind(p) != analyzer.KindIfStatement || f.N(c).Field == analyzer.FieldCondition {
			continue
		}
		holds := f.N(c).Field == analyzer.FieldConsequence
		if !holds && f.Kind(c) != analyzer.KindElseClause {
			continue // an elif's branch: the first condition fails, but others hold
		}
		cond := f.Unparen(f.Field(p, analyzer.FieldCondition))
		for f.Kind(cond) == analyzer.KindNotOperator {
			cond, holds = f.Unparen(f.Field(cond, analyzer.FieldArgument)), !holds
		}
		out[compact(f.Text(cond))] = holds
	}
	return out
}

// trainsOn reports whether fn iterates the loader bound to name in a
// loop that trains: a loader handed elsewhere, or read only to evaluate,
// is not known to feed the DDP model's training.
func trainsOn(m *analyzer.Model, fn analyzer.NodeID, name string) bool {
	if name == "" {
		return false
	}
	loaders := []string{name}
	for w := range wrappers(m, fn, loaders) {
		loaders = append(loaders, w)
	}
	found := false
	trainingLoops(m, fn, loaders, func(analyzer.NodeID, string) bool {
		found = true
		return false
	})
	return found
}

// onOneRank reports whether call is made only in one process, under an
// if on the rank (`if rank == 0:`, `if accelerator.is_main_process:`):
// an evaluation loader of the main process.
func onOneRank(f *analyzer.File, call, fn analyzer.NodeID) bool {
	for n := f.Parent(call); n != analyzer.NoNode && n != fn; n = f.Parent(n) {
		if k := f.Kind(n); k != analyzer.KindIfStatement && k != analyzer.KindElifClause {
			continue
		}
		c := strings.ToLower(f.Text(f.Field(n, analyzer.FieldCondition)))
		if strings.Contains(c, "rank") || strings.Contains(c, "main_process") || strings.Contains(c, "is_master") {
			return true
		}
	}
	return false
}

// samplerCode is the sampler argument the advice gives: code to paste
// where the dataset's expression is short, words where it is not.
func samplerCode(m *analyzer.Model, data analyzer.NodeID) string {
	if c := code(m, data, 30, ""); c != "" && !strings.Contains(c, "(...)") && !strings.HasPrefix(c, "`.") {
		return "`sampler=DistributedSampler(" + strings.Trim(c, "`") + ")`"
	}
	return "a `DistributedSampler` of the dataset as `sampler=`"
}

func isDataLoader(q string) bool {
	return q == "torch.utils.data.DataLoader" || q == "torch.utils.data.dataloader.DataLoader"
}
