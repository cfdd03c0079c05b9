package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// DeprecatedCudaAmp is TL401.
var DeprecatedCudaAmp = &analyzer.Rule{
	Code:      "TL401",
	Name:      "deprecated-cuda-amp",
	Summary:   "A deprecated `torch.cuda.amp` entry point is used",
	Severity:  analyzer.SeverityWarning,
	Precision: "very-high",
	Tags:      []string{"deprecated", "amp"},
	Kinds:     []analyzer.Kind{analyzer.KindCall, analyzer.KindDecorator},
	Check:     checkDeprecatedCudaAmp,
	Doc: `## What it does
Checks for uses of ` + "`torch.cuda.amp.autocast`" + `, ` + "`torch.cuda.amp.GradScaler`" + `,
` + "`torch.cuda.amp.custom_fwd`" + ` and ` + "`torch.cuda.amp.custom_bwd`" + `, however they are
imported (` + "`from torch.cuda.amp import autocast`" + ` included).

## Why is this bad?
PyTorch deprecated the device-specific AMP entry points in favour of the
device-generic ones in ` + "`torch.amp`" + `; every call emits a ` + "`FutureWarning`" + `
and they will be removed. The replacements take the device type as their
first argument.

## Example
` + "```python" + `
scaler = torch.cuda.amp.GradScaler()
with torch.cuda.amp.autocast(dtype=torch.bfloat16):
    loss = model(x)
` + "```" + `

## Use instead
` + "```python" + `
scaler = torch.amp.GradScaler("cuda")
with torch.amp.autocast("cuda", dtype=torch.bfloat16):
    loss = model(x)
` + "```" + `

## Known problems
` + "`torch.cpu.amp`" + ` is deprecated too, but is not reported: this rule is about
the CUDA entry points. A name imported from ` + "`torch.cuda.amp`" + ` is reported
where it is used, not at the import.

## References
- [Automatic Mixed Precision package - torch.amp](https://pytorch.org/docs/stable/amp.html)
`,
}

// cudaAmpReplacements maps deprecated names to their torch.amp forms.
var cudaAmpReplacements = map[string]string{
	"torch.cuda.amp.autocast":                 `torch.amp.autocast("cuda", ...)`,
	"torch.cuda.amp.autocast_mode.autocast":   `torch.amp.autocast("cuda", ...)`,
	"torch.cuda.amp.GradScaler":               `torch.amp.GradScaler("cuda", ...)`,
	"torch.cuda.amp.grad_scaler.GradScaler":   `torch.amp.GradScaler("cuda", ...)`,
	"torch.cuda.amp.custom_fwd":               `torch.amp.custom_fwd(device_type="cuda", ...)`,
	"torch.cuda.amp.custom_bwd":               `torch.amp.custom_bwd(device_type="cuda")`,
	"torch.cuda.amp.autocast_mode.custom_fwd": `torch.amp.custom_fwd(device_type="cuda", ...)`,
	"torch.cuda.amp.autocast_mode.custom_bwd": `torch.amp.custom_bwd(device_type="cuda")`,
}

func checkDeprecatedCudaAmp(p *analyzer.Pass, n analyzer.NodeID) {
	f, m := p.File, p.Model
	var target analyzer.NodeID
	if f.Kind(n) == analyzer.KindDecorator {
		// A bare decorator (@custom_bwd); a called one is seen as a call.
		target = f.FirstChild(n)
		if f.Kind(target) == analyzer.KindCall {
			return
		}
	} else {
		target = f.Field(n, analyzer.FieldFunction)
	}
	q := m.QualifiedName(target)
	use, ok := cudaAmpReplacements[q]
	if !ok || versionFallback(m, n) {
		return
	}
	p.Report(target, fmt.Sprintf("`%s` is deprecated and warns on every call; use `%s`", q, use))
}

// versionFallback reports whether n is the old-PyTorch branch of a
// conditional expression whose other branch already uses torch.amp
// (`torch.amp.GradScaler(...) if TORCH_2_4 else torch.cuda.amp.GradScaler()`).
func versionFallback(m *analyzer.Model, n analyzer.NodeID) bool {
	f := m.File
	for c := n; c != analyzer.NoNode; c = f.Parent(c) {
		p := f.Parent(c)
		if f.Kind(p) != analyzer.KindConditionalExpression {
			continue
		}
		found := false
		f.Children(p, func(branch analyzer.NodeID) bool {
			if branch == c {
				return true
			}
			f.Walk(branch, func(id analyzer.NodeID) {
				if k := f.Kind(id); (k == analyzer.KindAttribute || k == analyzer.KindIdentifier) && strings.HasPrefix(m.QualifiedName(id), "torch.amp.") {
					found = true
				}
			})
			return !found
		})
		return found
	}
	return false
}
