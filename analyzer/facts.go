package analyzer

import (
	"path/filepath"
	"slices"
	"strings"
)

// Facts across files. Each file, once parsed, yields a Summary: what
// other files may need to know of it (its imports and re-exports, its
// classes and their bases, and per function its grad mode, what it
// returns, whether it runs a forward pass or empties the CUDA cache, and
// which functions it calls in which grad mode). The project layer
// resolves the summaries of a whole project over its import graph and
// hands each file a Facts value; analyzer never sees another file
// otherwise.
//
// Names in summaries and lookups are refs: a qualified name as the file
// resolves it ("models.Classifier", ".engine.run_batch" for a relative
// import), or a definition of the file itself, "#name" or "#Class.name".

// Summary is what one file tells the rest of its project.
type Summary struct {
	// Bindings maps the module-level names that refer to something
	// elsewhere (imports, aliases such as `Net = ResNet`) to their refs.
	Bindings Pairs `json:"bindings,omitempty"`
	// Stars are the modules the file star-imports, as written.
	Stars []string `json:"stars,omitempty"`
	// All is the file's literal __all__, if it has one.
	All []string `json:"all,omitempty"`
	// Instances maps module-level names bound to a call (`net = Net()`)
	// to the ref of what was called.
	Instances Pairs          `json:"instances,omitempty"`
	Classes   []ClassSummary `json:"classes,omitempty"`
	Funcs     []FuncSummary  `json:"funcs,omitempty"`
	// Calls are the calls of refs, from module level and from the
	// summarized functions.
	Calls []CallSummary `json:"calls,omitempty"`
	// Escapes are refs used other than by calling them (passed as a
	// callback): their grad mode is set where they are finally called.
	Escapes []string `json:"escapes,omitempty"`
	// Test is set for a pytest file: its calls exercise an API in
	// whatever grad mode a test needs, and set no function's mode.
	Test bool `json:"test,omitempty"`
	// Foreign is set for a file that imports another deep-learning
	// framework and nothing of torch (OtherFramework): its calls run that
	// framework's objects (`model.recognize(feat)` under chainer's
	// no_backprop_mode) and set no function's grad mode.
	Foreign bool `json:"foreign,omitempty"`
	// Backprops are the refs of functions of other files whose results
	// the file back-propagates (`logit, _ = self.predict_logits(x)`, a
	// method of a base class, then `logit.backward()`).
	Backprops []string `json:"backprops,omitempty"`
	// BackpropsVia are the results of functions of other files passed to
	// functions of other files that may back-propagate them
	// (`self.input_grads(logit, x)` with `logit, _ = self.predict_logits(x)`):
	// the result is back-propagated when the callee back-propagates that
	// parameter.
	BackpropsVia []BackpropVia `json:"backprops_via,omitempty"`
	// SysPath are the folders the file puts on Python's import path
	// (`sys.path.append("../common")`), slash-separated and relative to
	// the file's folder: its absolute imports are looked for there too.
	SysPath []string `json:"sys_path,omitempty"`
}

// Pair is a key and its value.
type Pair struct{ Key, Value string }

// Pairs map strings to strings: a list sorted by key, each key once,
// which a project holds for every file in less room than a map takes.
type Pairs []Pair

// PairsOf lists the keys of m and their values; nil for nil.
func PairsOf(m map[string]string) Pairs {
	if m == nil {
		return nil
	}
	ps := make(Pairs, 0, len(m))
	for k, v := range m {
		ps = append(ps, Pair{k, v})
	}
	slices.SortFunc(ps, func(a, b Pair) int { return strings.Compare(a.Key, b.Key) })
	return ps
}

// Get returns the value of key, and whether key has one.
func (ps Pairs) Get(key string) (string, bool) {
	i, ok := slices.BinarySearchFunc(ps, key, func(p Pair, key string) int { return strings.Compare(p.Key, key) })
	if !ok {
		return "", false
	}
	return ps[i].Value, true
}

// BackpropVia is one argument of Callee, at Index, holding the result of
// Result.
type BackpropVia struct {
	Callee string `json:"callee"`
	Index  int    `json:"index"`
	Result string `json:"result"`
}

// ClassSummary describes a module-level class.
type ClassSummary struct {
	Name  string   `json:"name"`
	Line  int      `json:"line"`
	Bases []string `json:"bases,omitempty"` // refs
	// Module is set when this file alone shows the class is an nn.Module.
	Module bool `json:"module,omitempty"`
	// NoGraph: calling an instance records no graph (NoGraphClass).
	NoGraph bool `json:"no_graph,omitempty"`
	// ByForward: Module rests on the class's forward alone, its bases
	// being classes of the project this file does not see into, or
	// `object` and `abc.ABC`; the project has the last word (a class
	// with a forward deriving from the project's `Attacker(ABC)` is
	// no module).
	ByForward bool `json:"by_forward,omitempty"`
	// FreezeParams are the constructor's parameters that decide what a
	// NoGraph class freezes ("name@i" for the i-th positional one, "name"
	// for a keyword-only one): an instance built with one of them passed
	// is not known to record no graph.
	FreezeParams []string `json:"freeze_params,omitempty"`
	// FrozenWith: for a module class that is not NoGraph, the arguments
	// with which its constructor freezes it (FrozenWith); FreezeParams
	// then lists every parameter that decides its freezing.
	FrozenWith []string `json:"frozen_with,omitempty"`
	// NoGraphWith: for a module class that is not NoGraph, the literal
	// arguments with which a call of an instance takes only arms of its
	// forward that record no graph (NoGraphWith: "mode@1=inference").
	NoGraphWith []string `json:"no_graph_with,omitempty"`
	// AttrClasses are, for a class that is no module, the attributes of
	// self that its methods assign, once, an instance of a class they
	// construct (`self.encoder = Encoder(...)`: "encoder" → the ref of
	// Encoder): the project says which of those classes are modules
	// (ModuleAttrs).
	AttrClasses Pairs `json:"attr_classes,omitempty"`
	// Plain: a class with a `forward` or a `__call__`, no base but
	// `object` or `abc.ABC`, whose body uses nothing of torch and calls no
	// method it does not define (plainClass): a NumPy network or loss,
	// whose instances' calls run no model; or a custom autograd operation
	// (a subclass of torch.autograd.Function), which holds no parameter.
	Plain bool `json:"plain,omitempty"`
	// ParamFree: a module class that builds no parameter that takes part
	// in autograd, where its bases of the project build none either
	// (ownParamFree): what derives from it or holds an instance of it
	// adds none.
	ParamFree bool `json:"param_free,omitempty"`
	// ParamFreeBases: how many bases of the project (of this file or
	// another) ParamFree counts on building none; the project checks
	// them.
	ParamFreeBases int `json:"param_free_bases,omitempty"`
	// ParamFreeHolds: the classes of other files (refs) whose instances
	// ParamFree counts on holding no parameter (`self.func =
	// PoolFunction(scale)`, then `self.func(x)`); the project checks that
	// each is plain (Plain) or builds no parameter (ParamFree).
	ParamFreeHolds []string `json:"param_free_holds,omitempty"`
	// NoModeLayers: a module class with no layer that computes otherwise
	// in evaluation mode (dropout, batch norm, code reading
	// `self.training`), where its bases of the project have none either
	// (classLayers).
	NoModeLayers bool `json:"no_mode_layers,omitempty"`
	// ModeLayerBases: how many bases of the project (of this file or
	// another) NoModeLayers counts on having none; the project checks
	// them.
	ModeLayerBases int `json:"mode_layer_bases,omitempty"`
	// ModeLayers: a module class with such a layer, of its own or of its
	// bases in this file; the project adds those of its other bases.
	ModeLayers bool `json:"mode_layers,omitempty"`
}

// FuncSummary describes a module-level function or a method of a
// module-level class. A project holds one for each function it defines:
// what few functions do is kept apart, in Rare.
type FuncSummary struct {
	Name string `json:"name"` // "f" or "Class.f"
	Line int    `json:"line"`
	// Grad is the mode a decorator or a framework sets for the body;
	// GradSet says whether one does.
	Grad    GradMode `json:"grad,omitempty"`
	GradSet bool     `json:"grad_set,omitempty"`
	// Wraps is the mode in which the function, as a decorator, runs the
	// function it is given; WrapsSet says whether it sets one.
	Wraps    GradMode `json:"wraps,omitempty"`
	WrapsSet bool     `json:"wraps_set,omitempty"`
	// Enters is the mode a `with` on the function's result sets: every
	// return is a grad switch of that mode (`return torch.no_grad()`);
	// EntersSet says whether they are.
	Enters    GradMode `json:"enters,omitempty"`
	EntersSet bool     `json:"enters_set,omitempty"`
	// Escapes is set when the file uses the function other than by
	// calling it or handing it to a new thread or process to run.
	Escapes bool `json:"escapes,omitempty"`
	// ReturnsGraph is set when the file alone shows the function returns
	// a value with autograd history (Rare's Returns are the refs whose
	// results it returns, for what other files show).
	ReturnsGraph bool `json:"returns_graph,omitempty"`
	// OwnNoGrad is set when the body runs a forward pass under a
	// `no_grad` of its own (`with torch.no_grad(): self.model(x)`).
	OwnNoGrad bool `json:"own_no_grad,omitempty"`
	// Activation is the output layer every return of the function comes
	// from, computed at Rare's ActivationAt.
	Activation Activation `json:"activation,omitempty"`
	// needsGrad: the function back-propagates or asks for gradients;
	// trained are then the forward passes and parameter calls it runs in
	// its callers' grad mode, for a call that skips its backward
	// (FlaggedHelper).
	needsGrad bool
	trained   *Object
	// Rare is what the function does that few functions do, nil when it
	// does none of it; RareFacts reads it.
	Rare *RareFuncFacts `json:"rare,omitempty"`
}

// RareFuncFacts are the facts of a function that few functions have.
type RareFuncFacts struct {
	// Returns are the refs whose results the function returns.
	Returns []string `json:"returns,omitempty"`
	// TupleLen is the length of the tuple every return of the function
	// builds (`return out, loss, dist`), 0 where they do not; GraphElems
	// are the positions of its elements with autograd history.
	TupleLen   int   `json:"tuple_len,omitempty"`
	GraphElems []int `json:"graph_elems,omitempty"`
	// ElemParams are, for a function every return of which builds a
	// tuple of the same length, the positional parameters whose graph
	// reaches each element (`return mf + emb, mf, emb` from the
	// embeddings it is given): which elements a call's arguments give a
	// graph. Nil where no element takes one.
	ElemParams [][]int `json:"elem_params,omitempty"`
	// BackpropElems are the positions, in the tuple every return builds,
	// of the values the function back-propagates on every call before
	// returning them, or [-1] where every return is one such value
	// (`return loss` after `loss.backward()`).
	BackpropElems []int `json:"backprop_elems,omitempty"`
	// GraphParams are the positional parameters whose graph the result
	// keeps (`return ((pred - y) ** 2).mean()`): a call passing a value
	// with a graph there gets a result with one.
	GraphParams []int `json:"graph_params,omitempty"`
	// DropsArgs is set where the graph of whatever the function is given
	// ends in it (DropsArgs): its result and its body keep none of it.
	DropsArgs bool `json:"drops_args,omitempty"`
	// CutParams are the positional parameters whose every use in the
	// body ends their graph (`pred = pred.argmax(1).float()`): what a
	// call passes there reaches neither the result nor anything kept.
	CutParams []int `json:"cut_params,omitempty"`
	// EndsReturns is, for a module's forward every return of which ends
	// its graph (`return self.model(**x).detach().squeeze()`), the call or
	// attribute that ends it first ("detach()", "item()", "data"): a call
	// of the module records a graph that outlives no pass.
	EndsReturns string `json:"ends_returns,omitempty"`
	// FreezesParams are the positional parameters (past self) whose every
	// parameter the function takes out of autograd on each call with its
	// default arguments (`def freeze(model): for p in model.parameters():
	// p.requires_grad = False`): what a call passes there is frozen.
	FreezesParams []int `json:"freezes_params,omitempty"`
	// Makes is the ref of the class whose instance every return of the
	// function builds (`def load_inception(): net = InceptionV3([3]);
	// return net`): a call of it makes one, which other files ask about
	// as they ask about the class (NoGraph). MakesArgs are the arguments
	// the function's constructions pass: "#n" for n positional ones, the
	// names of keyword ones, "*" for a splat.
	Makes     string   `json:"makes,omitempty"`
	MakesArgs []string `json:"makes_args,omitempty"`
	// StateGraph is set on a module's forward that reads an attribute of
	// its object holding a graph built once, outside any call of it
	// (`self.mask_e = self.embedding(mask_id)` in __init__): every
	// output's graph shares that part, which each backward runs through.
	StateGraph bool `json:"state_graph,omitempty"`
	// BackpropParams are the positional parameters whose graph the body
	// back-propagates (`def step(loss): loss.backward()`): a caller's
	// value passed there has had its backward.
	BackpropParams []int `json:"backprop_params,omitempty"`
	// BackpropAttrs are the attributes of self whose graph a method
	// back-propagates (`self.loss_G.backward()`): what a subclass puts
	// there before calling it has its backward.
	BackpropAttrs []string `json:"backprop_attrs,omitempty"`
	// BackpropVia are the methods of base classes in other files that
	// the method calls on self (`super().backward_G()`): the attributes
	// they back-propagate, it does too.
	BackpropVia []string `json:"backprop_via,omitempty"`
	// Forward is the first forward pass the body runs in the grad mode
	// of its callers; EmptyCache the first torch.cuda.empty_cache() it
	// calls on every run.
	Forward    *Site `json:"forward,omitempty"`
	EmptyCache *Site `json:"empty_cache,omitempty"`
	// HandsBack: a function, not a module's method, whose every forward
	// pass in its callers' grad mode gives outputs that go only to the
	// host or to its return value, and one at least to its return value
	// (HandsBack): its callers' use of the result says whether the passes
	// are trained.
	HandsBack bool `json:"hands_back,omitempty"`
	// HostOnly: a function, not a module's method, whose every forward
	// pass in its callers' grad mode gives outputs that only reach the
	// host in its own body (HostOnly): where grad is enabled, its passes
	// are reported there, not at its calls.
	HostOnly bool `json:"host_only,omitempty"`
	// Abstract: a method left to its subclasses (abstractMethod), whose
	// calls run their overrides.
	Abstract bool `json:"abstract,omitempty"`
	// NeedsGrad: the function back-propagates or asks for gradients
	// itself (a saliency map's __call__): the forward passes it runs
	// through what it calls are its own to train, none run in its
	// callers' grad mode for them to judge.
	NeedsGrad bool `json:"needs_grad,omitempty"`
	// ParamCalls are the positional parameters the body calls in its
	// callers' grad mode (`m(x)` in `def run(m, x)`), each with the first
	// such call: a forward pass when the caller passes a model.
	ParamCalls []ParamCall `json:"param_calls,omitempty"`
	// Keeps are the positional parameters a method adds into an
	// attribute of self, which outlives the call (`self.sum += val * n`,
	// `self.total.add_(val)`,
	// `self.values.append(val)`), each with the first attribute it goes
	// into.
	Keeps []ParamCall `json:"keeps,omitempty"`
	// StepSites: the first places the body itself clears gradients,
	// back-propagates, switches a module's mode or reads a tensor on the
	// host.
	StepSites
	// ActivationAt is where the function's Activation is computed.
	ActivationAt *Site `json:"activation_at,omitempty"`
}

// HandsBack reports, where TL201 sets it, whether every forward pass
// function def runs in its callers' grad mode gives outputs that go only
// to the host or to def's return value, and one at least to the return
// value. A summary keeps its answer for the functions of other files
// that call def.
var HandsBack func(m *Model, def NodeID) bool

// HostOnly reports, where TL201 sets it, whether every forward pass
// function def runs in its callers' grad mode gives outputs that only
// reach the host in def's body, where TL201 judges them. A summary
// keeps its answer for the functions of other files that call def.
var HostOnly func(m *Model, def NodeID) bool

// FrozenAtCall returns, where TL201 sets it, the positional arguments of
// a call (bits by position, the first 16) that are modules frozen before
// it or built frozen, as TL201 reads freezing. A summary keeps its
// answer for the functions of other files that the call runs.
var FrozenAtCall func(m *Model, call NodeID) uint16

// noRareFuncFacts are those of a function without any.
var noRareFuncFacts RareFuncFacts

// RareFacts returns fs.Rare, or none when it is nil or fs is (a class
// or an instance has no summary of a function). What it returns is not
// to be changed.
func (fs *FuncSummary) RareFacts() *RareFuncFacts {
	if fs == nil || fs.Rare == nil {
		return &noRareFuncFacts
	}
	return fs.Rare
}

// IsZero reports whether r holds none of the facts.
func (r *RareFuncFacts) IsZero() bool {
	return len(r.Returns) == 0 && r.TupleLen == 0 && len(r.GraphElems) == 0 && len(r.ElemParams) == 0 && len(r.BackpropElems) == 0 && len(r.GraphParams) == 0 && !r.DropsArgs && len(r.CutParams) == 0 && r.EndsReturns == "" && len(r.FreezesParams) == 0 && !r.StateGraph && r.Makes == "" && len(r.MakesArgs) == 0 &&
		len(r.BackpropParams) == 0 && len(r.BackpropAttrs) == 0 && len(r.BackpropVia) == 0 &&
		r.Forward == nil && !r.HandsBack && !r.HostOnly && !r.Abstract && !r.NeedsGrad && r.EmptyCache == nil && len(r.ParamCalls) == 0 && len(r.Keeps) == 0 &&
		!r.HasSteps() && r.ActivationAt == nil
}

// ParamCall is a call of a function's parameter by its position among
// the arguments a caller passes (self and cls not counted).
type ParamCall struct {
	Index int   `json:"index"`
	Site  *Site `json:"site"`
	// Bounded marks a kept parameter whose container holds at most a
	// bound (a deque with maxlen, a store under a test of its length):
	// it keeps that many values, not every one.
	Bounded bool `json:"bounded,omitempty"`
}

// CallSummary is a call of a ref: the first of the calls of the same
// ref by the same caller in the same mode.
type CallSummary struct {
	Callee string `json:"callee"`
	Caller string `json:"caller,omitempty"` // the summarized function it is in; "" at module level
	Line   int    `json:"line"`
	// Grad is the mode the caller's own code sets at the call; Inherit
	// says it sets none, so the call runs in the caller's mode.
	Grad    GradMode `json:"grad,omitempty"`
	Inherit bool     `json:"inherit,omitempty"`
	// Always is set when the call runs on every run of its caller (not
	// under an if, a try or a loop's else).
	Always bool `json:"always,omitempty"`
	// Loop is set when the call runs on every iteration of a loop of its
	// caller (RepeatingLoop).
	Loop bool `json:"loop,omitempty"`
	// Eval is one more than the position of the positional argument that
	// the caller switched to evaluation mode before the call (EvalArg),
	// 0 for none.
	Eval int `json:"eval,omitempty"`
	// Module has bit i set where the caller's code shows that positional
	// argument i is a module, by what it does with it (ModuleArgs), not
	// by its name.
	Module uint16 `json:"module,omitempty"`
	// Frozen has bit i set where positional argument i is a module the
	// caller froze before the call, or built frozen (FrozenAtCall): it
	// records no graph.
	Frozen uint16 `json:"frozen,omitempty"`
}

// Site is a place in a file, with the code there, for messages and
// related locations.
type Site struct {
	Path   string `json:"path,omitempty"` // relative to the project root, for messages
	Abs    string `json:"abs,omitempty"`  // the file's absolute path
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Text   string `json:"text"`
}

// Object is what the project knows of the target of a ref.
type Object struct {
	Kind ObjectKind
	Site Site // where it is defined
	// Module: a class that is an nn.Module, or a module-level instance of
	// one.
	Module bool
	// NoGraph: a module class, or a module-level instance of one, whose
	// instances record no graph when called on inputs that need none
	// (NoGraphClass).
	NoGraph bool
	// FreezeParams: for a NoGraph class, the constructor's parameters
	// that decide what it freezes (ClassSummary.FreezeParams).
	FreezeParams []string
	// FrozenWith: for a class that is not NoGraph, the arguments that
	// build it frozen (ClassSummary.FrozenWith). Asked with WantNoGraph.
	FrozenWith []string
	// NoGraphWith: for a class that is not NoGraph, the arguments with
	// which a call of an instance records no graph
	// (ClassSummary.NoGraphWith). Asked with WantNoGraph.
	NoGraphWith []string
	// ModuleAttrs: for a class, the attributes of self its methods assign
	// an instance of a module class, by ClassSummary.AttrClasses and what
	// the project knows of each class. Asked with WantModule.
	ModuleAttrs []string
	// Plain: a class of the project that is no module and computes
	// nothing with torch, though it has a `forward` or a `__call__`
	// (ClassSummary.Plain). Asked with WantModule.
	Plain bool
	// ParamFree: a module class that builds no parameter that takes part
	// in autograd (ClassSummary.ParamFree). Asked with WantLayers.
	ParamFree bool
	// NoModeLayers: a module class with no layer that computes otherwise
	// in evaluation mode (ClassSummary.NoModeLayers). Asked with
	// WantLayers.
	NoModeLayers bool
	// ModeLayers: a module class with such a layer (ClassSummary.ModeLayers,
	// and its bases'). Asked with WantLayers.
	ModeLayers bool
	// ReturnsGraph: a function whose result carries autograd history.
	ReturnsGraph bool
	// TupleLen and GraphElems: where in the tuple it returns the graph
	// is (see FuncSummary); TupleLen 0 says nothing.
	TupleLen   int
	GraphElems []int
	// ElemParams: where in the tuple it returns the graph of each of its
	// parameters goes (FuncSummary's). Asked with WantParams.
	ElemParams [][]int
	// BackpropElems: where in what it returns a function returns what it
	// back-propagated (FuncSummary's). Asked with WantReturns.
	BackpropElems []int
	// GraphParams: the parameters whose graph a function's result keeps.
	GraphParams []int
	// DropsArgs: a function that ends the graph of whatever it is given.
	DropsArgs bool
	// CutParams: the parameters whose graph every use in the function
	// ends.
	CutParams []int
	// EndsReturns: how a module's forward ends the graph of every value
	// it returns (RareFuncFacts.EndsReturns). Asked with WantEnds.
	EndsReturns string
	// FreezesParams: the parameters whose module the function freezes
	// on every call (RareFuncFacts.FreezesParams).
	FreezesParams []int
	// StateGraph: a module's forward whose outputs share a graph built
	// once, in its object's state.
	StateGraph bool
	// BackpropParams: the parameters whose graph a function
	// back-propagates.
	BackpropParams []int
	// BackpropAttrs: the attributes of self a method back-propagates.
	BackpropAttrs []string
	// Grad is the mode a function's body runs in, as its decorators or
	// every one of its callers in the project set it; GradKnown says
	// whether they do.
	Grad      GradMode
	GradKnown bool
	// Wraps is the mode in which a decorator runs the function it is
	// given (`@nograd`, defined by the project); WrapsKnown says whether
	// it sets one.
	Wraps      GradMode
	WrapsKnown bool
	// Enters is the mode a `with` on a function's result sets (`with
	// no_grad_for(model):`, defined by the project); EntersKnown says
	// whether it sets one.
	Enters      GradMode
	EntersKnown bool
	// Forward: a forward pass the function runs, itself or through the
	// functions it calls, in its callers' grad mode.
	Forward *Site
	// HandsBack: Forward is the function's own, and every forward pass
	// it runs hands its outputs only to the host or to its result
	// (RareFuncFacts.HandsBack). Asked with WantHelper.
	HandsBack bool
	// HostOnly: Forward is the function's own, and every forward pass it
	// runs gives outputs that only reach the host in its body
	// (RareFuncFacts.HostOnly): reported there. Asked with WantHelper.
	HostOnly bool
	// ParamCalls: the parameters it calls in its callers' grad mode; a
	// forward pass where the caller passes a model.
	ParamCalls []ParamCall
	// EmptyCache: a torch.cuda.empty_cache() it calls on every run,
	// itself or through the functions it calls; EmptyCacheBy, where it
	// is one an override of an abstract method calls (`Flusher.observe`
	// for `self.observe(x)`), names that override: the call flushes
	// only on objects of its class.
	EmptyCache   *Site
	EmptyCacheBy string
	// Keeps: the parameters a method adds into an attribute of self.
	Keeps []ParamCall
	// StepSites: what a function does to a training step's state, itself
	// or through the functions it calls.
	StepSites
	// Activation: the output layer a function's returns come from.
	Activation   Activation
	ActivationAt *Site
	// ResultBackprop: a function whose result a caller back-propagates,
	// in a file of the project, or through the functions that return it.
	ResultBackprop bool
	// CalledElsewhere: a function its own file never calls, whose grad
	// mode calls in other files of the project set (of it, or of its
	// method name on objects of no known class).
	CalledElsewhere bool
	// CalledByName: CalledElsewhere, where only calls of its method name
	// on objects of no known class (`self.decoder.decode(z)`) set it.
	CalledByName bool
	// NamedOff: for CalledByName, a call of its method name on objects of
	// no known class that runs with grad disabled (the first in path and
	// line order): the calls by name disagree, so which of them reach
	// this method is not known.
	NamedOff *Site
	// CallersAssumed: for CalledElsewhere, where every call that sets its
	// mode runs in its caller's mode, and nothing of the project sets the
	// caller's own (a module's `forward_test`, run from its `forward`):
	// the first such call, its Text the caller's name.
	CallersAssumed *Site
	// RepeatedBy: a call of a function, with grad not disabled, that runs
	// on every iteration of a loop of its caller (CallSummary.Loop): by
	// its ref, or by its method name on objects of no known class where
	// those calls set its mode (CalledByName); the first in path and line
	// order. Asked with WantRepeated.
	RepeatedBy *Site
	// EnabledElsewhere: a function with grad enabled that a call in
	// another file of the project runs with grad enabled (by its ref, or
	// by its method name on objects of no known class), or that is used
	// as a value there: its own file's calls do not alone set its mode.
	EnabledElsewhere bool
	// EnabledBy: for a function every call of which in its own file
	// disables grad, while one in another file runs it with grad enabled
	// (Grad enabled and known): that call, the first in path and line
	// order. Asked with WantCallers.
	EnabledBy *Site
	// ByMethodName: the answer to a method called on an object of no
	// known class (`model.predict(x)`, model a parameter), from the
	// methods of that name the project defines (Classes: their classes,
	// at most a few).
	ByMethodName bool
	Classes      []string
	// EvalCalls: every call of a function in the project, each in code
	// with grad enabled, hands the same parameter (Index) a module that
	// its caller switched to evaluation mode before it (CallSummary's
	// Eval); the calls, at most a few. Nil otherwise.
	EvalCalls []ParamCall
	// ModuleCalls: for each parameter (Index) that every call of a
	// function in the project hands a module (CallSummary's Module), the
	// first such call. Nil where there is none.
	ModuleCalls []ParamCall
	// FrozenCalls: for each parameter (Index) that every call of a
	// function in the project hands a module frozen before the call
	// (CallSummary's Frozen), the first such call. Asked with
	// WantModuleCalls.
	FrozenCalls []ParamCall
}

// runsNoForward reports whether a helper's answer (nil: nothing to say)
// shows it runs no forward pass in its callers' grad mode and calls none
// of its parameters.
func (o *Object) runsNoForward() bool {
	return o == nil || o.Forward == nil && len(o.ParamCalls) == 0
}

// ObjectKind says what a ref names.
type ObjectKind uint8

// The kinds of object facts describe.
const (
	ObjectFunction ObjectKind = iota + 1
	ObjectClass
	ObjectInstance
)

// Facts answers a file's questions about the rest of its project. The
// answers must not depend on the order of the questions, so that the
// project layer can record them and tell when a file's findings are out
// of date.
type Facts interface {
	// Lookup returns the facts named by want of the object ref names, or
	// nil when ref is not defined in the project or none of those facts
	// holds of it: an answer holds only what was asked, so that a file's
	// findings depend on no more than they read.
	Lookup(ref string, want Want) *Object
	// Star returns the ref a name bound by the file's star imports
	// refers to, or "".
	Star(name string) string
}

// Want names the facts a question reads.
type Want uint32

// The facts a question can ask for. Every answer has Kind and Site.
const (
	WantModule     Want = 1 << iota // Module
	WantReturns                     // ReturnsGraph
	WantGrad                        // Grad and GradKnown
	WantHelper                      // Forward and EmptyCache
	WantKeeps                       // Keeps
	WantSteps                       // StepSites
	WantActivation                  // Activation
	// WantParams: GraphParams and BackpropParams. Apart from WantReturns,
	// so that a question about ReturnsGraph alone (most are) does not
	// change its answer when a function's parameters' facts do.
	WantParams
	// WantKind: Kind and Site alone, whatever else holds: whether the
	// project defines the object.
	WantKind
	WantBackprop // ResultBackprop
	WantNoGraph  // NoGraph
	// WantCallers: CalledElsewhere. Apart from WantGrad, and asked only
	// of a function a finding is reported in, so that the grad mode's
	// questions keep their answers.
	WantCallers
	WantEvalCalls // EvalCalls
	// WantHostRead: with WantSteps, StepSites.HostRead too. Apart from
	// WantSteps, so that the rules that ask what a step switches or
	// back-propagates do not change their answers when a function's
	// reads on the host do.
	WantHostRead
	WantLayers      // ParamFree, NoModeLayers and ModeLayers
	WantModuleCalls // ModuleCalls
	// WantRepeated: RepeatedBy. Apart from WantCallers, so that the
	// questions of where else a function is called keep their answers
	// when the loops that run it do not matter to them.
	WantRepeated
	WantEnds // EndsReturns
)

// SetFacts hands the model what the rest of the project knows. It must be
// called before any rule asks anything. What the model worked out before
// is computed afresh; when the facts are taken away (nil), only what read
// an answer of theirs is (see taint.go).
func (m *Model) SetFacts(facts Facts) {
	if facts == nil && m.facts != nil {
		// What read no answer of the project holds without it.
		m.facts = nil
		m.dropFacts()
		return
	}
	m.facts = facts
	m.factReads, m.evidenceTainted = 0, false
	m.funcGrad, m.decoGrad, m.carries, m.memo, m.callNames, m.gradAt, m.evidence, m.helpers = nil, nil, nil, nil, nil, nil, nil, nil
	m.forwardAt = nil
}

// lookup asks the project about a ref; nil without facts.
func (m *Model) lookup(ref string, want Want) *Object {
	if m.facts == nil || ref == "" {
		return nil
	}
	if ref[0] != '#' && ref[0] != '.' && !strings.Contains(ref, ".") {
		return nil // a module, or a builtin: never a function or class of the project
	}
	o := m.facts.Lookup(ref, want)
	if o != nil {
		m.readFact()
	}
	return o
}

// Helper returns what the project knows of the function a call calls (an
// imported one, or one of this file) that matters to a caller's loop or
// grad mode: the forward pass it runs and the empty_cache() it calls in
// its caller's mode. Nil when it does neither, or is not a function of
// the project.
//
// A function of this file is judged from this file, asking the project
// only about the functions it calls from elsewhere: its facts never wait
// for the file's own summary to reach the project.
func (m *Model) Helper(call NodeID) *Object {
	if h, ok := m.helpers[call]; ok {
		if h.tainted {
			m.readFact()
		}
		return h.o
	}
	n := m.factReads
	o := m.helper(call)
	if m.helpers == nil {
		m.helpers = make(map[NodeID]helperAnswer)
	}
	m.helpers[call] = helperAnswer{o, m.readsSince(n)}
	return o
}

func (m *Model) helper(call NodeID) *Object {
	f := m.File
	ref := m.calleeRef(call)
	if strings.HasPrefix(ref, "#") {
		return m.localHelper(call, 0)
	}
	if ref == "" && f.Kind(f.Field(call, FieldFunction)) == KindIdentifier && m.LocalCallee(call) != NoNode {
		return m.localHelper(call, 0) // a function nested in another
	}
	if ref == "" {
		return m.helperByMethodName(call)
	}
	o := m.lookup(ref, WantHelper)
	if o == nil || o.Kind != ObjectFunction {
		return nil
	}
	return o
}

// CalleeHostOnly reports whether call runs a function of another file
// whose forward passes all end on the host in its body (Object.HostOnly)
// and whose grad mode the project's calls show to be enabled: TL201
// reports those passes there, where the fix goes, with nothing assumed
// of the mode, rather than at each call.
func (m *Model) CalleeHostOnly(call NodeID) bool {
	ref := m.calleeRef(call)
	if ref == "" || strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, "*.") {
		return false
	}
	o := m.lookup(ref, WantHelper|WantGrad|WantCallers)
	if o == nil || o.Kind != ObjectFunction || !o.HostOnly || o.Forward == nil || o.Forward.Abs == m.File.Path {
		return false
	}
	// Its mode: set by calls of the project, or by calls in other files
	// than its own (CalledElsewhere), none known by a method name alone
	// or run in callers' modes that nothing sets.
	return o.GradKnown && o.Grad == GradEnabled || o.CalledElsewhere && !o.CalledByName && o.CallersAssumed == nil
}

// helperByMethodName answers, for a method called on a value that is a
// model by what the code does with it or by its name but of no class
// the file knows (`model.predict(x)`, model a parameter), what the
// project's methods of that name run (anyHelper): each a method of a
// module class that runs a forward pass.
func (m *Model) helperByMethodName(call NodeID) *Object {
	ref := m.modelMethodRef(call)
	if ref == "" {
		return nil
	}
	o := m.lookup(ref, WantHelper)
	if o == nil || o.Kind != ObjectFunction || o.Forward == nil {
		return nil
	}
	return o
}

// modelMethodRef returns the ref that names, by their name alone, the
// project's methods a call may run (`*.predict`), where the call is a
// method of a value that is a model by what the code does with it or by
// its name but of no class the file knows (`model.predict(x)`, model a
// parameter), and not one every module has; else "".
func (m *Model) modelMethodRef(call NodeID) string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindAttribute {
		return ""
	}
	recv := f.Unparen(f.Field(fn, FieldObject))
	switch {
	case f.Kind(recv) == KindIdentifier:
		if f.TextIs(recv, "self") || f.TextIs(recv, "cls") {
			return ""
		}
	case f.Kind(recv) == KindAttribute && f.TextIs(f.Unparen(f.Field(recv, FieldObject)), "self"):
		// `self.policy.act(obs)`: a model the object keeps, of no class
		// the file knows (handed to its constructor).
	default:
		return ""
	}
	if c := m.receiverClass(recv); c != NoNode {
		// Of a class the file knows; not of one a parameter hands in
		// (`agent = Model(envs)`, Model a parameter).
		if b := m.Resolve(c); f.Kind(c) != KindIdentifier || b == nil || b.Kind != BindParam {
			return ""
		}
	}
	if name := f.Text(f.Field(fn, FieldAttribute)); strings.HasPrefix(name, "__") || name == "forward" || moduleUses[name] || moduleMoves[name] {
		return "" // the module's own call, or what every module has
	}
	ref := m.nameOnlyRef(call)
	if ref == "" || m.ClassifyCallee(recv) != CallableModel {
		return ""
	}
	return ref
}

type helperKey struct{ def NodeID }

// Keeper returns what the project knows of the method a call calls when
// that method adds some of its parameters into an attribute of its
// object (Keeps): a running total or list that outlives the call. Nil
// otherwise.
func (m *Model) Keeper(call NodeID) *Object {
	ref := m.calleeRef(call)
	if strings.HasPrefix(ref, "#") {
		def := m.LocalCallee(call)
		if def == NoNode {
			return nil
		}
		return m.Memo(keeperKey{def}, func() any {
			fs := m.summarizeFunc(def, ref[1:])
			keeps := fs.RareFacts().Keeps
			if len(keeps) == 0 {
				return (*Object)(nil)
			}
			o := &Object{Kind: ObjectFunction, Keeps: slices.Clone(keeps)} // ownSites rewrites its sites
			m.ownSites(o, def)
			return o
		}).(*Object)
	}
	o := m.lookup(ref, WantKeeps)
	if o == nil || o.Kind != ObjectFunction {
		return nil
	}
	return o
}

type keeperKey struct{ def NodeID }

// ownSites names an object of this file's function def, and the sites in
// it that no other file gave, by the file's base name in messages, with
// the file itself as their related location.
func (m *Model) ownSites(o *Object, def NodeID) {
	f := m.File
	base := filepath.Base(f.Path)
	o.Site = Site{Path: base, Abs: f.Path, Line: f.Position(f.N(def).Start).Line, Text: m.defName(def)}
	sites := append([]**Site{&o.Forward, &o.EmptyCache, &o.ActivationAt}, o.StepFields()...)
	for i := range o.ParamCalls {
		sites = append(sites, &o.ParamCalls[i].Site)
	}
	for i := range o.Keeps {
		sites = append(sites, &o.Keeps[i].Site)
	}
	for _, s := range sites {
		if *s != nil && (*s).Path == "" {
			*s = m.localSite(*s)
		}
	}
}

// localHelper is Helper for a call of a function of this file.
func (m *Model) localHelper(call NodeID, depth int) *Object {
	return m.localHelperOf(m.LocalCallee(call), depth)
}

// localHelperOf is localHelper for function def of this file.
func (m *Model) localHelperOf(def NodeID, depth int) *Object {
	if def == NoNode || depth > 8 {
		return nil
	}
	return m.Memo(helperKey{def}, func() any {
		f := m.File
		fs := m.summarizeFunc(def, m.defName(def))
		r := fs.RareFacts()
		// ownSites rewrites the sites of o's lists: copies, not the
		// summary's own.
		o := &Object{Kind: ObjectFunction, Forward: r.Forward, EmptyCache: r.EmptyCache, ParamCalls: slices.Clone(r.ParamCalls)}
		if !fs.GradSet && !fs.needsGrad {
			f.Walk(f.Field(def, FieldBody), func(id NodeID) {
				if f.Kind(id) != KindCall || m.ScopeNode(id) != def || o.Forward != nil && o.EmptyCache != nil {
					return
				}
				if _, decided := m.localGradMode(id); decided {
					return
				}
				var h *Object
				if ref := m.calleeRef(id); strings.HasPrefix(ref, "#") {
					h = m.localHelper(id, depth+1)
					if callee := m.LocalCallee(id); h == nil && callee != NoNode && m.abstractMethod(callee) {
						// `self.observe(x)`, left to subclasses: the
						// overrides of this file, or the project's.
						if h = m.overrideFlush(callee, depth+1); h == nil {
							h = m.lookup(ref, WantHelper)
						}
					}
				} else if ref != "" {
					h = m.lookup(ref, WantHelper)
				}
				if h == nil {
					return
				}
				if o.Forward == nil {
					o.Forward = h.Forward
				}
				if o.EmptyCache == nil && m.always(id, def) {
					o.EmptyCache, o.EmptyCacheBy = h.EmptyCache, h.EmptyCacheBy
				}
			})
		}
		if o.Forward == nil && o.EmptyCache == nil && len(o.ParamCalls) == 0 {
			return (*Object)(nil)
		}
		m.ownSites(o, def)
		return o
	}).(*Object)
}

// overrideFlush returns, for abstract method def of a module-level class,
// the helper facts of the first override, in a subclass of this file,
// that empties the cache on every run, with EmptyCacheBy naming it; nil
// for none.
func (m *Model) overrideFlush(def NodeID, depth int) *Object {
	class := m.EnclosingClass(def)
	if class == NoNode || m.ScopeNode(class) != Root {
		return nil
	}
	f := m.File
	name := f.Text(f.Field(def, FieldName))
	for i := range m.binds {
		b := &m.binds[i]
		if b.Kind != BindClass || b.Scope != 0 || b.Stmt == class || !m.subclassOf(b.Stmt, class) {
			continue
		}
		over := m.MethodOf(b.Stmt, name)
		if over == NoNode || m.EnclosingClass(over) != b.Stmt {
			continue
		}
		if h := m.localHelperOf(over, depth); h != nil && h.EmptyCache != nil {
			by := h.EmptyCacheBy
			if by == "" {
				by = f.Text(f.Field(b.Stmt, FieldName)) + "." + name
			}
			return &Object{Kind: ObjectFunction, EmptyCache: h.EmptyCache, EmptyCacheBy: by}
		}
	}
	return nil
}

// localRef returns the ref of a module-level function or class, or of a
// method of a module-level class, defined by def; "" for anything else.
func (m *Model) localRef(def NodeID) string {
	if r, ok := m.localRefs[def]; ok {
		return r
	}
	if m.localRefs == nil {
		m.localRefs = map[NodeID]string{}
	}
	r := m.findLocalRef(def)
	m.localRefs[def] = r
	return r
}

// findLocalRef is localRef without its memo.
func (m *Model) findLocalRef(def NodeID) string {
	f := m.File
	name := f.Text(f.Field(def, FieldName))
	s := m.scopeOf[def]
	if s == 0 {
		return "#" + name
	}
	class := m.EnclosingClass(def)
	if class != NoNode && m.scopeOf[class] == 0 && m.defScope[class] == s {
		return "#" + f.Text(f.Field(class, FieldName)) + "." + name
	}
	return ""
}

// defName names a function of this file in facts and messages: its ref
// without the "#" ("train", "Net.forward"), or, for a function nested in
// another, its own name.
func (m *Model) defName(def NodeID) string {
	if r := strings.TrimPrefix(m.localRef(def), "#"); r != "" {
		return r
	}
	return m.File.Text(m.File.Field(def, FieldName))
}

// calleeRef returns the ref of what a call calls, or "".
func (m *Model) calleeRef(call NodeID) string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	switch f.Kind(fn) {
	case KindIdentifier:
		if b := m.Resolve(fn); b != nil && (b.Kind == BindFunction || b.Kind == BindClass) {
			return m.localRef(b.Stmt)
		}
	case KindAttribute:
		if obj := f.Field(fn, FieldObject); f.TextIs(obj, "self") || f.TextIs(obj, "cls") {
			if def := m.selfMethod(m.EnclosingClass(call), f.Text(f.Field(fn, FieldAttribute))); def != NoNode {
				return m.localRef(def)
			}
			return ""
		}
		if ref, _ := m.instanceMethod(fn); ref != "" {
			return ref
		}
	}
	q := m.QualifiedName(fn)
	if q == "" || isLibraryName(q) {
		return ""
	}
	return q
}

// inheritedMethodRef returns, for `self.name` in class where neither
// the class nor a base class of this file defines name, the ref of the
// method of its first base class that another file of the project may
// define (`instructor.Base.optimize`), or "". Calls through it are asked
// about where they are judged, not recorded in the file's summary: most
// such methods are a library's.
func (m *Model) inheritedMethodRef(class NodeID, name string) string {
	if class == NoNode || m.selfMethod(class, name) != NoNode {
		return ""
	}
	if refs := m.baseMethodRefs(class, name); len(refs) > 0 {
		return refs[0]
	}
	return ""
}

// selfMethod returns the definition of the method `self.name` calls in
// class: its own, else the nearest base class's of this file; NoNode
// when neither defines it.
func (m *Model) selfMethod(class NodeID, name string) NodeID {
	if class == NoNode {
		return NoNode
	}
	if def := m.MethodOf(class, name); def != NoNode {
		return def
	}
	return m.nearestBase(class, func(base NodeID) NodeID { return m.MethodOf(base, name) })
}

// instanceMethod resolves `x.name`, where x is a name bound once in its
// scope to a call of a class (`x = Net()`) or as a parameter annotated
// with one (`x: Net`), to the method it names: "#Net.name" and the
// method's definition for a module-level class of this file,
// "models.Net.name" (and NoNode) for a class another file of the project
// may define. It returns "" when the class or the method is not known.
func (m *Model) instanceMethod(attr NodeID) (ref string, def NodeID) {
	f := m.File
	obj := f.Unparen(f.Field(attr, FieldObject))
	class := m.receiverClass(obj)
	if class == NoNode && f.Kind(obj) == KindIdentifier {
		// `def test(step, model): model.pi(s)`, every call of the file
		// passing an instance of one class, of it or one it imports: that
		// class's method.
		if b := m.Resolve(obj); b != nil && b.Kind == BindParam {
			class = m.paramImportedClass(b)
		}
	}
	return m.classMethod(class, f.Text(f.Field(attr, FieldAttribute)))
}

// calledClass returns the class expression that the object a call calls
// (`model(x)`, `self.scaler(loss)`) was made by, as receiverClass finds
// it; NoNode when the callee is no name or attribute, or its class is not
// known.
func (m *Model) calledClass(call NodeID) NodeID {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if k := f.Kind(fn); k != KindIdentifier && k != KindAttribute {
		return NoNode
	}
	return m.receiverClass(fn)
}

// CalledClassName returns the qualified name of the class whose instance
// a call calls (`criterion(out, y)` after `criterion = nn.MSELoss()`:
// "torch.nn.MSELoss"), or "" where the class is not known.
func (m *Model) CalledClassName(call NodeID) string {
	if c := m.calledClass(call); c != NoNode {
		return m.QualifiedName(c)
	}
	return ""
}

// InstanceMethod is instanceMethod, for rules.
func (m *Model) InstanceMethod(attr NodeID) (ref string, def NodeID) { return m.instanceMethod(attr) }

// classMethod is instanceMethod for an instance of class.
func (m *Model) classMethod(class NodeID, name string) (ref string, def NodeID) {
	f := m.File
	if class == NoNode {
		return "", NoNode
	}
	if f.Kind(class) == KindIdentifier {
		if cb := m.Resolve(class); cb != nil && cb.Kind == BindClass {
			def := m.MethodOf(cb.Stmt, name)
			if def == NoNode || m.scopeOf[cb.Stmt] != 0 {
				return "", NoNode
			}
			return m.localRef(def), def
		}
	}
	if k := f.Kind(class); k != KindIdentifier && k != KindAttribute {
		return "", NoNode
	}
	q := m.QualifiedName(class)
	if q == "" || isLibraryName(q) {
		return "", NoNode
	}
	return q + "." + name, NoNode
}

// receiverClass returns the class expression an instance receiver was
// made by: `Net` for a name bound to `Net(...)` (more than once only
// where every binding agrees, `None` aside, and `m = m.to(device)` keeps
// the class) or a parameter annotated `Net`, and for `self.net` assigned
// once in its class, to `Net(...)`. NoNode when it is not known.
func (m *Model) receiverClass(recv NodeID) NodeID {
	return m.receiverClassAt(recv, 0)
}

func (m *Model) receiverClassAt(recv NodeID, depth int) NodeID {
	f := m.File
	if depth > 4 {
		return NoNode
	}
	switch f.Kind(recv) {
	case KindIdentifier:
		b, c, ok := m.bindingsOf(recv)
		if !ok {
			return NoNode
		}
		if c.first == c.last || m.definiteBinding(b, recv) {
			return m.bindingClass(b, recv, depth)
		}
		// Bound more than once: known where every binding agrees.
		if classes := m.boundClasses(recv, depth); len(classes) == 1 {
			return classes[0]
		}
		return NoNode
	case KindAttribute:
		obj := f.Unparen(f.Field(recv, FieldObject))
		if f.TextIs(obj, "self") {
			v := m.SelfAttrOnce(recv)
			if c := constructed(f, v); c != NoNode || v == NoNode {
				return c
			}
			if v = f.Unparen(v); f.Kind(v) == KindIdentifier {
				// `self.wh = wh`, after `wh = SigmoidBin(...).to(device)`.
				return m.receiverClassAt(v, depth+1)
			}
			return NoNode
		}
		// `metrics.meter`, `self.metrics.meter`: the attribute assigned
		// once in the class of this file that made the object.
		if _, v := m.knownClassAttr(obj, f.Text(f.Field(recv, FieldAttribute)), depth); v != NoNode {
			return constructed(f, v)
		}
	}
	return NoNode
}

// boundClasses returns the classes a name bound more than once in its
// scope is made by, each once (by its text), `None` and `m = m.to(dev)`
// aside: `Net` for a name every binding makes with `Net(...)`, `A` and
// `B` for `crit = A()` in one branch and `crit = B()` in the other. Nil
// when one binding's class is not known.
func (m *Model) boundClasses(recv NodeID, depth int) []NodeID {
	b, c, ok := m.bindingsOf(recv)
	if !ok {
		return nil
	}
	// The answer is the chain's, the same for every use of the name (a
	// long function asks it of each), but where recv is what a binding
	// of the chain moves (`model` in `model = model.to(device)`).
	key := bindKey{b.Scope, m.File.view(recv)}
	if slices.Contains(m.movedNames(key, c), recv) {
		return m.chainClasses(recv, c, depth)
	}
	return m.Memo(boundClassesKey{key, depth}, func() any { return m.chainClasses(recv, c, depth) }).([]NodeID)
}

type boundClassesKey struct {
	key   bindKey
	depth int
}

type movedNamesKey struct{ key bindKey }

// movedNames returns the names that the bindings of a chain move to a
// device or a dtype (`model` in `model = model.to(device)`).
func (m *Model) movedNames(key bindKey, c bindChain) []NodeID {
	return m.Memo(movedNamesKey{key}, func() any {
		f := m.File
		var out []NodeID
		for i := c.first; i >= 0; i = m.binds[i].next {
			if bi := &m.binds[i]; bi.Kind == BindAssign {
				if from := movedFrom(f, assignedPart(f, bi)); from != NoNode && f.Kind(from) == KindIdentifier {
					out = append(out, from)
				}
			}
		}
		return out
	}).([]NodeID)
}

// assignedPart returns the value an assignment binding gives its name:
// the assigned value, or the element at the name's place of a tuple
// written out (`train_meter, val_meter = Meter(), Meter()`); NoNode
// where that is not seen (an unpacked call, a starred element).
func assignedPart(f *File, b *Binding) NodeID {
	if !b.Unpacked {
		return b.Value
	}
	v := f.Unparen(b.Value)
	if k := f.Kind(v); k != KindExpressionList && k != KindTuple {
		return NoNode
	}
	kids := f.ChildList(v)
	i := elementPos(b.Index, len(kids))
	if i < 0 || f.Kind(kids[i]) == KindListSplat {
		return NoNode
	}
	return kids[i]
}

// chainClasses is boundClasses of recv, worked out from its chain.
func (m *Model) chainClasses(recv NodeID, c bindChain, depth int) []NodeID {
	f := m.File
	var classes []NodeID
	for i := c.first; i >= 0; i = m.binds[i].next {
		bi := &m.binds[i]
		if bi.Kind == BindAssign && !bi.Unpacked {
			v := f.Unparen(bi.Value)
			if f.Kind(v) == KindNone {
				continue
			}
			if from := movedFrom(f, v); from != NoNode && f.Kind(from) == KindIdentifier && f.TextIs(from, f.view(recv)) {
				continue // `model = model.to(device)`: the same object
			}
		}
		ci := m.bindingClass(bi, recv, depth)
		if ci == NoNode {
			return nil
		}
		if !slices.ContainsFunc(classes, func(c NodeID) bool { return f.Text(c) == f.Text(ci) }) {
			classes = append(classes, ci)
		}
	}
	return classes
}

// bindingsOf returns the binding a name refers to and the chain of all
// bindings of that name in its scope.
func (m *Model) bindingsOf(name NodeID) (*Binding, bindChain, bool) {
	b := m.Resolve(name)
	if b == nil {
		return nil, bindChain{}, false
	}
	c, ok := m.bindIndex[bindKey{b.Scope, m.File.view(name)}]
	return b, c, ok
}

// definiteBinding reports whether b is the binding of use on every path:
// a statement of its scope's own body, or of a block that holds use too
// (under no if, loop or try that use is not in as well), with no
// other binding of the name in a loop around use (which would reach use
// on the next iteration). A notebook's `aug = Jitter(...)`, rebound
// in a later cell, is such a binding for the cells between.
func (m *Model) definiteBinding(b *Binding, use NodeID) bool {
	f := m.File
	if b.Kind != BindAssign || b.Stmt == NoNode || m.scopeOf[use] != b.Scope {
		return false
	}
	scope := m.Scopes[b.Scope].Node
	// Up to the block that holds the use too (`if __name__ == "__main__":`
	// around both), the binding runs whenever that block does.
	for p := f.Parent(b.Stmt); p != NoNode && p != scope && !f.Contains(p, use); p = f.Parent(p) {
		switch f.Kind(p) {
		case KindBlock, KindModule, KindExpressionStatement:
		default:
			return false
		}
	}
	c := m.bindIndex[bindKey{b.Scope, f.view(use)}]
	for p := f.Parent(use); p != NoNode && p != scope; p = f.Parent(p) {
		if k := f.Kind(p); k != KindForStatement && k != KindWhileStatement {
			continue
		}
		for i := c.first; i >= 0; i = m.binds[i].next {
			if f.Contains(p, m.binds[i].Stmt) {
				return false // rebound in a loop around use: the next iteration sees it
			}
		}
	}
	return true
}

// knownClassAttr returns the class of this file whose instance obj is
// (its definition), and the value the class assigns once to its attribute
// attr (`self.encode = nn.Sequential(...)`); NoNode for either where
// there is none.
func (m *Model) knownClassAttr(obj NodeID, attr string, depth int) (class, value NodeID) {
	f := m.File
	c := m.receiverClassAt(obj, depth+1)
	if f.Kind(c) != KindIdentifier {
		return NoNode, NoNode
	}
	cb := m.Resolve(c)
	if cb == nil || cb.Kind != BindClass {
		return NoNode, NoNode
	}
	a := m.selfAttrs(cb.Stmt)
	if k := "self." + attr; a.count[k] == 1 {
		return cb.Stmt, a.last[k]
	}
	return cb.Stmt, NoNode
}

// bindingClass returns the class a binding of the receiver recv makes
// its value an instance of, or NoNode.
func (m *Model) bindingClass(b *Binding, recv NodeID, depth int) NodeID {
	f := m.File
	switch b.Kind {
	case BindAssign:
		v := assignedPart(f, b)
		if v == NoNode {
			return NoNode
		}
		if from := movedFrom(f, v); from != NoNode && f.Kind(from) == KindIdentifier && from != recv {
			return m.receiverClassAt(from, depth+1) // `m = model.to(device)`
		}
		return m.madeBy(constructed(f, v), depth)
	case BindParam:
		return paramType(f, b.Stmt)
	}
	return NoNode
}

// paramClass returns the class of this file that every call of the
// parameter's function passes an instance of (`evaluate(nn, X)` after
// `nn = NeuralNetMLP(...)`), where the file shows every call and no other
// file of the project calls the function; else NoNode.
func (m *Model) paramClass(b *Binding, depth int) NodeID {
	return m.paramClassOf(b, depth, false)
}

// paramImportedClass is paramClass, where the class every call passes an
// instance of may also be one the file imports (`val_epoch(model, ...)`
// after `model = MaskRCNN(...)` or `model = detection.MaskRCNN(...)`,
// MaskRCNN from another file of the project); what the project knows of
// it is asked by its qualified name.
func (m *Model) paramImportedClass(b *Binding) NodeID {
	return m.paramClassOf(b, 0, true)
}

func (m *Model) paramClassOf(b *Binding, depth int, imported bool) NodeID {
	f := m.File
	if depth > 2 {
		return NoNode
	}
	args, ok := m.paramArgs(b)
	if !ok {
		return NoNode
	}
	var class *Binding
	out, name := NoNode, ""
	for _, a := range args {
		var c NodeID
		switch a = f.Unparen(a); f.Kind(a) {
		case KindIdentifier:
			if ab := m.Resolve(a); ab != nil && ab.Kind == BindParam {
				c = m.paramClassOf(ab, depth+1, imported) // handed on by a function of the file
			} else {
				c = m.receiverClassAt(a, depth+1)
			}
		case KindCall:
			c = m.madeBy(constructed(f, a), depth+1) // `evaluate(Net(4), X)`
		default:
			return NoNode
		}
		if imported && f.Kind(c) == KindAttribute && class == nil {
			// `Generator(...)` spelled `generator.Generator(...)`, the
			// module imported.
			q := m.QualifiedName(c)
			if q == "" || isLibraryName(q) || name != "" && q != name {
				return NoNode
			}
			name, out = q, c
			continue
		}
		cb := m.Resolve(c)
		if f.Kind(c) != KindIdentifier || cb == nil {
			return NoNode
		}
		switch {
		case cb.Kind == BindClass && (class == nil && out == NoNode || cb == class):
			class, out = cb, c
		case imported && cb.Kind == BindImport && class == nil:
			q := m.QualifiedName(c)
			if q == "" || isLibraryName(q) || name != "" && q != name {
				return NoNode
			}
			name, out = q, c
		default:
			return NoNode
		}
	}
	// Calls from other files are asked of last: the answer then decides
	// the result, and a file is linted again only where it changes one.
	if o := m.lookup(m.localRef(f.Parent(f.Parent(b.Stmt))), WantCallers); o != nil && o.CalledElsewhere {
		return NoNode
	}
	return out
}

// makesRef returns the ref of the class every return of def builds an
// instance of, directly or through a name bound once to one
// (`InceptionV3([3]).to(dev)` too), where that class is the project's
// (its ref has no library's name); else "".
func (m *Model) makesRef(def NodeID) (string, []string) {
	f := m.File
	out := ""
	var args []string
	// `net.requires_grad_(True)`, `p.requires_grad = True`: the function
	// changes what it builds.
	changes := false
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		switch f.Kind(id) {
		case KindCall:
			changes = changes || m.MethodName(id) == "requires_grad_"
		case KindAssignment:
			left := f.Field(id, FieldLeft)
			changes = changes || f.Kind(left) == KindAttribute && f.TextIs(f.Field(left, FieldAttribute), "requires_grad")
		}
	})
	if changes {
		return "", nil
	}
	for _, r := range m.ReturnValues(def) {
		// `return net`, `return net.eval()`, `return Net().to(dev)`: the
		// call that builds the instance.
		v := f.Unparen(r)
		for range 6 {
			if f.Kind(v) == KindIdentifier {
				rb := m.ReachingBindings(v)
				if len(rb) != 1 || rb[0].Kind != BindAssign || rb[0].Unpacked {
					return "", nil
				}
				v = f.Unparen(rb[0].Value)
			} else if inner := movedFrom(f, v); inner != NoNode {
				v = f.Unparen(inner)
			} else {
				break
			}
		}
		if f.Kind(v) != KindCall {
			return "", nil
		}
		ref := m.calleeRef(v)
		if ref == "" || out != "" && ref != out || strings.HasPrefix(ref, "*") {
			return "", nil
		}
		if c := f.Unparen(f.Field(v, FieldFunction)); strings.HasPrefix(ref, "#") {
			if b := m.Resolve(c); b == nil || b.Kind != BindClass {
				return "", nil // a local function, not a class
			}
		} else if isLibraryName(ref) {
			return "", nil
		}
		out = ref
		args = append(args, argKinds(f, v)...)
	}
	return out, compactArgs(args)
}

// madeBy returns the class a callee makes: the callee itself, or, for a
// function of this file whose every return builds an instance of one
// class of this file (`def create(name): ...; return AutoShape(net)`),
// that class.
func (m *Model) madeBy(callee NodeID, depth int) NodeID {
	f := m.File
	b := m.Resolve(callee)
	if f.Kind(callee) != KindIdentifier || b == nil || b.Kind != BindFunction || depth > 4 {
		return callee
	}
	var class *Binding
	for _, r := range m.ReturnValues(b.Stmt) {
		c := m.madeBy(constructed(f, r), depth+1)
		cb := m.Resolve(c)
		if f.Kind(c) != KindIdentifier || cb == nil || cb.Kind != BindClass || class != nil && cb.Stmt != class.Stmt {
			return callee
		}
		class = cb
	}
	if class == nil {
		return callee
	}
	return class.Name
}

// constructed returns the callee of a call value (`Net` of `Net(4)`), or
// NoNode for another value.
func constructed(f *File, v NodeID) NodeID {
	if c := constructorCall(f, v); f.Kind(c) == KindCall {
		return f.Unparen(f.Field(c, FieldFunction))
	}
	return NoNode
}

// movedFrom returns the receiver of a call that returns its receiver,
// moved, cast, shared or switched (`x.to(dev)`, `x.cuda()`, `x.eval()`),
// or NoNode for another value.
func movedFrom(f *File, v NodeID) NodeID {
	v = f.Unparen(v)
	if f.Kind(v) != KindCall {
		return NoNode
	}
	fn := f.Unparen(f.Field(v, FieldFunction))
	if f.Kind(fn) != KindAttribute {
		return NoNode
	}
	switch f.Text(f.Field(fn, FieldAttribute)) {
	case "to", "cuda", "cpu", "eval", "train", "half", "float", "double", "bfloat16", "requires_grad_", "share_memory":
		return f.Unparen(f.Field(fn, FieldObject))
	}
	return NoNode
}

// isLibraryName reports whether a qualified name is one of the libraries
// whose behaviour the model knows, or a builtin: no project defines it.
func isLibraryName(q string) bool {
	if !strings.Contains(q, ".") {
		return builtinNames[q]
	}
	root := q[:strings.IndexByte(q, '.')]
	switch root {
	case "torch", "numpy", "math", "os", "sys", "re", "json", "time", "logging", "typing", "collections",
		"functools", "itertools", "random", "copy", "pathlib", "torchvision", "transformers", "timm":
		return true
	}
	return false
}

// Summarize returns what this file tells the rest of its project. It is
// computed from the file alone: call it before SetFacts.
func (m *Model) Summarize() *Summary {
	s := m.summarizeNames()
	m.summarizeDefs(s)
	return s
}

// summarizeNames is the part of a summary that tells what the file's
// module-level names refer to: bindings, instances, star imports and
// __all__.
func (m *Model) summarizeNames() *Summary {
	f := m.File
	s := &Summary{Test: m.IsPytestFile(), Foreign: m.OtherFramework(), SysPath: m.sysPathDirs()}
	var bindings, instances map[string]string
	m.indexCalls()
	for i := range m.binds {
		b := &m.binds[i]
		if b.Scope != 0 {
			continue
		}
		name := f.Text(b.Name)
		switch b.Kind {
		case BindImport:
			setRef(&bindings, name, b.Qualified)
		case BindAssign:
			if b.Unpacked {
				continue
			}
			v := f.Unparen(b.Value)
			switch f.Kind(v) {
			case KindIdentifier, KindAttribute:
				if r := m.valueRef(v); r != "" {
					setRef(&bindings, name, r)
				}
			case KindCall:
				if r := m.calleeRef(v); r != "" {
					setRef(&instances, name, r)
				}
			case KindList, KindTuple:
				if name == "__all__" {
					s.All = stringElements(f, v)
				}
			}
		}
	}
	for _, c := range starImports(f) {
		s.Stars = append(s.Stars, dotted(f, f.Field(c, FieldModuleName)))
	}
	s.Bindings, s.Instances = PairsOf(bindings), PairsOf(instances)
	return s
}

// summarizeDefs adds the file's classes, functions and calls to s.
func (m *Model) summarizeDefs(s *Summary) {
	m.ev() // first, as linting gathers it: not from within a question being worked out
	funcIndex := map[NodeID]int{}
	for i := range m.binds {
		b := &m.binds[i]
		switch b.Kind {
		case BindClass:
			if b.Scope == 0 {
				s.Classes = append(s.Classes, m.summarizeClass(b.Stmt))
			}
		case BindFunction:
			if ref := m.localRef(b.Stmt); ref != "" {
				if _, dup := funcIndex[b.Stmt]; !dup {
					funcIndex[b.Stmt] = len(s.Funcs)
					s.Funcs = append(s.Funcs, m.summarizeFunc(b.Stmt, ref[1:]))
				}
			}
		}
	}
	m.summarizeUses(s, funcIndex)
	for r := range m.ev().projectResults {
		s.Backprops = append(s.Backprops, r)
	}
	for def := range m.ev().returnsGraph {
		// A method of this file whose result is back-propagated here:
		// so is that of its overrides in other files (a base trainer
		// that back-propagates what `self._compute_losses()` returns).
		if m.EnclosingClass(def) != NoNode {
			if ref := m.localRef(def); ref != "" {
				s.Backprops = append(s.Backprops, ref)
			}
		}
	}
	slices.Sort(s.Backprops)
	s.BackpropsVia = m.ev().via
	// A project holds every file's summary until its facts are solved:
	// the room append left at the end of the big lists goes back now.
	s.Funcs, s.Calls = trim(s.Funcs), trim(s.Calls)
}

// trim returns list without spare capacity, copied where it had any.
func trim[T any](list []T) []T {
	if cap(list)-len(list) < 4 {
		return list
	}
	return slices.Clone(list)
}

func setRef(mp *map[string]string, k, v string) {
	if *mp == nil {
		*mp = map[string]string{}
	}
	(*mp)[k] = v
}

// starImports returns the module-level `from module import *`
// statements of f.
func starImports(f *File) []NodeID {
	var out []NodeID
	f.Children(Root, func(c NodeID) bool {
		if f.Kind(c) == KindImportFromStatement {
			f.Children(c, func(k NodeID) bool {
				if f.Kind(k) == KindWildcardImport {
					out = append(out, c)
					return false
				}
				return true
			})
		}
		return true
	})
	return out
}

// attrClasses is ClassSummary.AttrClasses for class.
func (m *Model) attrClasses(class NodeID) Pairs {
	f := m.File
	a := m.selfAttrs(class)
	found := map[string]string{}
	for k, v := range a.last {
		name, ok := strings.CutPrefix(k, "self.")
		if !ok || strings.Contains(name, ".") || a.count[k] != 1 {
			continue
		}
		var class NodeID
		switch v = f.Unparen(v); f.Kind(v) {
		case KindCall:
			class = f.Unparen(f.Field(v, FieldFunction))
		case KindIdentifier:
			class = m.receiverClass(v) // `encoder = Encoder(); encoder = encoder.cuda(); self.encoder = encoder`
		}
		if k := f.Kind(class); k != KindIdentifier && k != KindAttribute {
			continue
		}
		if ref := m.valueRef(class); ref != "" {
			found[name] = ref
		}
	}
	if len(found) == 0 {
		return nil
	}
	return PairsOf(found)
}

// valueRef returns the ref a name or attribute chain refers to. A name
// the file binds nowhere, in a file that star-imports, is referred to
// as the file's own (`#Name`): the project resolves it through the star
// imports, whether or not the facts at hand know the module yet, so that
// a summary does not depend on the order its file was linted in.
func (m *Model) valueRef(v NodeID) string {
	f := m.File
	if f.Kind(v) == KindIdentifier {
		b := m.Resolve(v)
		if b != nil && (b.Kind == BindFunction || b.Kind == BindClass) {
			return m.localRef(b.Stmt)
		}
		if b == nil && m.starImporter() && !builtinNames[f.view(v)] {
			return "#" + f.Text(v)
		}
	}
	return m.QualifiedName(v)
}

// starImporter reports whether the file star-imports a module.
func (m *Model) starImporter() bool {
	return m.Memo(starKey{}, func() any { return len(starImports(m.File)) > 0 }).(bool)
}

type starKey struct{}

func stringElements(f *File, list NodeID) []string {
	var out []string
	f.Children(list, func(c NodeID) bool {
		if f.Kind(c) == KindString {
			out = append(out, strings.Trim(f.Text(c), `"'`))
		}
		return true
	})
	return out
}

func (m *Model) summarizeClass(class NodeID) ClassSummary {
	f := m.File
	cs := ClassSummary{Name: f.Text(f.Field(class, FieldName)), Line: f.Position(f.N(class).Start).Line}
	for _, b := range m.ClassBases(class) {
		if r := m.valueRef(f.Unparen(b)); r != "" {
			cs.Bases = append(cs.Bases, r)
		}
	}
	cs.Module = m.IsModuleClass(class)
	// What a class assigns to its attributes is asked about through its
	// instances in other files: a holder of modules (a trainer, a
	// wrapper), and a module whose submodules are of the project's
	// classes (`np.xz_to_y(x, z)`, xz_to_y a Decoder of models.py; those
	// of torch.nn are read by their names).
	cs.AttrClasses = m.attrClasses(class)
	if cs.Module {
		cs.AttrClasses = slices.DeleteFunc(cs.AttrClasses, func(p Pair) bool { return isLibraryName(p.Value) })
		if len(cs.AttrClasses) == 0 {
			cs.AttrClasses = nil
		}
	}
	cs.NoGraph = m.NoGraphClass(class) // a module, or a wrapper of frozen ones (frozenWrapper)
	cs.ByForward = cs.Module && m.moduleByForward(class)
	cs.Plain = !cs.Module && ((m.MethodOf(class, "forward") != NoNode || m.MethodOf(class, "__call__") != NoNode) && m.plainClass(class) ||
		m.autogradOperation(class, 0))
	if cs.NoGraph {
		cs.FreezeParams = m.freezeParams(class)
	} else if cs.FrozenWith = m.FrozenWith(class); cs.FrozenWith != nil {
		cs.FreezeParams = m.freezeParams(class)
	}
	if !cs.NoGraph {
		cs.NoGraphWith = m.NoGraphWith(class)
	}
	// A stub (`class Gen(nn.Module): pass`, no method and no base of the
	// project) stands for a model, and a base whose forward is left to
	// subclasses for theirs.
	// Where the file alone does not show the class is a module (its bases
	// are of other files), the project does (fixModules).
	if own := m.ownParamFree(class); own.free && (m.hasMethods(class) || own.bases > 0) && !m.abstractForward(class) {
		cs.ParamFree, cs.ParamFreeBases, cs.ParamFreeHolds = true, own.bases, own.holds
	}
	if cs.Module {
		bases := 0
		known, has := m.classLayers(class, 0, &bases)
		if known && !has {
			cs.NoModeLayers, cs.ModeLayerBases = true, bases
		}
		cs.ModeLayers = has
	}
	return cs
}

// summarizeFunc returns the summary of function def under name. It is
// worked out once per model: the helper and keeper facts read it, and so
// does the file's summary unless the project's answers cleared the memo
// (see Runner.Analyze).
func (m *Model) summarizeFunc(def NodeID, name string) FuncSummary {
	fs := m.Memo(funcSummaryKey{def}, func() any { return m.summarizeFuncOnce(def) }).(FuncSummary)
	fs.Name = name
	return fs
}

type funcSummaryKey struct{ def NodeID }

func (m *Model) summarizeFuncOnce(def NodeID) FuncSummary {
	f := m.File
	fs := FuncSummary{Line: f.Position(f.N(def).Start).Line, Escapes: m.callbacks[def]}
	var r RareFuncFacts
	fs.Grad, fs.GradSet = m.decoratedGrad(def)
	if !fs.GradSet && (m.IsLightningEvalHook(def) || m.autogradMethod(def) || m.constructedOff(def)) {
		fs.Grad, fs.GradSet = GradDisabled, true
	}
	fs.Wraps, fs.WrapsSet = m.decoratorGrad(def)
	fs.Enters, fs.EntersSet = m.returnedSwitch(def)
	fs.ReturnsGraph = m.returnsGraph(def) || m.ev().returnsGraph[def]
	if fs.ReturnsGraph {
		r.TupleLen, r.GraphElems = m.tupleReturns(def)
	} else {
		// A function with no graph of its own (a loss helper): which
		// of its elements take the graph of what it is given.
		r.ElemParams = m.elemParams(def)
	}
	if m.backpropagates(def) {
		r.BackpropElems = m.returnedBackprop(def)
	}
	if !fs.ReturnsGraph {
		r.GraphParams = m.GraphParams(def)
		r.DropsArgs = len(r.GraphParams) == 0 && m.DropsArgs(def)
	}
	if m.File.TextIs(m.File.Field(def, FieldName), "forward") {
		r.CutParams = m.CutParams(def) // what a loss module's call reads (lossCutsPrediction)
		if !fs.ReturnsGraph && m.EnclosingClass(def) != NoNode {
			r.EndsReturns = m.EndsReturns(def, nil)
		}
	}
	r.FreezesParams = m.paramFreezes(def)
	r.BackpropParams = m.BackpropParams(def)
	r.BackpropAttrs = m.BackpropAttrs(def)
	r.BackpropVia = m.backpropVia(def)
	r.StateGraph = m.stateGraph(def)
	r.Makes, r.MakesArgs = m.makesRef(def)
	r.Abstract = m.EnclosingClass(def) != NoNode && m.abstractMethod(def)
	needsGrad := false
	var copied map[string]NodeID // attributes of self a copy_ fills, to the value copied
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		switch f.Kind(id) {
		case KindReturnStatement:
			if m.EnclosingFunction(id) == def {
				if v := f.Unparen(f.FirstChild(id)); f.Kind(v) == KindCall {
					if ref := m.calleeRef(v); ref != "" {
						r.Returns = append(r.Returns, ref)
					}
				}
			}
		case KindAugmentedAssignment:
			// A sum made with grad disabled (`@torch.no_grad()`, or a
			// `with` block of the body) has no graph; an appended value
			// keeps its own.
			if m.ScopeNode(id) != def || !f.TextIs(f.Field(id, FieldOperator), "+=") || fs.GradSet && fs.Grad == GradDisabled {
				return
			}
			if g, decided := m.localGradMode(id); !decided || g != GradDisabled {
				r.Keeps = m.keeps(def, f.Field(id, FieldLeft), f.Field(id, FieldRight), r.Keeps)
			}
		case KindAssignment, KindDeleteStatement:
			if m.ScopeNode(id) == def {
				m.stepFact(id, &r.StepSites)
			}
		case KindCall:
			if m.ScopeNode(id) != def {
				return
			}
			m.stepFact(id, &r.StepSites)
			q := m.CallName(id)
			if m.IsBackwardCall(id) || m.MethodName(id) == "requires_grad_" || q == "torch.enable_grad" || m.updatesModelWithLoss(id) {
				needsGrad = true
			}
			if !fs.GradSet && (r.Forward == nil || !fs.OwnNoGrad) && m.IsForwardCall(id) && !m.NoGraphValue(f.Field(id, FieldFunction)) && !m.OnlyLiteralArgs(id) && !m.NoGraphCall(id) {
				switch g, decided := m.localGradMode(id); {
				case !decided:
					if r.Forward == nil && !m.offByDefault(def, id) {
						r.Forward = m.site(id)
					}
				case g == GradDisabled:
					fs.OwnNoGrad = true
				}
			}
			if i := m.paramIndex(def, m.File.Field(id, FieldFunction)); i >= 0 && !fs.GradSet {
				if _, decided := m.localGradMode(id); !decided && !hasParamCall(r.ParamCalls, i) {
					r.ParamCalls = append(r.ParamCalls, ParamCall{Index: i, Site: m.site(id)})
				}
			}
			switch meth := m.MethodName(id); {
			case meth == "append" && len(m.Args(id)) == 1:
				r.Keeps = m.keeps(def, m.Receiver(id), m.Args(id)[0], r.Keeps)
			case meth == "copy_" && len(m.Args(id)) == 1:
				// `self.last.copy_(val)`: the attribute holds the value, and
				// its graph, until the next copy; what it is added into
				// below keeps them.
				if recv := f.Unparen(m.Receiver(id)); f.Kind(recv) == KindAttribute {
					if copied == nil {
						copied = map[string]NodeID{}
					}
					copied[f.Text(recv)] = m.Args(id)[0]
				}
			case meth == "add_" && len(m.Args(id)) >= 1:
				// `self.total.add_(val)`, or of an attribute a copy_ above
				// filled (`self.total.add_(self.last)`): a running total.
				if g, decided := m.localGradMode(id); !decided || g != GradDisabled {
					v := m.Args(id)[0]
					if c, ok := copied[f.Text(f.Unparen(v))]; ok {
						v = c
					}
					r.Keeps = m.keeps(def, m.Receiver(id), v, r.Keeps)
				}
			}
			if r.EmptyCache == nil && q == "torch.cuda.empty_cache" && m.always(id, def) && m.EnclosingLoop(id) == NoNode &&
				!m.runsHotLoop(def) {
				// In a loop of its own, the helper is reported there; one
				// that runs a loop of steps itself (`ppo_train`, an epoch)
				// is a phase, and flushes between phases.
				r.EmptyCache = m.site(id)
			}
		}
	})
	if a, at := m.exportedActivation(def); at != nil && (at.Path == "" || at.Abs == f.Path) {
		// What other files return is theirs to tell.
		fs.Activation, r.ActivationAt = a, &Site{Line: at.Line, Column: at.Column, Text: at.Text}
	}
	if r.Backward != nil && m.optimizesInputs(def) {
		r.Backward = nil // gradient descent on inputs (stepsOf)
	}
	if r.Forward != nil && !needsGrad && HandsBack != nil {
		if !m.IsModuleClass(m.EnclosingClass(def)) {
			r.HandsBack = HandsBack(m, def)
			r.HostOnly = !r.HandsBack && HostOnly != nil && HostOnly(m, def)
		} else if name := m.FunctionName(def); name != "forward" && name != "__call__" {
			// A module's own method other than its forward (`def
			// batch_loss(self, x, y): return crit(self(x), y)`) runs in
			// its callers' mode and is never reported in its body: where
			// it hands its passes back, its callers say where they go.
			r.HandsBack = HandsBack(m, def)
		}
	}
	if needsGrad {
		// Saliency maps, adversarial examples, test-time training: its
		// forward pass is there to be back-propagated.
		if r.Forward != nil || len(r.ParamCalls) > 0 {
			fs.trained = &Object{Kind: ObjectFunction, Forward: r.Forward, ParamCalls: r.ParamCalls}
		}
		r.Forward, r.ParamCalls, r.NeedsGrad, fs.needsGrad = nil, nil, true, true
	}
	if !r.IsZero() {
		fs.Rare = &r
	}
	return fs
}

// keeps adds to kept the parameters of method def that value adds into
// target, each with target's site, when target is an attribute of self: the
// parameter itself or arithmetic on it, still the parameter's value
// where it is read, not detached on the way.
func (m *Model) keeps(def, target, value NodeID, kept []ParamCall) []ParamCall {
	f := m.File
	if k := f.Kind(target); k != KindAttribute && k != KindSubscript || m.EnclosingClass(def) == NoNode {
		return kept
	}
	root := target
	for f.Kind(root) == KindAttribute || f.Kind(root) == KindSubscript {
		if f.Kind(root) == KindAttribute {
			root = f.Field(root, FieldObject)
		} else {
			root = f.Field(root, FieldValue)
		}
	}
	if !f.TextIs(root, "self") {
		return kept
	}
	attr := f.Parent(root)
	if f.Kind(attr) == KindAttribute && m.drainedByBackward(m.EnclosingClass(def), f.Text(f.Field(attr, FieldAttribute))) {
		return kept // a REINFORCE buffer of log-probabilities, back-propagated whole
	}
	if target == attr && m.numpyAttribute(m.EnclosingClass(def), f.Text(attr)) {
		// `self.sum = np.zeros(1)`, then `self.sum += value`: NumPy adds a
		// tensor into its array by converting it, which a tensor that
		// requires grad refuses; the array keeps no graph.
		return kept
	}
	keys := map[string][]NodeID{}
	m.Flow(def).Keys(value, keys)
	var names []NodeID
	for _, uses := range keys {
		for _, u := range uses {
			if f.Kind(u) == KindIdentifier {
				names = append(names, u)
			}
		}
	}
	slices.Sort(names) // source order, for a summary that does not vary
	// An image pool of at most n, a score window: it does not grow.
	bounded := f.Kind(attr) == KindAttribute && m.capped(def, attr)
	for _, u := range names {
		if i := m.paramIndex(def, u); i >= 0 && !hasParamCall(kept, i) {
			kept = append(kept, ParamCall{Index: i, Site: m.site(target), Bounded: bounded})
		}
	}
	return kept
}

// numpyAttribute reports whether the class makes attr (`self.sum`) a
// NumPy array where it builds an object: every value its constructor, or
// a method the constructor calls (`self.reset()`), assigns to it is made
// by a call of numpy (`np.zeros(1)`).
func (m *Model) numpyAttribute(class NodeID, attr string) bool {
	f := m.File
	init := m.MethodOf(class, "__init__")
	if init == NoNode {
		return false
	}
	setup := map[NodeID]bool{init: true}
	f.Walk(f.Field(init, FieldBody), func(id NodeID) {
		if f.Kind(id) == KindCall && m.ScopeNode(id) == init {
			if fn := f.Unparen(f.Field(id, FieldFunction)); f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldObject), "self") {
				if def := m.MethodOf(class, f.Text(f.Field(fn, FieldAttribute))); def != NoNode {
					setup[def] = true
				}
			}
		}
	})
	made := 0
	for _, v := range m.selfAttrs(class).values[attr] {
		if !setup[m.EnclosingFunction(v)] {
			continue
		}
		v = f.Unparen(v)
		if f.Kind(v) != KindCall || !strings.HasPrefix(m.CallName(v), "numpy.") {
			return false
		}
		made++
	}
	return made > 0
}

// capped reports whether the container attribute attr of self (`self.pool`)
// holds at most a bound: it is made a `deque(maxlen=n)` in its class, or
// method def tests its length (`if len(self.pool) < n:`) around the store
// or in a test that takes elements out (`self.pool.pop(0)`, `del
// self.pool[0]`).
func (m *Model) capped(def, attr NodeID) bool {
	f := m.File
	key := f.Text(attr)
	if v, ok := m.selfAttrs(m.EnclosingClass(def)).last[key]; ok && f.Kind(f.Unparen(v)) == KindCall {
		if q := m.CallName(f.Unparen(v)); (q == "collections.deque" || q == "deque") && m.Keyword(f.Unparen(v), "maxlen") != NoNode {
			return true
		}
	}
	length := "len(" + key + ")"
	found := false
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if found {
			return
		}
		if k := f.Kind(id); k != KindIfStatement && k != KindElifClause && k != KindWhileStatement {
			return
		}
		if !strings.Contains(compactText(f, f.Field(id, FieldCondition)), length) {
			return
		}
		if f.Contains(id, attr) {
			found = true // the store is the test's
			return
		}
		f.Walk(id, func(c NodeID) {
			switch {
			case found:
			case f.Kind(c) == KindCall && (m.MethodName(c) == "pop" || m.MethodName(c) == "popleft") && f.Text(m.Receiver(c)) == key:
				found = true
			case f.Kind(c) == KindSubscript && f.Text(f.Field(c, FieldValue)) == key && deletedFirst(f, c):
				found = true // `del self.pool[0]`
			}
		})
	})
	return found
}

// deletedFirst reports whether e is what a del statement deletes first
// (`del x[0]`, `del x[0], y`).
func deletedFirst(f *File, e NodeID) bool {
	p := f.Parent(e)
	if f.Kind(p) == KindExpressionList && f.FirstChild(p) == e {
		p = f.Parent(p)
	}
	return f.Kind(p) == KindDeleteStatement
}

// drainedByBackward reports whether a method of class back-propagates
// and reads the attribute `self.name`, or empties it (itself or through
// a method of the class it calls): the values kept there (an episode's
// log-probabilities, an n-step buffer of values) keep their graphs until
// that update, which frees them.
func (m *Model) drainedByBackward(class NodeID, name string) bool {
	return m.Memo(drainKey{class, name}, func() any {
		f := m.File
		drained := false
		f.Walk(f.Field(class, FieldBody), func(def NodeID) {
			if drained || f.Kind(def) != KindFunctionDefinition || m.EnclosingClass(def) != class {
				return
			}
			backward := false
			reads, clears := m.attrUses(def, name)
			f.Walk(f.Field(def, FieldBody), func(id NodeID) {
				if f.Kind(id) != KindCall {
					return
				}
				backward = backward || m.AddsGrad(id)
				if fn := f.Unparen(f.Field(id, FieldFunction)); f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldObject), "self") {
					if callee := m.MethodOf(class, f.Text(f.Field(fn, FieldAttribute))); callee != NoNode && callee != def {
						_, c := m.attrUses(callee, name)
						clears = clears || c // `self.clear_storage()`
					}
				}
			})
			drained = backward && (reads || clears)
		})
		return drained
	}).(bool)
}

// attrUses says whether function def reads the attribute `self.name`,
// and whether it empties it (`self.name = []`, `self.name.clear()`,
// `del self.name[:]`). Filling it (`append`, `+=`) is neither.
func (m *Model) attrUses(def NodeID, name string) (reads, clears bool) {
	f := m.File
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if f.Kind(id) != KindAttribute || !f.TextIs(f.Field(id, FieldObject), "self") || !f.TextIs(f.Field(id, FieldAttribute), name) {
			return
		}
		c, p := id, f.Parent(id)
		for f.Kind(p) == KindPatternList || f.Kind(p) == KindTuplePattern {
			c, p = p, f.Parent(p) // `self.states, self.log_probs = [], []`
		}
		switch {
		case f.Kind(p) == KindAssignment && f.Field(p, FieldLeft) == c:
			// A buffer emptied (`= []`); a total reset to 0 is a running sum.
			clears = clears || emptiedTo(f, f.Field(p, FieldRight))
		case f.Kind(p) == KindAugmentedAssignment && f.Field(p, FieldLeft) == c:
		case f.Kind(p) == KindSubscript && f.Kind(f.Parent(p)) == KindDeleteStatement:
			clears = true // `del self.log_probs[:]`
		case f.Kind(p) == KindAttribute:
			switch f.Text(f.Field(p, FieldAttribute)) {
			case "clear":
				clears = true
			case "append", "extend", "insert":
			default:
				reads = true
			}
		default:
			reads = true
		}
	})
	return reads, clears
}

// emptiedTo reports whether value is an empty list or dict, or a tuple or
// list of them (`[], []`).
func emptiedTo(f *File, value NodeID) bool {
	value = f.Unparen(value)
	switch f.Kind(value) {
	case KindList, KindDictionary:
		return f.FirstChild(value) == NoNode
	case KindTuple, KindExpressionList:
		all := true
		f.Children(value, func(c NodeID) bool {
			all = emptiedTo(f, c)
			return all
		})
		return all
	}
	return false
}

type drainKey struct {
	class NodeID
	name  string
}

func hasParamCall(pcs []ParamCall, i int) bool {
	for _, pc := range pcs {
		if pc.Index == i {
			return true
		}
	}
	return false
}

// paramIndex returns the position, among the positional arguments a
// caller passes, of the parameter of def that callee names, or -1.
func (m *Model) paramIndex(def, callee NodeID) int {
	f := m.File
	if f.Kind(callee) != KindIdentifier {
		return -1
	}
	b := m.Resolve(callee)
	if b == nil || b.Kind != BindParam || f.Parent(b.Stmt) != f.Field(def, FieldParameters) {
		return -1 // not a parameter of def itself
	}
	for i, name := range m.positionalParams(def) {
		if name == b.Name {
			return i
		}
	}
	return -1
}

// instanceRunsNoForward reports whether calling a, an instance of a
// class of this file, runs no forward pass in its caller's grad mode: its
// forward runs under its own `@torch.no_grad()`.
func (m *Model) instanceRunsNoForward(a NodeID) bool {
	_, def := m.callOfInstance(a)
	return def != NoNode && m.localHelperOf(def, 0).runsNoForward()
}

// ParamForward returns the forward pass a helper runs when the call
// passes a model at a position the helper calls, or nil.
func (m *Model) ParamForward(o *Object, call NodeID) *Site {
	args := m.Args(call)
	for _, pc := range o.ParamCalls {
		if pc.Index < len(args) {
			if a := m.File.Unparen(args[pc.Index]); m.ClassifyCallee(a) == CallableModel && !m.instanceRunsNoForward(a) && !m.NoGraphValue(a) || m.parameterFunction(a) {
				return pc.Site
			}
		}
	}
	return nil
}

// parameterFunction reports whether e names a module-level function of
// this file that reads tensors which require grad (`def net(X): return
// softmax(X @ W + b)`): a model written as a function, which what it is
// handed to runs as one.
func (m *Model) parameterFunction(e NodeID) bool {
	f := m.File
	if f.Kind(e) != KindIdentifier {
		return false
	}
	b := m.Resolve(e)
	return b != nil && b.Kind == BindFunction && m.scopeOf[b.Stmt] == 0 && m.readsParameters(b.Stmt)
}

// summarizeUses records the calls of refs and the refs used as values.
func (m *Model) summarizeUses(s *Summary, funcs map[NodeID]int) {
	f := m.File
	escaped := map[string]bool{}
	seen := map[CallSummary]int{} // the index in s.Calls of the call that stands for them
	refs := map[string]string{}
	first := len(s.Calls)
	var ids [][]NodeID // the calls each of s.Calls[first:] stands for
	defer func() { m.summarizeModuleArgs(s.Calls[first:], ids) }()
	for i := range f.Nodes {
		id := NodeID(i)
		switch f.Nodes[i].Kind {
		case KindCall:
			if imported := m.importRefsOf(id); imported != nil {
				// `if a: from x import f` / `else: from y import f`, then
				// `f(...)`: a call of either.
				for _, r := range imported {
					m.summarizeCall(s, id, r, funcs, seen, refs, &ids)
				}
				continue
			}
			ref := m.calleeRef(id)
			if ref == "" {
				// `gan.visualize(...)` where gan is bound to one of
				// several classes: a call of each one's method.
				if classRefs := m.methodRefsOfClasses(id, len(s.Stars) > 0); classRefs != nil {
					for _, r := range classRefs {
						m.summarizeCall(s, id, r, funcs, seen, refs, &ids)
					}
					continue
				}
				if len(s.Stars) > 0 {
					ref = m.starMethodRef(id)
				}
				if ref == "" {
					ref = m.nameOnlyRef(id)
				}
			}
			if ref == "" && len(s.Stars) > 0 {
				ref = m.starCallRef(id)
			}
			if ref == "" || strings.HasPrefix(ref, "#") && !strings.Contains(ref, ".") && m.isClassRef(id) {
				continue
			}
			m.summarizeCall(s, id, ref, funcs, seen, refs, &ids)
		case KindIdentifier, KindAttribute:
			if fl := f.N(id).Field; fl == FieldFunction || fl == FieldAttribute || fl == FieldName || fl == FieldObject {
				continue
			}
			if m.ThreadEntry(id) {
				// Run by a new thread or process, which starts with grad
				// enabled: a call in that mode.
				if ref := m.valueRef(id); ref != "" {
					m.summarizeCall(s, id, ref, funcs, seen, refs, &ids)
					continue
				}
			}
			if k := f.Kind(f.Parent(id)); k == KindDottedName || k == KindAliasedImport || k == KindImportFromStatement ||
				k == KindImportStatement || k == KindDecorator || k == KindKeywordArgument && f.N(id).Field == FieldName {
				continue
			}
			if b := m.Resolve(id); f.Kind(id) == KindIdentifier && (b == nil || b.Kind != BindImport) {
				continue
			}
			if inAllList(f, id) {
				continue // `__all__ = (eval_src, eval_tgt)`: exported, not handed to anything
			}
			if q := m.QualifiedName(id); q != "" && !isLibraryName(q) && !escaped[q] {
				escaped[q] = true
				s.Escapes = append(s.Escapes, q)
			}
		}
	}
}

// inAllList reports whether id lies in the value a module assigns to
// `__all__` (or adds to it): a list of what it exports, names or, by
// mistake, the objects themselves.
func inAllList(f *File, id NodeID) bool {
	for c, p := id, f.Parent(id); p != NoNode; c, p = p, f.Parent(p) {
		switch f.Kind(p) {
		case KindAssignment, KindAugmentedAssignment:
			left := f.Field(p, FieldLeft)
			return f.Field(p, FieldRight) == c && f.Kind(left) == KindIdentifier && f.TextIs(left, "__all__")
		case KindExpressionStatement, KindFunctionDefinition, KindClassDefinition, KindCall:
			return false
		}
	}
	return false
}

// summarizeCall adds to s the call id of ref (or, id a name handed to a
// new thread, a call in grad-enabled mode), unless one of the same callee
// by the same caller in the same mode is there already.
func (m *Model) summarizeCall(s *Summary, id NodeID, ref string, funcs map[NodeID]int, seen map[CallSummary]int, refs map[string]string, ids *[][]NodeID) {
	f := m.File
	cs := CallSummary{Callee: ref, Line: f.Position(f.N(id).Start).Line}
	fn := m.EnclosingFunction(id)
	thread := f.Kind(id) != KindCall // a function handed to a new thread (ThreadEntry)
	_, summarized := funcs[fn]
	nested := false
	if !summarized && fn != NoNode && !thread {
		// A call in a function nested in a summarized one (a callback
		// it hands on, a closure it returns): run when that function
		// is, most often by what the outer one calls, in its mode.
		for outer := m.EnclosingFunction(f.Parent(fn)); outer != NoNode; outer = m.EnclosingFunction(f.Parent(outer)) {
			if _, ok := funcs[outer]; ok {
				fn, summarized, nested = outer, true, true
				break
			}
		}
	}
	if summarized {
		cs.Caller = m.defName(fn)
	} else {
		fn = Root // module level, or a nested function or lambda
	}
	switch {
	case thread:
		cs.Grad = GradEnabled // every new thread starts so
	case !summarized:
		cs.Grad = m.GradModeAt(id) // this file alone decides it
	default:
		if g, decided := m.localGradMode(id); decided {
			cs.Grad = g
		} else {
			cs.Inherit = true
		}
	}
	cs.Always = !nested && m.always(id, fn)
	cs.Loop = !thread && m.RepeatingLoop(id) != NoNode
	if !thread {
		cs.Eval = m.EvalArg(id) + 1
	}
	// What the project works out from a call is the same for every call
	// of the same callee by the same caller in the same mode: the first
	// stands for them all.
	k := cs
	k.Line = 0
	if i, ok := seen[k]; ok {
		if !thread {
			(*ids)[i] = append((*ids)[i], id)
		}
		return
	}
	seen[k] = len(*ids)
	if thread {
		*ids = append(*ids, nil)
	} else {
		*ids = append(*ids, []NodeID{id})
	}
	// The same callee is often called from many places, each call making
	// its ref anew: the summary keeps one copy.
	if r, ok := refs[cs.Callee]; ok {
		cs.Callee = r
	} else {
		refs[cs.Callee] = cs.Callee
	}
	s.Calls = append(s.Calls, cs)
}

// methodRefsOfClasses returns, for a call of a method on a name bound
// to instances of more than one class (`gan = GAN()` in one branch,
// `gan = LSGAN()` in another), the ref of each class's method; nil
// otherwise.
func (m *Model) methodRefsOfClasses(call NodeID, stars bool) []string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindAttribute {
		return nil
	}
	recv := f.Unparen(f.Field(fn, FieldObject))
	if f.Kind(recv) != KindIdentifier || f.TextIs(recv, "self") || f.TextIs(recv, "cls") {
		return nil
	}
	classes := m.boundClasses(recv, 0)
	if len(classes) < 2 {
		return nil
	}
	var out []string
	for _, c := range classes {
		ref, _ := m.classMethod(c, f.Text(f.Field(fn, FieldAttribute)))
		if ref == "" && stars {
			ref = m.starClassRef(c, f.Text(f.Field(fn, FieldAttribute)))
		}
		if ref == "" {
			return nil
		}
		if !slices.Contains(out, ref) {
			out = append(out, ref)
		}
	}
	return out
}

// updatesModelWithLoss reports whether call hands a loss and a model
// together to a function of a library other than torch
// (`gradient_update_parameters(self.model, inner_loss, ...)`, a
// meta-learning library's inner step): code that differentiates the loss
// with respect to the model's parameters, which this file cannot see.
func (m *Model) updatesModelWithLoss(call NodeID) bool {
	f := m.File
	q := m.CallName(call)
	if q == "" || q == "torch" || strings.HasPrefix(q, "torch.") {
		return false
	}
	if b := m.Resolve(f.Unparen(f.Field(call, FieldFunction))); b == nil || b.Kind != BindImport || !isLibraryName(q) && m.lookup(q, WantKind) != nil {
		return false // a function of this file, or of the project
	}
	loss, model := false, false
	for _, a := range m.Args(call) {
		a = f.Unparen(a)
		switch f.Kind(a) {
		case KindIdentifier:
			if b := m.Resolve(a); b != nil && b.Kind == BindAssign && !b.Unpacked && m.IsLossCall(f.Unparen(b.Value)) {
				loss = true
			} else {
				model = model || m.ClassifyCallee(a) == CallableModel
			}
		case KindAttribute:
			model = model || m.ClassifyCallee(a) == CallableModel
		}
	}
	return loss && model
}

// importRefsOf returns the refs of a call of a name that several
// imports of its scope bind to different objects (under an if and its
// else, or a try and its except), each once; nil otherwise.
func (m *Model) importRefsOf(call NodeID) []string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindIdentifier {
		return nil
	}
	_, c, ok := m.bindingsOf(fn)
	if !ok || c.first == c.last {
		return nil
	}
	var refs []string
	for i := c.first; i >= 0; i = m.binds[i].next {
		bi := &m.binds[i]
		if bi.Kind != BindImport || bi.Qualified == "" || isLibraryName(bi.Qualified) {
			return nil
		}
		if !slices.Contains(refs, bi.Qualified) {
			refs = append(refs, bi.Qualified)
		}
	}
	if len(refs) < 2 {
		return nil
	}
	return refs
}

// starMethodRef is the ref "?Class.name" of a call of a method on an
// instance of a class that nothing in a file with star imports binds
// (`net = Net(); net.eval(x, y)` after `from models import *`): the
// project resolves the class through those imports, as for starCallRef.
func (m *Model) starMethodRef(call NodeID) string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindAttribute || m.moduleSwitch(call) {
		return ""
	}
	return m.starClassRef(m.receiverClass(f.Unparen(f.Field(fn, FieldObject))), f.Text(f.Field(fn, FieldAttribute)))
}

// starClassRef is the ref "?Class.name" of method name of class, a name
// that nothing in the file binds (its star imports may), or "".
func (m *Model) starClassRef(class NodeID, name string) string {
	f := m.File
	if f.Kind(class) != KindIdentifier || m.Resolve(class) != nil || builtinNames[f.Text(class)] {
		return ""
	}
	return "?" + f.Text(class) + "." + name
}

// starCallRef is the ref "?name" of a call of a name that nothing in a
// file with star imports binds (`evaluate(model, loader)` after `from
// utils import *`): the project resolves it through those imports, as
// the file's facts do (Facts.Star), which the summary does not read.
// Builtins are not.
func (m *Model) starCallRef(call NodeID) string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindIdentifier || m.Resolve(fn) != nil || builtinNames[f.Text(fn)] {
		return ""
	}
	return "?" + f.Text(fn)
}

// moduleSwitch reports whether call switches a model's mode the way
// nn.Module does (ModeSwitch: `model.eval()`, `model.train(mode)`), on a
// value that is a model.
func (m *Model) moduleSwitch(call NodeID) bool {
	if eval, train := m.ModeSwitch(call); !eval && !train {
		return false
	}
	f := m.File
	return m.ClassifyCallee(f.Unparen(f.Field(f.Unparen(f.Field(call, FieldFunction)), FieldObject))) == CallableModel
}

// nameOnlyRef is the ref "*.name" of a call of a method on an object
// whose class this file does not know (`dec.decode(x)` with dec built from
// a class passed in, `self._predict(x)` that a subclass defines), or "".
// The project matches it by name to the methods no call reaches by their
// own ref. Calls on what a library's name holds (`torch.cat`, `np.mean`)
// are none of the project's.
func (m *Model) nameOnlyRef(call NodeID) string {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindAttribute {
		return ""
	}
	obj := f.Unparen(f.Field(fn, FieldObject))
	if m.moduleSwitch(call) {
		return "" // `self.model.eval()`: nn.Module's own switch, not a project method of that name
	}
	switch {
	case f.TextIs(obj, "self") || f.TextIs(obj, "cls"):
		if class := m.EnclosingClass(call); class == NoNode || m.selfAttrs(class).count[f.Text(fn)] > 0 {
			return "" // a submodule or callable the class keeps
		}
	case m.QualifiedName(obj) != "":
		return ""
	case f.Kind(obj) == KindString || f.Kind(obj) == KindConcatenatedString || f.Kind(obj) == KindList ||
		f.Kind(obj) == KindDictionary || f.Kind(obj) == KindTuple || f.Kind(obj) == KindInteger || f.Kind(obj) == KindFloat:
		return "" // `"a,b".split(",")`: a builtin's method
	case f.Kind(obj) == KindCall:
		if q := m.CallName(obj); q != "" && (isLibraryName(q) || builtinNames[q]) {
			return "" // `json.dumps(d).encode()`, `str(x).strip()`: what a library returns
		}
	case f.Kind(obj) == KindIdentifier || f.Kind(obj) == KindAttribute:
		if c := m.receiverClass(obj); c != NoNode {
			if q := m.QualifiedName(c); q != "" && isLibraryName(q) {
				return "" // `scheduler.step()`, scheduler a `torch.optim.lr_scheduler.StepLR`
			}
		}
		if name := f.Text(f.Field(fn, FieldAttribute)); name == "step" && m.zeroGradOn(call, f.Text(obj)) {
			return "" // `optimizer.step()` where the function clears `optimizer`'s gradients: an optimizer
		}
	}
	return "*." + f.Text(f.Field(fn, FieldAttribute))
}

// zeroGradOn reports whether the function call is in calls
// `recv.zero_grad()` on the receiver named recv.
func (m *Model) zeroGradOn(call NodeID, recv string) bool {
	return m.CallsMethodOn(m.ScopeNode(call), recv, zeroGradMethod)
}

var zeroGradMethod = map[string]bool{"zero_grad": true}

// CallsMethodOn reports whether scope's own code (not its nested
// functions') calls one of methods on the receiver whose text is recv.
func (m *Model) CallsMethodOn(scope NodeID, recv string, methods map[string]bool) bool {
	for name, recvs := range m.methodCalls(scope) {
		if methods[name] && slices.Contains(recvs, recv) {
			return true
		}
	}
	return false
}

type methodCallsKey struct{ scope NodeID }

// methodCalls maps each method name that scope's own code calls to the
// texts of the receivers it calls it on: one walk of a function serves
// every question about it (a long function asks one per call).
func (m *Model) methodCalls(scope NodeID) map[string][]string {
	return m.Memo(methodCallsKey{scope}, func() any {
		f := m.File
		calls := map[string][]string{}
		f.Walk(scope, func(id NodeID) {
			if f.Kind(id) != KindCall || m.ScopeNode(id) != scope {
				return
			}
			if name := m.MethodName(id); name != "" {
				recv := f.Text(f.Unparen(m.Receiver(id)))
				if !slices.Contains(calls[name], recv) {
					calls[name] = append(calls[name], recv)
				}
			}
		})
		return calls
	}).(map[string][]string)
}

// isClassRef reports whether a call constructs a class of this file.
func (m *Model) isClassRef(call NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	b := m.Resolve(fn)
	return f.Kind(fn) == KindIdentifier && b != nil && b.Kind == BindClass
}

// site returns the Site of a node.
func (m *Model) site(id NodeID) *Site {
	f := m.File
	p := f.Position(f.N(id).Start)
	return &Site{Line: p.Line, Column: p.Column, Text: Snippet(f.Text(id), 40)}
}

// localGradMode returns the grad mode that the code of id's own function
// sets at id, and whether it sets one; at module level, the mode is
// always decided (enabled unless switched).
func (m *Model) localGradMode(id NodeID) (GradMode, bool) {
	g, decided, _ := m.switchedAround(id)
	return g, decided
}

// switchedAround is localGradMode, with the function whose body holds
// id where its code sets no mode there (NoNode in a lambda or a class
// body).
func (m *Model) switchedAround(id NodeID) (GradMode, bool, NodeID) {
	f := m.File
	for x := id; ; {
		p := f.Parent(x)
		if p == NoNode {
			return GradEnabled, true, NoNode
		}
		switch f.Kind(p) {
		case KindFunctionDefinition:
			if f.N(x).Field == FieldBody {
				return GradEnabled, false, p
			}
		case KindLambda, KindClassDefinition:
			return GradEnabled, false, NoNode
		default:
			if g, ok := m.decideGradMode(p, x); ok {
				return g, true, NoNode
			}
		}
		x = p
	}
}

// GradModeKnown returns the grad mode at id where this file knows it
// without asking the project about the callers of id's function: a
// switch around id, the function's decorator or framework, module
// level, or a mode already worked out. A rule tests it first and
// GradModeAt last, once the rest of a finding holds: a file whose
// question about its callers gets another answer later is linted again.
func (m *Model) GradModeKnown(id NodeID) (GradMode, bool) {
	if m.gradAt != nil && m.gradAt[id] >= 0 {
		return m.gradAtHit(id), true
	}
	g, decided, def := m.switchedAround(id)
	if decided || def == NoNode {
		return g, decided
	}
	return m.ownGradMode(def)
}

// OffByDefault is offByDefault, for rules.
func (m *Model) OffByDefault(def, id NodeID) bool { return m.offByDefault(def, id) }

// offByDefault reports whether id sits on a branch of def that its flags
// leave untaken unless a caller says otherwise: under `if not no_grad:`,
// or the `else` of `if no_grad:`, for a parameter `no_grad=True` that no
// call this file shows sets to anything else (a collector that runs its
// policy under its own no_grad unless asked to keep the graph).
func (m *Model) offByDefault(def, id NodeID) bool {
	return m.branchSkipped(def, id, func(cond NodeID) (bool, bool) { return m.flagTruth(def, cond) })
}

// branchSkipped reports whether statement id of def runs in no branch
// that truth, the value of a condition where it is known, takes: under an
// if or elif whose test is false, an elif after an if whose test is true,
// or an else of an if whose test is true.
func (m *Model) branchSkipped(def, id NodeID, truth func(cond NodeID) (v, known bool)) bool {
	f := m.File
	for x := id; x != def && x != NoNode; x = f.Parent(x) {
		p := f.Parent(x)
		switch f.Kind(p) {
		case KindIfStatement, KindElifClause:
			if f.Field(p, FieldConsequence) == x {
				if v, known := truth(f.Field(p, FieldCondition)); known && !v {
					return true
				}
			}
			if f.Kind(p) == KindElifClause {
				if v, known := truth(f.Field(f.Parent(p), FieldCondition)); known && v {
					return true // the `if` before it is taken
				}
			}
		case KindElseClause:
			if v, known := truth(f.Field(f.Parent(p), FieldCondition)); known && v {
				return true
			}
		}
	}
	return false
}

// flagTruth is defaultTruth, where every call of def this file shows
// gives each parameter of cond a value of the truth of its default.
func (m *Model) flagTruth(def, cond NodeID) (v, known bool) {
	f := m.File
	if v, known = m.defaultTruth(def, cond); !known {
		return false, false
	}
	set := false
	f.Walk(cond, func(id NodeID) {
		if set || f.Kind(id) != KindIdentifier {
			return
		}
		d, _ := m.defaultTruth(def, id)
		if vals, ok := m.ParamValues(id); ok {
			set = slices.ContainsFunc(vals, func(a NodeID) bool {
				t, ok := m.defaultTruth(NoNode, a)
				return !ok || t != d
			})
		}
	})
	return v, !set
}

// Always reports whether node id runs on every run of the function (or
// module) outer: no if, try, match, loop or boolean operator between
// them. A loop's body runs on every iteration, which a loop in the
// caller cares about, so loops count as always.
func (m *Model) Always(id, outer NodeID) bool { return m.always(id, outer) }

func (m *Model) always(id, outer NodeID) bool {
	f := m.File
	for x := id; x != outer && x != NoNode; x = f.Parent(x) {
		switch f.Kind(x) {
		case KindIfStatement, KindTryStatement, KindBooleanOperator, KindConditionalExpression, KindLambda,
			KindFunctionDefinition, KindElseClause, KindElifClause, KindExceptClause:
			if x != id {
				return false
			}
		}
	}
	return true
}

// runsHotLoop reports whether function def runs a loop of a hot role of
// its own (a loop of steps, of batches): a phase rather than a step.
func (m *Model) runsHotLoop(def NodeID) bool {
	f := m.File
	found := false
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if found {
			return
		}
		if k := f.Kind(id); (k == KindForStatement || k == KindWhileStatement) && m.ScopeNode(id) == def {
			found = m.LoopRole(id).Hot()
		}
	})
	return found
}
