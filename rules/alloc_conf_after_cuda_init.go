package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// AllocConfAfterCudaInit is TL302.
var AllocConfAfterCudaInit = &analyzer.Rule{
	Code:      "TL302",
	Name:      "alloc-conf-after-cuda-init",
	Summary:   "The CUDA allocator is configured after CUDA was initialised",
	Severity:  analyzer.SeverityWarning,
	Precision: "high",
	Tags:      []string{"memory", "cuda"},
	Kinds:     []analyzer.Kind{analyzer.KindAssignment, analyzer.KindAugmentedAssignment, analyzer.KindCall},
	Check:     checkAllocConfAfterCudaInit,
	Doc: `## What it does
Checks for ` + "`PYTORCH_CUDA_ALLOC_CONF`" + ` (or ` + "`PYTORCH_ALLOC_CONF`" + `,
` + "`PYTORCH_HIP_ALLOC_CONF`" + `) put into the environment with
` + "`os.environ[...] = ...`" + `, ` + "`os.environ.setdefault`" + `, ` + "`os.environ.update`" + ` or
` + "`os.putenv`" + ` after code on the same path has initialised CUDA: a
` + "`.cuda()`" + `, a ` + "`.to(device)`" + ` or a tensor factory whose device is CUDA
(` + "`\"cuda\"`" + `, ` + "`f\"cuda:{rank}\"`" + `, ` + "`torch.device(\"cuda\" if ... else \"cpu\")`" + `),
` + "`torch.load(..., map_location=\"cuda\")`" + `, ` + "`torch.cuda.set_device`" + `,
` + "`torch.cuda.init`" + `, ` + "`torch.cuda.current_device`" + `, ` + "`torch.cuda.synchronize`" + `,
` + "`torch.cuda.get_device_properties`" + ` and the like, or ` + "`nn.DataParallel`" + `.

"On the same path" means: earlier at module level; earlier in the same
function; inside a function of this file called earlier (up to three
calls deep); or, when every call of the enclosing function in this file
comes after CUDA was initialised (` + "`main()`" + ` under
` + "`if __name__ == \"__main__\":`" + ` after a module-level ` + "`.cuda()`" + `), before
those calls. A function only defined earlier does not count, nor does a
branch that excludes the assignment. An initialisation that happens only
on some paths (inside ` + "`if torch.cuda.is_available():`" + `, or with a device
that is CUDA only when a GPU is present) is reported, with "may": on a
GPU machine it is the path taken.

Calls that do *not* initialise CUDA are not counted: ` + "`import torch`" + `,
` + "`torch.cuda.is_available()`" + `, ` + "`torch.cuda.device_count()`" + `,
` + "`torch.device(\"cuda\")`" + ` (a descriptor), ` + "`torch.cuda.manual_seed`" + ` (queued
until initialisation), ` + "`torch.cuda.empty_cache()`" + ` and the memory
statistics (no-ops before initialisation), ` + "`torch.backends.cudnn`" + ` flags.

## Why is this bad?
The caching allocator parses its configuration from the environment
exactly once: the first time it needs it, which is when CUDA is
initialised in the process (the first CUDA tensor, ` + "`.cuda()`" + `,
` + "`torch.cuda.init()`" + `, ...). An assignment after that point changes
` + "`os.environ`" + ` but never reaches the allocator, so
` + "`expandable_segments:True`" + ` or ` + "`max_split_size_mb`" + ` silently do nothing and
the run keeps the fragmentation or out-of-memory errors the setting was
meant to fix.

Measured: on an NVIDIA H100 80GB HBM3 with PyTorch 2.11.0, median of 5 runs ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL302.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl302_alloc_conf.py)): a
linear layer's forward and backward over a batch that grows for 40 steps
peaks at 369.8 MiB allocated. With ` + "`expandable_segments:True`" + ` set before
CUDA was initialised, the allocator reserved 482 MiB; set after it, 2326
MiB in 35 segments, exactly as when it is not set at all (2326 MiB, 35
segments): 4.83 times as much.

## Example
` + "```python" + `
import os
import torch

model = build_model().cuda()
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ignored
train(model)
` + "```" + `

## Use instead
` + "```python" + `
import os
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"

import torch

model = build_model().cuda()
train(model)
` + "```" + `
or set the variable in the shell or launcher
(` + "`PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True torchrun train.py`" + `).
Setting it at the top of the entry script, before any CUDA use, is not
reported. The ` + "`backend`" + ` option (` + "`backend:cudaMallocAsync`" + `) is read even
earlier, when ` + "`torch`" + ` is imported, so set that one before ` + "`import torch`" + `.

## Known problems
Only this file is seen: CUDA initialised by a module imported earlier, or
by a caller in another file, is not known, so an assignment inside an
entry point called from elsewhere is reported only when the function
itself initialises CUDA first. A device held in an attribute or passed
as an argument (` + "`x.to(self.device)`" + `, ` + "`x.to(args.device)`" + `) is not known to be
CUDA. An assignment followed, in the same function, by the launch of a
subprocess or of worker processes (` + "`subprocess`" + `, ` + "`multiprocessing`" + `,
` + "`torch.multiprocessing.spawn`" + `) is not reported: the children read the
variable afresh. An assignment guarded by ` + "`torch.cuda.is_initialized()`" + `
is not reported either. A setting made after initialisation on a later
iteration of a loop is not reported.

## References
- [CUDA semantics: optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF](https://pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)
- [CUDA semantics: environment variables](https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)
- [torch.cuda.init](https://pytorch.org/docs/stable/generated/torch.cuda.init.html)
`,
}

// allocConfKeys are the environment variables the CUDA caching allocator
// reads its configuration from.
var allocConfKeys = map[string]bool{
	"PYTORCH_CUDA_ALLOC_CONF": true,
	"PYTORCH_ALLOC_CONF":      true,
	"PYTORCH_HIP_ALLOC_CONF":  true,
}

// allocEnvSet is one statement that puts an allocator configuration into
// the process environment.
type allocEnvSet struct {
	key   string
	value analyzer.NodeID // the value set; NoNode when not known
	aug   bool            // `os.environ[key] += ...`
}

// allocEnvSets returns the allocator configurations that the assignment
// or call n puts into the environment.
func allocEnvSets(m *analyzer.Model, n analyzer.NodeID) []allocEnvSet {
	f := m.File
	switch f.Kind(n) {
	case analyzer.KindAssignment, analyzer.KindAugmentedAssignment:
		left := f.Unparen(f.Field(n, analyzer.FieldLeft))
		if f.Kind(left) != analyzer.KindSubscript || m.QualifiedName(f.Field(left, analyzer.FieldValue)) != "os.environ" {
			return nil
		}
		key, ok := constString(m, f.Field(left, analyzer.FieldSubscript), 0)
		if !ok || !allocConfKeys[key] {
			return nil
		}
		value := f.Field(n, analyzer.FieldRight)
		for f.Kind(value) == analyzer.KindAssignment {
			value = f.Field(value, analyzer.FieldRight)
		}
		return []allocEnvSet{{key: key, value: value, aug: f.Kind(n) == analyzer.KindAugmentedAssignment}}
	case analyzer.KindCall:
		switch m.CallName(n) {
		case "os.environ.setdefault", "os.putenv", "os.environ.__setitem__":
			args := m.Args(n)
			if len(args) != 2 {
				return nil
			}
			if key, ok := constString(m, args[0], 0); ok && allocConfKeys[key] {
				return []allocEnvSet{{key: key, value: args[1]}}
			}
		case "os.environ.update":
			return allocEnvUpdate(m, n)
		}
	}
	return nil
}

// allocEnvUpdate reads `os.environ.update({KEY: value})` and
// `os.environ.update(KEY=value)`.
func allocEnvUpdate(m *analyzer.Model, call analyzer.NodeID) []allocEnvSet {
	f := m.File
	var out []allocEnvSet
	f.Children(f.Field(call, analyzer.FieldArguments), func(c analyzer.NodeID) bool {
		switch f.Kind(c) {
		case analyzer.KindDictionary:
			f.Children(c, func(pair analyzer.NodeID) bool {
				if f.Kind(pair) != analyzer.KindPair {
					return true
				}
				if key, ok := constString(m, f.Field(pair, analyzer.FieldKey), 0); ok && allocConfKeys[key] {
					out = append(out, allocEnvSet{key: key, value: f.Field(pair, analyzer.FieldValue)})
				}
				return true
			})
		case analyzer.KindKeywordArgument:
			if key := f.Text(f.Field(c, analyzer.FieldName)); allocConfKeys[key] {
				out = append(out, allocEnvSet{key: key, value: f.Field(c, analyzer.FieldValue)})
			}
		}
		return true
	})
	return out
}

// constString returns the value of a string literal without
// interpolations, or of a name bound to one (a module-level constant).
func constString(m *analyzer.Model, expr analyzer.NodeID, depth int) (string, bool) {
	f := m.File
	expr = f.Unparen(expr)
	switch f.Kind(expr) {
	case analyzer.KindString:
		var b strings.Builder
		plain := true
		for _, seg := range stringSegments(f, expr) {
			if seg.interpolation {
				plain = false
			}
			b.WriteString(seg.text)
		}
		return b.String(), plain
	case analyzer.KindConcatenatedString:
		var b strings.Builder
		plain := true
		f.Children(expr, func(c analyzer.NodeID) bool {
			s, ok := constString(m, c, depth)
			plain = plain && ok
			b.WriteString(s)
			return plain
		})
		return b.String(), plain
	case analyzer.KindIdentifier:
		if depth < 3 {
			if v := m.AssignedValue(expr); v != analyzer.NoNode {
				return constString(m, v, depth+1)
			}
		}
	}
	return "", false
}

// stringSegment is a piece of a string literal: literal text, or an
// f-string interpolation (whose text is its source).
type stringSegment struct {
	node          analyzer.NodeID
	text          string
	interpolation bool
}

// stringSegments splits a string literal into its literal text and its
// interpolations, without the quotes and prefix. A plain string is one
// segment (the parser keeps no parts for it).
func stringSegments(f *analyzer.File, s analyzer.NodeID) []stringSegment {
	first := f.N(s).FirstChild
	if first == analyzer.NoNode {
		return []stringSegment{{node: s, text: unquote(f.Text(s))}}
	}
	var parts []analyzer.NodeID
	for c := first; c != analyzer.NoNode; c = f.N(c).NextSibling {
		parts = append(parts, c)
	}
	if len(parts) < 2 {
		return nil
	}
	var out []stringSegment
	for _, c := range parts[1 : len(parts)-1] { // between the quotes
		t := f.Text(c)
		interp := strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "{{")
		out = append(out, stringSegment{node: c, text: t, interpolation: interp})
	}
	return out
}

// unquote strips a string literal's prefix and quotes; escapes are kept
// as written.
func unquote(lit string) string {
	if _, body, ok := analyzer.StringBody(lit); ok {
		return body
	}
	return strings.TrimLeft(lit, "rRbBuUfF")
}

// processLaunchPrefixes name the calls that start another process, which
// reads the environment afresh.
var processLaunchPrefixes = []string{
	"subprocess.", "multiprocessing.", "torch.multiprocessing.", "concurrent.futures.ProcessPoolExecutor",
	"os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.popen",
	"torch.distributed.run.", "torch.distributed.launch.", "torch.distributed.elastic.",
}

func checkAllocConfAfterCudaInit(p *analyzer.Pass, n analyzer.NodeID) {
	m := p.Model
	f := p.File
	sets := allocEnvSets(m, n)
	if len(sets) == 0 || checksCudaInitialised(m, n) || launchesProcessAfter(m, n) {
		return
	}
	init, ok := m.CudaInitBefore(n)
	if !ok {
		return
	}
	verb := "was"
	if init.Maybe {
		verb = "may have been"
	}
	snippet := func(id analyzer.NodeID) string { return "`" + analyzer.Snippet(f.Text(id), 40) + "`" }
	line := func(id analyzer.NodeID) int { return f.Position(f.N(id).Start).Line }
	where := fmt.Sprintf("line %d: %s", line(init.Call), snippet(init.Call))
	if init.Through != analyzer.NoNode {
		where = fmt.Sprintf("line %d: %s, which runs %s", line(init.Through), snippet(init.Through), snippet(init.Call))
	}
	if init.Caller != analyzer.NoNode {
		where = fmt.Sprintf("%s on line %d runs after %s", snippet(init.Caller), line(init.Caller), where)
	}
	p.Report(n, fmt.Sprintf("`%s` is set after CUDA %s initialised (%s): the caching allocator reads its settings once, "+
		"when CUDA is initialised, so this has no effect; set it before the first CUDA call, or in the launching environment",
		sets[0].key, verb, where))
}

// checksCudaInitialised reports whether n runs under a condition that
// tests torch.cuda.is_initialized(): the code knows the setting can come
// too late.
func checksCudaInitialised(m *analyzer.Model, n analyzer.NodeID) bool {
	f := m.File
	stop := m.ScopeNode(n)
	for a := f.Parent(n); a != analyzer.NoNode && a != stop; a = f.Parent(a) {
		k := f.Kind(a)
		if k != analyzer.KindIfStatement && k != analyzer.KindElifClause && k != analyzer.KindWhileStatement {
			continue
		}
		found := false
		f.Walk(f.Field(a, analyzer.FieldCondition), func(c analyzer.NodeID) {
			found = found || m.CallName(c) == "torch.cuda.is_initialized"
		})
		if found {
			return true
		}
	}
	return false
}

// launchesProcessAfter reports whether the function (or module) holding
// n starts another process after n: the variable is then meant for it.
func launchesProcessAfter(m *analyzer.Model, n analyzer.NodeID) bool {
	f := m.File
	scope := m.ScopeNode(n)
	launches := false
	f.Walk(scope, func(c analyzer.NodeID) {
		if launches || f.Kind(c) != analyzer.KindCall || f.N(c).Start < f.N(n).End || m.ScopeNode(c) != scope {
			return
		}
		q := m.CallName(c)
		for _, prefix := range processLaunchPrefixes {
			if strings.HasPrefix(q, prefix) {
				launches = true
				return
			}
		}
	})
	return launches
}
