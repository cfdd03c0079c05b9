package rules

import "github.com/torchlint/torchlint/analyzer"

// TorchLoadWithoutMapLocation is TL403.
var TorchLoadWithoutMapLocation = &analyzer.Rule{
	Code:      "TL403",
	Name:      "torch-load-without-map-location",
	Summary:   "`torch.load` is called without `map_location`",
	Severity:  analyzer.SeverityWarning,
	Precision: "high",
	Tags:      []string{"memory", "cuda"},
	Fixable:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkTorchLoadWithoutMapLocation,
	Doc: `## What it does
Checks for ` + "`torch.load(...)`" + ` calls that pass no ` + "`map_location`" + `, neither as a
keyword nor as the second positional argument.

## Why is this bad?
Without ` + "`map_location`" + `, tensors are restored onto the device they were saved
from. A checkpoint saved from ` + "`cuda:0`" + ` is loaded onto GPU 0 in every process
of a multi-GPU job (all ranks allocate on the same card, often before the
model is moved), and fails on a machine without a GPU. Loading to the CPU
first and moving the weights with ` + "`load_state_dict`" + ` or ` + "`.to(device)`" + ` keeps
each process's memory where it belongs.

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, median of 5 runs ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL403.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl403_load.py)):
in a fresh process, loading a checkpoint saved from ` + "`cuda:0`" + ` (a
ResNet-50's weights and Adam state, 292.7 MiB) without ` + "`map_location`" + `
initialised CUDA and allocated 296 MiB on GPU 0, and the memory in use on
the GPU grew by 841 MiB, the CUDA context included. With
` + "`map_location=\"cpu\"`" + `, CUDA was not initialised and the GPU's memory in use
grew by 0 MiB.

## Example
` + "```python" + `
state = torch.load("checkpoint.pt")
model.load_state_dict(state["model"])
` + "```" + `

## Use instead
` + "```python" + `
state = torch.load("checkpoint.pt", map_location="cpu")
model.load_state_dict(state["model"])
` + "```" + `

## Fix safety
The fix adds ` + "`map_location=\"cpu\"`" + `. It is unsafe: code that relied on the
tensors coming back on the GPU now gets CPU tensors and must move them.

## Known problems
A call that passes ` + "`**kwargs`" + ` is not reported, since ` + "`map_location`" + ` may be
among them, nor one that reads an ` + "`io.BytesIO`" + ` (an object serialized in
the same process). Checkpoints that hold only CPU tensors are harmless
either way.

## References
- [torch.load](https://pytorch.org/docs/stable/generated/torch.load.html)
- [Saving and loading models across devices](https://pytorch.org/tutorials/beginner/saving_loading_models.html#saving-loading-model-across-devices)
`,
}

func checkTorchLoadWithoutMapLocation(p *analyzer.Pass, call analyzer.NodeID) {
	m := p.Model
	if m.CallName(call) != "torch.load" {
		return
	}
	args := m.Args(call)
	if m.Keyword(call, "map_location") != analyzer.NoNode || len(args) >= 2 || hasKwargsSplat(p.File, call) {
		return
	}
	if len(args) == 1 && inMemoryBuffer(m, args[0]) {
		return // a round trip through memory in this process, not a checkpoint
	}
	msg := "`torch.load` without `map_location` restores tensors onto the device they were saved from " +
		"(GPU 0 in every process, or an error without a GPU); pass `map_location=\"cpu\"` or the target device"
	var fix *analyzer.Fix
	if e, ok := appendArgument(p.File, call, `map_location="cpu"`); ok {
		// Unsafe: code that relies on tensors coming back on the GPU
		// would now get CPU tensors.
		fix = &analyzer.Fix{Message: "Add `map_location=\"cpu\"`", Applicability: analyzer.Unsafe, Edits: []analyzer.Edit{e}}
	}
	p.ReportFix(call, msg, fix)
}

// inMemoryBuffer reports whether e is an io.BytesIO, directly or through
// the name it was assigned to.
func inMemoryBuffer(m *analyzer.Model, e analyzer.NodeID) bool {
	f := m.File
	e = f.Unparen(e)
	if v := m.AssignedValue(e); v != analyzer.NoNode {
		e = f.Unparen(v)
	}
	return f.Kind(e) == analyzer.KindCall && m.CallName(e) == "io.BytesIO"
}
