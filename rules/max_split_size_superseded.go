package rules

import (
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// MaxSplitSizeSuperseded is TL303.
var MaxSplitSizeSuperseded = &analyzer.Rule{
	Code:      "TL303",
	Name:      "max-split-size-superseded",
	Summary:   "`max_split_size_mb` is set without `expandable_segments`",
	Severity:  analyzer.SeverityWarning,
	Precision: "high",
	Tags:      []string{"memory", "cuda"},
	Preview:   true,
	Kinds:     []analyzer.Kind{analyzer.KindAssignment, analyzer.KindCall},
	Check:     checkMaxSplitSizeSuperseded,
	Doc: `## What it does
Checks for a CUDA allocator configuration that sets ` + "`max_split_size_mb`" + `
without mentioning ` + "`expandable_segments`" + `. The configuration is the value
put into ` + "`PYTORCH_CUDA_ALLOC_CONF`" + ` (or ` + "`PYTORCH_ALLOC_CONF`" + `,
` + "`PYTORCH_HIP_ALLOC_CONF`" + `) through ` + "`os.environ`" + ` or ` + "`os.putenv`" + `, or the
argument of ` + "`torch.cuda.memory._set_allocator_settings`" + `. The string literal
holding ` + "`max_split_size_mb`" + ` is reported. This rule is in preview: select it
by its code.

## Why is this bad?
` + "`max_split_size_mb`" + ` was long the advice for fragmentation ("reserved but
unallocated" memory): the allocator stops splitting cached blocks larger
than the limit, so a large free block is not carved up by small requests.
It trades one kind of waste for another (oversized requests no longer
reuse larger blocks, and the right value depends on the workload).
Since PyTorch 2.1, ` + "`expandable_segments:True`" + ` addresses the cause instead:
the allocator maps more memory onto the end of an existing segment when
it needs to grow, so allocations whose sizes change from step to step
(variable batch or sequence lengths) tile one growing segment rather than
leaving unusable slivers at the ends of many fixed-size ones. PyTorch's
own out-of-memory message now suggests ` + "`expandable_segments:True`" + ` where it
used to suggest ` + "`max_split_size_mb`" + `.

` + "`max_split_size_mb`" + ` is still valid and has uses: expandable segments are
not supported on every platform (they need the CUDA driver's virtual
memory API, which some builds and Windows lack), tensors in expandable
segments cannot yet be shared with another process through CUDA IPC, and
a tuned limit can be the right choice for a known workload. That is why
this rule is off by default.

## Example
` + "```python" + `
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:128"
` + "```" + `

## Use instead
` + "```python" + `
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
` + "```" + `
A setting that mentions ` + "`expandable_segments`" + ` at all (either value) is not
reported, and neither is any setting in a file that names
` + "`expandable_segments`" + ` in some string: its author has made the choice.

## Known problems
A setting built from parts that are not string literals (a value read
from a configuration or from the existing environment, other than the
number after ` + "`max_split_size_mb:`" + `) is not reported, since the unknown part
may enable expandable segments. Settings in shell scripts, launchers or
configuration files are not seen.

## References
- [CUDA semantics: optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF](https://pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)
- [Why not enable expandable_segments by default? (pytorch/pytorch#130330)](https://github.com/pytorch/pytorch/issues/130330)
`,
}

// allocatorSettingsCalls set the allocator configuration from a string
// at run time.
var allocatorSettingsCalls = map[string]bool{
	"torch.cuda.memory._set_allocator_settings":  true,
	"torch._C._cuda_setAllocatorSettings":        true,
	"torch._C._accelerator_setAllocatorSettings": true,
}

func checkMaxSplitSizeSuperseded(p *analyzer.Pass, n analyzer.NodeID) {
	m := p.Model
	var values []analyzer.NodeID
	if allocatorSettingsCalls[m.CallName(n)] {
		if args := m.Args(n); len(args) > 0 {
			values = append(values, args[0])
		}
	}
	for _, s := range allocEnvSets(m, n) {
		if !s.aug {
			values = append(values, s.value)
		}
	}
	if len(values) == 0 || fileMentionsExpandableSegments(m) {
		return
	}
	for _, v := range values {
		parts, ok := settingParts(m, v)
		if !ok {
			continue
		}
		reported := map[analyzer.NodeID]bool{}
		for _, part := range parts {
			if reported[part.node] || !strings.Contains(part.text, "max_split_size_mb") {
				continue
			}
			reported[part.node] = true
			p.Report(part.node, "`max_split_size_mb` is set without `expandable_segments`: since PyTorch 2.1, "+
				"`expandable_segments:True` lets the allocator grow a segment instead of leaving unusable fragments; "+
				"consider it where the platform supports it")
		}
	}
}

// settingPart is a piece of an allocator setting: literal text found in
// string node, or (known false) a value not known statically.
type settingPart struct {
	node  analyzer.NodeID
	text  string
	known bool
}

// settingParts flattens a setting's value into its literal pieces in
// order. ok is false when a piece that is not known could hold options of
// its own: only the value right after an option's colon
// (`f"max_split_size_mb:{mb}"`) may be unknown.
func settingParts(m *analyzer.Model, value analyzer.NodeID) (parts []settingPart, ok bool) {
	collectSettingParts(m, value, 0, &parts)
	last := ""
	for _, p := range parts {
		if !p.known && !strings.HasSuffix(strings.TrimSpace(last), ":") {
			return nil, false
		}
		if p.known {
			if strings.Contains(p.text, "expandable_segments") {
				return nil, false
			}
			last = p.text
		} else {
			last = ""
		}
	}
	return parts, true
}

func collectSettingParts(m *analyzer.Model, e analyzer.NodeID, depth int, out *[]settingPart) {
	f := m.File
	e = f.Unparen(e)
	unknown := settingPart{node: e}
	if depth > 4 {
		*out = append(*out, unknown)
		return
	}
	switch f.Kind(e) {
	case analyzer.KindString:
		for _, seg := range stringSegments(f, e) {
			if seg.interpolation {
				*out = append(*out, settingPart{node: seg.node})
			} else {
				*out = append(*out, settingPart{node: e, text: seg.text, known: true})
			}
		}
		return
	case analyzer.KindConcatenatedString:
		f.Children(e, func(c analyzer.NodeID) bool {
			collectSettingParts(m, c, depth+1, out)
			return true
		})
		return
	case analyzer.KindBinaryOperator:
		if f.TextIs(f.Field(e, analyzer.FieldOperator), "+") {
			collectSettingParts(m, f.Field(e, analyzer.FieldLeft), depth+1, out)
			collectSettingParts(m, f.Field(e, analyzer.FieldRight), depth+1, out)
			return
		}
	case analyzer.KindIdentifier:
		if v := m.AssignedValue(e); v != analyzer.NoNode {
			collectSettingParts(m, v, depth+1, out)
			return
		}
	case analyzer.KindCall:
		// ",".join(["max_split_size_mb:128", "garbage_collection_threshold:0.6"])
		sep := m.Receiver(e)
		args := m.Args(e)
		if m.MethodName(e) == "join" && f.Kind(sep) == analyzer.KindString && len(args) == 1 {
			if k := f.Kind(args[0]); k == analyzer.KindList || k == analyzer.KindTuple {
				for i, el := range f.ChildList(args[0]) {
					if i > 0 {
						collectSettingParts(m, sep, depth+1, out)
					}
					collectSettingParts(m, el, depth+1, out)
				}
				return
			}
		}
	}
	*out = append(*out, unknown)
}

// fileMentionsExpandableSegments reports whether some string literal in
// the file names expandable_segments: the author knows the option.
func fileMentionsExpandableSegments(m *analyzer.Model) bool {
	type key struct{}
	return m.Memo(key{}, func() any {
		f := m.File
		for i := range f.Nodes {
			id := analyzer.NodeID(i)
			if f.Kind(id) == analyzer.KindString && strings.Contains(f.Text(id), "expandable_segments") {
				return true
			}
		}
		return false
	}).(bool)
}
