package analyzer_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

// generatedModule is a module of size about n bytes made of training and
// evaluation functions, a class and module-level code, so that every
// rule has work to do throughout.
func generatedModule(n int) []byte {
	var b strings.Builder
	b.WriteString("import torch\nimport torch.nn as nn\nfrom torch.utils.checkpoint import checkpoint\n\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `class Block%[1]d(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        feats = []
        for _ in range(2):
            x = checkpoint(self.fc, x, use_reentrant=False)
            feats.append(x)
        return torch.cat(feats)


def train_%[1]d(model, loader, optimizer, criterion):
    total = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.detach()
    return float(total)


@torch.no_grad()
def evaluate_%[1]d(model, loader):
    model.eval()
    return sum(model(x).argmax(1).eq(y).sum().item() for x, y in loader)


state_%[1]d = torch.load("w%[1]d.pt", map_location="cpu")

`, i)
	}
	return []byte(b.String())
}

func allRunner() *analyzer.Runner {
	return analyzer.NewRunner(rules.Runnable(), rules.SyntaxError, rules.IOError)
}

// TestLinearity lints generated modules of 1×, 4× and 16× a base size and
// requires the number of allocations per byte of source to stay within
// 20% of the base. Allocation counts are deterministic and follow the
// work done per node and per name, unlike timings, which
// BenchmarkLinearity reports instead (a slice that doubles adds only a
// logarithmic number of allocations, so counts, unlike bytes, are not
// skewed by where the doublings fall).
func TestLinearity(t *testing.T) {
	if testing.Short() {
		t.Skip("lints 4 MB")
	}
	runner := allRunner()
	perByte := func(src []byte) float64 {
		runner.LintSource("warm.py", src) // node buffers and lookup tables
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		diags := runner.LintSource("gen.py", src)
		runtime.ReadMemStats(&after)
		if len(diags) != 0 {
			t.Fatalf("the generated module has findings: %s %s", diags[0].Rule.Code, diags[0].Message)
		}
		return float64(after.Mallocs-before.Mallocs) / float64(len(src))
	}
	base := perByte(generatedModule(256 << 10))
	for _, k := range []int{4, 16} {
		got := perByte(generatedModule(k * 256 << 10))
		t.Logf("%d×: %.4f allocations per source byte (1×: %.4f)", k, got, base)
		if ratio := got / base; ratio < 0.8 || ratio > 1.2 {
			t.Errorf("%d×: %.4f allocations per source byte against %.4f at 1× (ratio %.2f, want within 20%%)", k, got, base, ratio)
		}
	}
}

// BenchmarkLinearity reports the time per source byte of a full lint at
// 1×, 4× and 16× a base size, the ratios to 1×, and the same ratios for
// tree-sitter's parse alone, the floor the lint is measured against.
func BenchmarkLinearity(b *testing.B) {
	runner := allRunner()
	var lint, parse [3]float64
	best := func(f func()) float64 {
		d := time.Duration(1 << 62)
		for r := 0; r < 3; r++ {
			start := time.Now()
			f()
			d = min(d, time.Since(start))
		}
		return float64(d.Nanoseconds())
	}
	for b.Loop() {
		for i, k := range []int{1, 4, 16} {
			src := generatedModule(k * 256 << 10)
			lint[i] = best(func() { runner.LintSource("gen.py", src) }) / float64(len(src))
			parse[i] = best(func() {
				if err := analyzer.ParseOnly(src); err != nil {
					b.Fatal(err)
				}
			}) / float64(len(src))
		}
	}
	b.ReportMetric(lint[0], "ns/B@1x")
	b.ReportMetric(lint[1]/lint[0], "lint@4x")
	b.ReportMetric(lint[2]/lint[0], "lint@16x")
	b.ReportMetric(parse[1]/parse[0], "parse@4x")
	b.ReportMetric(parse[2]/parse[0], "parse@16x")
	b.ReportMetric(lint[0]/parse[0], "lint/parse@1x")
	b.ReportMetric(lint[2]/parse[2], "lint/parse@16x")
}

// longFunction is a module of size about n bytes holding one function
// whose body rebinds the same few names again and again, as a
// generated pipeline or a notebook exported as one script does.
func longFunction(n int) []byte {
	var b strings.Builder
	b.WriteString(`import torch


def run(unet, vae, scheduler, latents, timesteps, embeds, scale, callback):
    images = []
`)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `    for i, t in enumerate(timesteps):
        model_input = torch.cat([latents] * 2)
        noise = unet(model_input, t, encoder_hidden_states=embeds).sample
        uncond, text = noise.chunk(2)
        noise = uncond + scale * (text - uncond)
        latents = scheduler.step(noise, t, latents).prev_sample
        if callback is not None and i %% %[1]d == 0:
            callback(i, t, latents)
    scheduler.set_timesteps(%[1]d)
    image = vae.decode(latents / 0.18215).sample
    images.append(image.detach())
`, i+2)
	}
	b.WriteString("    return images\n")
	return []byte(b.String())
}

// manyClasses is a module of size about n bytes defining small classes,
// each constructed once.
func manyClasses(n int) []byte {
	var b strings.Builder
	b.WriteString("import torch.nn as nn\n\n\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `class Head%[1]d(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, 2)

    def forward(self, x):
        return self.fc(x)


head%[1]d = Head%[1]d(%[1]d + 1)


`, i)
	}
	return []byte(b.String())
}

// BenchmarkLinearityWithin is BenchmarkLinearity where the size grows
// inside one function, or in the number of classes of one module: the
// questions asked of each name or class must not each walk the whole
// function or file. Allocation counts do not show such work (a walk
// allocates nothing), so it reports times.
func BenchmarkLinearityWithin(b *testing.B) {
	runner := allRunner()
	best := func(src []byte) float64 {
		d := time.Duration(1 << 62)
		for r := 0; r < 3; r++ {
			start := time.Now()
			runner.LintSource("gen.py", src)
			d = min(d, time.Since(start))
		}
		return float64(d.Nanoseconds()) / float64(len(src))
	}
	var fn, classes [2]float64
	for b.Loop() {
		for i, k := range []int{1, 4} {
			fn[i] = best(longFunction(k * 32 << 10))
			classes[i] = best(manyClasses(k * 32 << 10))
		}
	}
	b.ReportMetric(fn[1]/fn[0], "function@4x")
	b.ReportMetric(classes[1]/classes[0], "classes@4x")
}
