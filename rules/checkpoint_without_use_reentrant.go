package rules

import (
	"fmt"

	"github.com/torchlint/torchlint/analyzer"
)

// CheckpointWithoutUseReentrant is TL402.
var CheckpointWithoutUseReentrant = &analyzer.Rule{
	Code:      "TL402",
	Name:      "checkpoint-without-use-reentrant",
	Summary:   "Activation checkpointing is called without an explicit `use_reentrant`",
	Severity:  analyzer.SeverityWarning,
	Precision: "very-high",
	Tags:      []string{"memory", "autograd"},
	Fixable:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkCheckpointWithoutUseReentrant,
	Doc: `## What it does
Checks for calls of ` + "`torch.utils.checkpoint.checkpoint`" + ` and
` + "`torch.utils.checkpoint.checkpoint_sequential`" + ` that do not pass
` + "`use_reentrant`" + `.

## Why is this bad?
Activation checkpointing trades compute for memory by recomputing
activations in the backward pass. Without an explicit ` + "`use_reentrant`" + `,
PyTorch warns (a ` + "`UserWarning`" + `, which Python's default filter shows once
per process; checked with PyTorch 2.11.0), and the default, reentrant variant does not
work with ` + "`torch.autograd.grad`" + `, ignores inputs that do not require grad
(so a checkpointed block whose inputs are frozen gets no gradients), and
does not support keyword arguments. ` + "`use_reentrant=False`" + ` is the variant
PyTorch recommends.

## Example
` + "```python" + `
from torch.utils.checkpoint import checkpoint

def forward(self, x):
    return checkpoint(self.block, x)
` + "```" + `

## Use instead
` + "```python" + `
def forward(self, x):
    return checkpoint(self.block, x, use_reentrant=False)
` + "```" + `

## Fix safety
The fix passes ` + "`use_reentrant=False`" + `. It is unsafe: the non-reentrant
variant differs in corner cases (it supports keyword arguments and inputs
that do not require grad, and checks that the recomputation matches), so
code that relied on the old behaviour may change.

## Known problems
A call that passes ` + "`**kwargs`" + ` is not reported, since the keyword may be in
them. Switching to ` + "`use_reentrant=False`" + ` can change behaviour for code
that relied on the reentrant variant's quirks.

## References
- [torch.utils.checkpoint](https://pytorch.org/docs/stable/checkpoint.html)
`,
}

func checkCheckpointWithoutUseReentrant(p *analyzer.Pass, call analyzer.NodeID) {
	m := p.Model
	switch q := m.CallName(call); q {
	case "torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential":
		if m.Keyword(call, "use_reentrant") != analyzer.NoNode || hasKwargsSplat(p.File, call) {
			return
		}
		var fix *analyzer.Fix
		if e, ok := appendArgument(p.File, call, "use_reentrant=False"); ok {
			fix = &analyzer.Fix{Message: "Pass `use_reentrant=False`", Applicability: analyzer.Unsafe, Edits: []analyzer.Edit{e}}
		}
		p.ReportFix(call, fmt.Sprintf("`%s` without `use_reentrant` uses the reentrant variant, "+
			"which ignores inputs that do not require grad and breaks `torch.autograd.grad`; pass `use_reentrant=False`", q), fix)
	}
}

// hasKwargsSplat reports whether a call passes `**kwargs`.
func hasKwargsSplat(f *analyzer.File, call analyzer.NodeID) bool {
	found := false
	f.Children(f.Field(call, analyzer.FieldArguments), func(c analyzer.NodeID) bool {
		found = f.Kind(c) == analyzer.KindDictionarySplat
		return !found
	})
	return found
}
