package rules

import "github.com/torchlint/torchlint/analyzer"

// TorchLoadWithoutMapLocationAnywhere is TL404: TL403's pattern where the
// code shows no harm.
var TorchLoadWithoutMapLocationAnywhere = &analyzer.Rule{
	Code:      "TL404",
	Name:      "torch-load-without-map-location-anywhere",
	Summary:   "`torch.load` is called without `map_location` where the code shows no harm",
	Severity:  analyzer.SeverityWarning,
	Precision: "medium",
	Tags:      []string{"memory", "cuda"},
	Fixable:   true,
	Preview:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkTorchLoadAnywhere,
	Doc: `## What it does
Off by default. Checks for ` + "`torch.load(...)`" + ` calls without ` + "`map_location`" + ` that
TL403 (` + "`torch-load-without-map-location`" + `) leaves alone because nothing in the
code shows the harm: no second process, no move to a device after the
load, no sign that the code also runs without CUDA. Select both to report
every such call: ` + "`--extend-select TL403,TL404`" + `.

## Why is this bad?
Without ` + "`map_location`" + `, tensors are restored onto the device they were saved
from. In a single-process script on the machine that saved the checkpoint
this costs nothing more than the load itself; the same code run by a
launcher with several processes, or on a machine without a GPU, puts every
copy on GPU 0 or fails. TL403 reports the calls where the code shows one
of these; this rule reports the others, for projects that want every load
to name its device.

` + loadMapLocationExample + `

## Known problems
Only the file of the call is read: a launcher or a ` + "`DistributedDataParallel`" + `
wrapper in another file of the project does not move the call to TL403.
Checkpoints that hold only CPU tensors are harmless either way.

## References
- [torch.load](https://pytorch.org/docs/stable/generated/torch.load.html)
- [Saving and loading models across devices](https://pytorch.org/tutorials/beginner/saving_loading_models.html#saving-loading-model-across-devices)
`,
}
