package rules

import (
	"bytes"
	"fmt"

	"github.com/torchlint/torchlint/analyzer"
)

// gradAssumption records, on the last finding, that grad is enabled at
// node at only because no code of the project calls the function it is
// in: whoever does (a script elsewhere, a framework's loop) may disable
// it.
func gradAssumption(p *analyzer.Pass, at analyzer.NodeID) {
	m := p.Model
	if m.GradAssumed(at) {
		p.Assume(fmt.Sprintf("grad is enabled where `%s` runs: no call of it in the project shows its grad mode", m.FunctionName(m.EnclosingFunction(at))))
	}
}

// graphAssumptions records, on the last finding, what its claim that
// value carries autograd history at node at took on trust: the model or
// loss that computed it known by its name alone, and the grad mode of a
// function nothing calls.
func graphAssumptions(p *analyzer.Pass, value, at analyzer.NodeID) {
	m := p.Model
	if !m.WithoutNames(func() bool { return m.CarriesGraph(value) }) {
		p.Assume(fmt.Sprintf("`%s` carries autograd history: known by the name of the model or loss that computed it alone",
			analyzer.Snippet(p.File.Text(value), 30)))
	}
	gradAssumption(p, at)
}

// onDevice is where a file's activations live, for a message: "on the
// GPU" where the file shows a GPU (CUDA, a device, an accelerator), and
// "in memory" in code that never names one.
func onDevice(f *analyzer.File) string {
	for _, w := range deviceWords {
		if bytes.Contains(f.Src, w) {
			return "on the GPU"
		}
	}
	return "in memory"
}

// deviceWords are the words of source text that show a GPU.
var deviceWords = [][]byte{[]byte("cuda"), []byte("device"), []byte("gpu"), []byte("GPU"), []byte("accelerat"), []byte("Fabric")}
