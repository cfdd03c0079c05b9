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
Checks for ` + "`torch.cuda.empty_cache()`" + ` (however imported) inside a loop that
runs once per step or per batch: a loop over a data loader, or one whose
body runs a forward pass, a loss, a backward pass or an optimizer step.

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
Calling ` + "`empty_cache()`" + ` once at a phase boundary (between training and
evaluation, between models or experiments) is not reported.

A helper function, in this file or another of the project, that calls
` + "`empty_cache()`" + ` every time it runs is reported where a per-step loop
calls it, with the helper's call as a related location.

## Known problems
A loop is judged per-step from its body and its iterable in this
function only. A helper is followed through the project's functions,
not through methods called on objects (` + "`trainer.step()`" + `).

## References
- [CUDA semantics: memory management](https://pytorch.org/docs/stable/notes/cuda.html#memory-management)
- [torch.cuda.empty_cache](https://pytorch.org/docs/stable/generated/torch.cuda.empty_cache.html)
`,
}

func checkEmptyCacheInLoop(p *analyzer.Pass, call analyzer.NodeID) {
	m := p.Model
	var helper *analyzer.Object
	if m.CallName(call) != "torch.cuda.empty_cache" {
		if helper = m.Helper(call); helper == nil || helper.EmptyCache == nil {
			return
		}
	}
	loop := m.EnclosingLoop(call)
	if loop == analyzer.NoNode || !m.Loop(loop).PerStep() || loopsOverModels(m, loop) || onSelectedIterations(m, loop, call) {
		return
	}
	const cost = ": it cannot free memory that live tensors hold, " +
		"only cached blocks the next step would reuse, so each step pays for cudaFree/cudaMalloc again; " +
		"remove it, or call it once between phases"
	if helper == nil {
		p.Report(call, "`torch.cuda.empty_cache()` runs on every step of this loop"+cost)
		return
	}
	p.ReportRelated(call, fmt.Sprintf("`%s` runs `torch.cuda.empty_cache()` on every step of this loop, through `%s` (%s)%s",
		analyzer.Snippet(p.File.Text(call), 40), helper.Site.Text, helper.EmptyCache.Where(), cost),
		analyzer.RelatedSite(helper.EmptyCache, "`torch.cuda.empty_cache()` called by `"+helper.Site.Text+"`"))
}

// onSelectedIterations reports whether call runs only on some iterations
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

// loopsOverModels reports whether each iteration builds or loads another
// model: a loop over models or experiments, where emptying the cache
// between iterations is a phase boundary.
func loopsOverModels(m *analyzer.Model, loop analyzer.NodeID) bool {
	f := m.File
	over := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if over {
			return
		}
		switch f.Kind(id) {
		case analyzer.KindAssignment:
			left := f.Field(id, analyzer.FieldLeft)
			if f.Kind(left) == analyzer.KindIdentifier && m.ClassifyCallee(left) == analyzer.CallableModel {
				v := f.Unparen(f.Field(id, analyzer.FieldRight))
				over = f.Kind(v) == analyzer.KindCall && m.Receiver(v) == analyzer.NoNode || m.MethodName(v) == "from_pretrained"
			}
		case analyzer.KindDeleteStatement:
			f.Walk(id, func(c analyzer.NodeID) {
				if f.Kind(c) == analyzer.KindIdentifier && (m.ClassifyCallee(c) == analyzer.CallableModel || isPipelineName(f.Text(c))) {
					over = true
				}
			})
		}
	})
	if over {
		return true
	}
	// `for model in models:` / `for name, model in zoo.items():`
	if f.Kind(loop) == analyzer.KindForStatement {
		f.Walk(f.Field(loop, analyzer.FieldLeft), func(id analyzer.NodeID) {
			if f.Kind(id) == analyzer.KindIdentifier && m.ClassifyCallee(id) == analyzer.CallableModel {
				over = true
			}
		})
	}
	return over
}

// isPipelineName reports whether a name reads as an inference pipeline
// (diffusers, transformers), which holds whole models: deleting one is a
// phase boundary.
func isPipelineName(name string) bool {
	l := strings.ToLower(name)
	return l == "pipe" || strings.HasSuffix(l, "pipeline") || strings.HasSuffix(l, "_pipe")
}
