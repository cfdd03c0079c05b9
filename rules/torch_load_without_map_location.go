package rules

import (
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// TorchLoadWithoutMapLocation is TL403.
var TorchLoadWithoutMapLocation = &analyzer.Rule{
	Code:      "TL403",
	Name:      "torch-load-without-map-location",
	Summary:   "`torch.load` is called without `map_location`",
	Severity:  analyzer.SeverityWarning,
	Precision: "medium",
	Preview:   true,
	Tags:      []string{"memory", "cuda"},
	Fixable:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkTorchLoadWithoutMapLocation,
	Doc: `## What it does
Off by default: select it with ` + "`--extend-select TL403`" + `. Checks for
` + "`torch.load(...)`" + ` calls that pass no ` + "`map_location`" + `, neither as a
keyword nor as the second positional argument, where the code shows that
the default device does harm:

- the file runs several processes: it uses ` + "`torch.distributed`" + `,
  ` + "`DistributedDataParallel`" + ` or ` + "`torch.multiprocessing.spawn`" + `, or reads its rank
  (` + "`LOCAL_RANK`" + `, ` + "`RANK`" + `, ` + "`WORLD_SIZE`" + `, a ` + "`--local_rank`" + ` argument);
- the loaded tensors are moved to a device afterwards
  (` + "`torch.load(p).cuda()`" + `, ` + "`state = torch.load(p)`" + ` then ` + "`state.to(device)`" + `), or
  loaded into a model the same function moves to a device;
- the file also runs without CUDA: it asks ` + "`torch.cuda.is_available()`" + `,
  builds a ` + "`cpu`" + ` device, or chooses the device of another ` + "`torch.load`" + `
  (` + "`map_location=device`" + `; a literal ` + "`\"cpu\"`" + ` does not count, as it is what
  the fix writes).

Every other call without ` + "`map_location`" + ` is left to TL404
(` + "`torch-load-without-map-location-anywhere`" + `), off by default.

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

` + loadMapLocationExample + `

## Known problems
A call that passes ` + "`**kwargs`" + ` is not reported, since ` + "`map_location`" + ` may be
among them, nor one that reads an ` + "`io.BytesIO`" + ` (an object serialized in
the same process). Checkpoints that hold only CPU tensors are harmless
either way.

Whether a load does harm depends on what the checkpoint holds, which the
code does not show: a project's saver that moves tensors to the CPU first
(BasicSR's ` + "`save_network`" + `), weights converted from Caffe, a TensorRT
engine's state or numpy arrays make the load harmless. Read on 40 findings
in 50 repositories not used to develop it, 17 of 38 decided were right,
most of the rest for these reasons; the rule is therefore off by default.

A load in one branch of an ` + "`if`" + ` whose other branch passes ` + "`map_location`" + `
is not reported, nor, in a single-process file, a load of the path a
` + "`torch.save`" + ` earlier in the file writes (the best model, read back by the
run that saved it), nor, in a multi-process file, a path of its own per
rank. Paths are compared as text. A choice between two GPUs
(` + "`\"cuda:0\" if torch.cuda.is_available() else \"cuda:1\"`" + `) is not a CPU fallback.
The rest of the evidence is read from the whole file: a rank that is only
logged still counts as several processes.

## References
- [torch.load](https://pytorch.org/docs/stable/generated/torch.load.html)
- [Saving and loading models across devices](https://pytorch.org/tutorials/beginner/saving_loading_models.html#saving-loading-model-across-devices)
`,
}

func checkTorchLoadWithoutMapLocation(p *analyzer.Pass, call analyzer.NodeID) {
	if why, ok := loadWithoutMapLocation(p, call); ok && why != "" {
		reportLoad(p, call, why)
	}
}

func checkTorchLoadAnywhere(p *analyzer.Pass, call analyzer.NodeID) {
	if why, ok := loadWithoutMapLocation(p, call); ok && why == "" {
		reportLoad(p, call, "")
	}
}

// loadWithoutMapLocation reports whether call is a torch.load without
// map_location, and what in the code shows the harm ("" for nothing).
func loadWithoutMapLocation(p *analyzer.Pass, call analyzer.NodeID) (string, bool) {
	m := p.Model
	if m.CallName(call) != "torch.load" {
		return "", false
	}
	args := m.Args(call)
	if m.Keyword(call, "map_location") != analyzer.NoNode || len(args) >= 2 || hasKwargsSplat(p.File, call) {
		return "", false
	}
	if len(args) == 1 && inMemoryBuffer(m, args[0]) {
		return "", false // a round trip through memory in this process, not a checkpoint
	}
	if mappedInOtherBranch(m, call) {
		// `if cuda: torch.load(p) else: torch.load(p, map_location="cpu")`:
		// the devices are handled on purpose; this branch runs where the
		// saving device exists.
		return "", false
	}
	processes, noCUDA := fileLoadEvidence(m)
	path := loadPath(m, call)
	if processes && !perRank(m, path) {
		return "this file runs several processes, each of which would load onto the saving GPU", true
	}
	if savedEarlier(m, call, path) {
		// A checkpoint this run wrote and now reads back (the best
		// model, after training): it was saved from the device this
		// process uses, and goes back there.
		return "", true
	}
	if why := movedAfterLoad(m, call); why != "" {
		return why, true
	}
	if noCUDA {
		return "this file also runs without CUDA, where the load fails", true
	}
	return "", true
}

// filePath is the expression naming the file a torch.save or torch.load
// call writes or reads: its argument at index i, or the path given to
// `open` when that argument is the handle of `with open(path) as f`.
func filePath(m *analyzer.Model, call analyzer.NodeID, i int) analyzer.NodeID {
	args := m.Args(call)
	if len(args) <= i {
		return analyzer.NoNode
	}
	e := m.File.Unparen(args[i])
	if m.File.Kind(e) == analyzer.KindIdentifier {
		if b := m.Resolve(e); b != nil && b.Kind == analyzer.BindWithTarget && m.File.Kind(b.Value) == analyzer.KindCall && m.CallName(b.Value) == "open" {
			if oa := m.Args(b.Value); len(oa) > 0 {
				return m.File.Unparen(oa[0])
			}
		}
	}
	return e
}

// loadPath is the path a torch.load call reads (see filePath).
func loadPath(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID { return filePath(m, call, 0) }

// perRank reports whether a path names a file of its own for each
// process (`f"queue{rank}.pth"`): each rank reads back what it saved
// from its own device. A rank that a loop runs through is not the
// process's own.
func perRank(m *analyzer.Model, path analyzer.NodeID) bool {
	f := m.File
	if path == analyzer.NoNode {
		return false
	}
	if f.Kind(path) == analyzer.KindIdentifier {
		if v := m.AssignedValue(path); v != analyzer.NoNode {
			path = v
		}
	}
	found := false
	f.Walk(path, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindIdentifier || !strings.Contains(strings.ToLower(f.Text(id)), "rank") {
			return
		}
		// `for rank in range(world_size)` reads every rank's file, not
		// the process's own.
		if b := m.Resolve(id); b == nil || b.Kind != analyzer.BindLoopTarget {
			found = true
		}
	})
	return found
}

// savedEarlier reports whether the run that reaches a torch.load has
// written the path it reads with a torch.save before: a save earlier in
// the same function (or both at module level), or a save in a function
// that the module calls before a module-level load (train(), then read
// back the best model). Paths are compared as text; a path that reads a
// parameter of another function than the load's names another file in
// each call and does not count. Methods that save and load the same path
// (`save()` and `load()` of an agent) run in different runs as often as
// in one, and do not count.
func savedEarlier(m *analyzer.Model, call, path analyzer.NodeID) bool {
	f := m.File
	if path == analyzer.NoNode {
		return false
	}
	text := f.Text(path)
	loadFn := m.EnclosingFunction(call)
	start := f.N(call).Start
	for i := range f.Nodes {
		id := analyzer.NodeID(i)
		if f.N(id).Start >= start {
			break
		}
		if f.Kind(id) != analyzer.KindCall || m.CallName(id) != "torch.save" {
			continue
		}
		sp := filePath(m, id, 1)
		if sp == analyzer.NoNode || f.Text(sp) != text {
			continue
		}
		saveFn := m.EnclosingFunction(id)
		if saveFn == loadFn {
			return true
		}
		if loadFn == analyzer.NoNode && !readsParam(m, sp) && calledAtModuleLevelBefore(m, saveFn, start) {
			return true
		}
	}
	return false
}

// calledAtModuleLevelBefore reports whether module-level code before the
// offset calls the function fn by its name.
func calledAtModuleLevelBefore(m *analyzer.Model, fn analyzer.NodeID, before uint32) bool {
	f := m.File
	name := f.Field(fn, analyzer.FieldName)
	if name == analyzer.NoNode || m.EnclosingFunction(fn) != analyzer.NoNode {
		return false
	}
	for i := range f.Nodes {
		id := analyzer.NodeID(i)
		if f.N(id).Start >= before {
			break
		}
		if f.Kind(id) == analyzer.KindCall && m.EnclosingFunction(id) == analyzer.NoNode {
			if c := f.Field(id, analyzer.FieldFunction); f.Kind(c) == analyzer.KindIdentifier && f.Text(c) == f.Text(name) {
				return true
			}
		}
	}
	return false
}

// readsParam reports whether an expression reads a parameter of its
// function.
func readsParam(m *analyzer.Model, e analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(e, func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindIdentifier {
			if b := m.Resolve(id); b != nil && b.Kind == analyzer.BindParam {
				found = true
			}
		}
	})
	return found
}

// mappedInOtherBranch reports whether another branch of an if around a
// torch.load call loads with a map_location.
func mappedInOtherBranch(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	scope := m.ScopeNode(call)
	found := false
	f.Walk(scope, func(id analyzer.NodeID) {
		if found || id == call || f.Kind(id) != analyzer.KindCall || m.CallName(id) != "torch.load" || m.ScopeNode(id) != scope {
			return
		}
		if (m.Keyword(id, "map_location") != analyzer.NoNode || len(m.Args(id)) >= 2) && analyzer.ExclusiveBranches(f, call, id) {
			found = true
		}
	})
	return found
}

func reportLoad(p *analyzer.Pass, call analyzer.NodeID, why string) {
	msg := "`torch.load` without `map_location` restores tensors onto the device they were saved from " +
		"(GPU 0 in every process, or an error without a GPU)"
	if why != "" {
		msg += ", and " + why
	}
	msg += "; pass `map_location=\"cpu\"` or the target device"
	var fix *analyzer.Fix
	if e, ok := appendArgument(p.File, call, `map_location="cpu"`); ok {
		// Unsafe: code that relies on tensors coming back on the GPU
		// would now get CPU tensors.
		fix = &analyzer.Fix{Message: "Add `map_location=\"cpu\"`", Applicability: analyzer.Unsafe, Edits: []analyzer.Edit{e}}
	}
	p.ReportFix(call, msg, fix)
}

// loadEvidenceKey keys the file's evidence in the model's memo.
type loadEvidenceKey struct{}

// rankVariables are the environment variables a launcher sets in each of
// several processes.
var rankVariables = map[string]bool{"LOCAL_RANK": true, "RANK": true, "WORLD_SIZE": true}

// fileLoadEvidence says what in the file shows that torch.load's default
// device does harm: several processes, or code that also runs without
// CUDA.
func fileLoadEvidence(m *analyzer.Model) (processes, noCUDA bool) {
	ev := m.Memo(loadEvidenceKey{}, func() any {
		f := m.File
		var processes, noCUDA bool
		for i := range f.Nodes {
			id := analyzer.NodeID(i)
			switch f.Kind(id) {
			case analyzer.KindCall:
				name := m.CallName(id)
				switch {
				case strings.HasPrefix(name, "torch.distributed."),
					name == "torch.nn.parallel.DistributedDataParallel",
					name == "torch.multiprocessing.spawn", name == "torch.multiprocessing.start_processes":
					processes = true
				case name == "os.environ.get" || name == "os.getenv":
					processes = processes || firstArgIn(m, id, rankVariables)
				case m.MethodName(id) == "add_argument":
					processes = processes || firstArgIn(m, id, map[string]bool{"--local_rank": true, "--local-rank": true})
				case name == "torch.cuda.is_available":
					noCUDA = noCUDA || !gpuFallback(f, id)
				case name == "torch.device":
					noCUDA = noCUDA || firstArgIn(m, id, map[string]bool{"cpu": true})
				case name == "torch.load":
					noCUDA = noCUDA || choosesDevice(m, id)
				}
			case analyzer.KindSubscript:
				if m.QualifiedName(f.Field(id, analyzer.FieldValue)) == "os.environ" {
					if k := f.Field(id, analyzer.FieldSubscript); k != analyzer.NoNode && rankVariables[stringValue(f, k)] {
						processes = true
					}
				}
			}
		}
		return [2]bool{processes, noCUDA}
	}).([2]bool)
	return ev[0], ev[1]
}

// gpuFallback reports whether an is_available() call only picks between
// two GPUs (`"cuda:0" if torch.cuda.is_available() else "cuda:1"`): the
// code still never runs without CUDA.
func gpuFallback(f *analyzer.File, call analyzer.NodeID) bool {
	cond := f.Parent(call)
	for f.Kind(cond) == analyzer.KindParenthesizedExpression {
		cond = f.Parent(cond)
	}
	if f.Kind(cond) != analyzer.KindConditionalExpression {
		return false
	}
	kids := f.ChildList(cond)
	if len(kids) != 3 || !f.Contains(kids[1], call) {
		return false
	}
	return strings.HasPrefix(stringValue(f, kids[0]), "cuda") && strings.HasPrefix(stringValue(f, kids[2]), "cuda")
}

// choosesDevice reports whether a torch.load call picks the device its
// tensors go to by something other than the literal "cpu" (a variable, a
// function, a mapping): code that runs on more than one kind of machine.
// A literal "cpu" is what TL403's fix writes, and must not make the other
// calls of the file findings once it is applied.
func choosesDevice(m *analyzer.Model, call analyzer.NodeID) bool {
	v := m.Keyword(call, "map_location")
	if v == analyzer.NoNode {
		if args := m.Args(call); len(args) >= 2 {
			v = args[1]
		}
	}
	return v != analyzer.NoNode && stringValue(m.File, v) != "cpu"
}

// movedAfterLoad says whether the loaded value is moved to a device
// afterwards, or loaded into a model the same function moves to one; ""
// otherwise.
func movedAfterLoad(m *analyzer.Model, call analyzer.NodeID) string {
	f := m.File
	if isDeviceMove(m, f.Parent(call), call) {
		return "the tensors are moved to a device afterwards, after a first copy on the saving GPU"
	}
	// state = torch.load(...): look at what the function does with state.
	stmt := f.Parent(call)
	if f.Kind(stmt) != analyzer.KindAssignment || f.Field(stmt, analyzer.FieldRight) != call {
		return ""
	}
	target := f.Field(stmt, analyzer.FieldLeft)
	if f.Kind(target) != analyzer.KindIdentifier {
		return ""
	}
	name := f.Text(target)
	scope := m.EnclosingFunction(call)
	if scope == analyzer.NoNode {
		scope = 0 // the module
	}
	moved := map[string]bool{} // receivers of .cuda() and .to(...) in the scope
	var loadedInto []string    // receivers of load_state_dict(name...)
	movedState := false
	f.Walk(scope, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall || m.EnclosingFunction(id) != m.EnclosingFunction(call) {
			return
		}
		recv := m.Receiver(id)
		if recv == analyzer.NoNode {
			return
		}
		switch m.MethodName(id) {
		case "cuda", "to":
			if f.Kind(recv) == analyzer.KindIdentifier && f.Text(recv) == name && f.N(id).Start > f.N(call).End {
				movedState = true
			}
			moved[f.Text(recv)] = true
		case "load_state_dict":
			for _, a := range m.Args(id) {
				if usesName(f, a, name) {
					loadedInto = append(loadedInto, f.Text(recv))
				}
			}
		}
	})
	if movedState {
		return "the tensors are moved to a device afterwards, after a first copy on the saving GPU"
	}
	for _, r := range loadedInto {
		if moved[r] {
			return "they are loaded into a model that is moved to a device, so the GPU holds them twice"
		}
	}
	return ""
}

// isDeviceMove reports whether parent makes call the receiver of a
// `.cuda()` or `.to(...)` call.
func isDeviceMove(m *analyzer.Model, parent, call analyzer.NodeID) bool {
	f := m.File
	if f.Kind(parent) != analyzer.KindAttribute || f.Field(parent, analyzer.FieldObject) != call {
		return false
	}
	outer := f.Parent(parent)
	if f.Kind(outer) != analyzer.KindCall {
		return false
	}
	name := m.MethodName(outer)
	return name == "cuda" || name == "to"
}

// usesName reports whether the expression e uses the name, directly or
// in a subscript or attribute (state["model"]).
func usesName(f *analyzer.File, e analyzer.NodeID, name string) bool {
	found := false
	f.Walk(e, func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindIdentifier && f.Text(id) == name {
			found = true
		}
	})
	return found
}

// firstArgIn reports whether the first argument of call is a string
// literal in set.
func firstArgIn(m *analyzer.Model, call analyzer.NodeID, set map[string]bool) bool {
	args := m.Args(call)
	return len(args) > 0 && set[stringValue(m.File, args[0])]
}

// stringValue is the text of a plain string literal, or "".
func stringValue(f *analyzer.File, e analyzer.NodeID) string {
	if f.Kind(e) != analyzer.KindString {
		return ""
	}
	t := f.Text(e)
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
		return t[1 : len(t)-1]
	}
	return ""
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

// loadMapLocationExample is the example, its fix and the fix's safety
// that TL403 and TL404 share.
const loadMapLocationExample = `## Example
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
tensors coming back on the GPU now gets CPU tensors and must move them.`
