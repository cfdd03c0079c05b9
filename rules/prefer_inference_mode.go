package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// PreferInferenceMode is TL203.
var PreferInferenceMode = &analyzer.Rule{
	Code:      "TL203",
	Name:      "prefer-inference-mode",
	Summary:   "Inference-only code under `torch.no_grad()` could use `torch.inference_mode()`",
	Severity:  analyzer.SeverityWarning,
	Precision: "medium",
	Tags:      []string{"performance", "grad-mode"},
	Preview:   true,
	Kinds:     []analyzer.Kind{analyzer.KindWithItem, analyzer.KindDecorator},
	Check:     checkPreferInferenceMode,
	Doc: `## What it does
Checks for a ` + "`with torch.no_grad():`" + ` block or a ` + "`@torch.no_grad()`" + ` function
that runs a model forward pass and lets nothing but plain Python values
(` + "`.item()`" + `, ` + "`float(...)`" + `, counts and ratios, NumPy arrays) out of it: it
returns or keeps no tensor, stores nothing on objects or in containers
from outside, modifies no tensor in place and calls nothing that could.
Such code could run under ` + "`torch.inference_mode()`" + `. This rule is off by
default; select it by its code.

## Why is this bad?
It is not a bug: ` + "`no_grad`" + ` already stops autograd from recording a graph
and keeping activations. ` + "`torch.inference_mode()`" + ` goes further: tensors
created under it carry no version counter and no view tracking, which
saves a little CPU time on every operation, noticeable with small batches
and many small kernels.

The price is strictness. A tensor created under ` + "`inference_mode`" + ` can never
be used later in a computation that autograd records (it cannot be saved
for backward) and cannot be modified in place outside inference mode. Code
that returns predictions to a training loop, fills a cache, updates an EMA
or initialises weights under ` + "`no_grad`" + ` must keep ` + "`no_grad`" + `; this rule stays
silent on all of them.

## Example
` + "```python" + `
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.size(0)
    return correct / total
` + "```" + `

## Use instead
` + "```python" + `
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.inference_mode():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.size(0)
    return correct / total
` + "```" + `

## Known problems
What a called function does is judged only for functions of the same
file; a call that may modify its arguments or store them (its name reads
as an update, a copy, a cache, an initialisation, ...) keeps the rule
silent, but a project function with an innocent name that stores its
inputs is not seen. A model whose forward pass itself caches tensors on
the module (rotary-embedding tables, key/value caches built lazily) would
keep inference tensors that a later training step cannot use; such
caches live in other files and are not seen. The gain is small on large
batches; measure before converting hot paths.

## References
- [torch.inference_mode](https://pytorch.org/docs/stable/generated/torch.autograd.grad_mode.inference_mode.html)
- [Autograd mechanics: inference mode](https://pytorch.org/docs/stable/notes/autograd.html#inference-mode)
- [Inference mode (C++ notes: limits of inference tensors)](https://pytorch.org/cppdocs/notes/inference_mode.html)
`,
}

func checkPreferInferenceMode(p *analyzer.Pass, n analyzer.NodeID) {
	f, m := p.File, p.Model
	var sw, region, fn analyzer.NodeID
	switch f.Kind(n) {
	case analyzer.KindWithItem:
		sw = f.Field(n, analyzer.FieldValue)
		if !imIsNoGrad(m, sw) {
			return
		}
		with := f.Parent(n)
		for with != analyzer.NoNode && f.Kind(with) != analyzer.KindWithStatement {
			with = f.Parent(with)
		}
		if with == analyzer.NoNode || imWithItems(f, with) != 1 {
			return
		}
		region, fn = f.Field(with, analyzer.FieldBody), m.ScopeNode(with)
	case analyzer.KindDecorator:
		sw = f.FirstChild(n)
		if !imIsNoGrad(m, sw) {
			return
		}
		def := f.Field(f.Parent(n), analyzer.FieldDefinition)
		if f.Kind(def) != analyzer.KindFunctionDefinition {
			return
		}
		region, fn = f.Field(def, analyzer.FieldBody), def
	default:
		return
	}
	if m.GradModeAt(region) != analyzer.GradDisabled {
		return // inside enable_grad, or the switch was not understood
	}
	c := &imChecker{m: m, f: f, region: region, fn: fn, plain: map[string]int8{}}
	if !c.inferenceOnly() {
		return
	}
	p.Report(sw, fmt.Sprintf("`%s` only wraps inference whose results leave it as plain Python values: "+
		"`torch.inference_mode()` also skips version counting and view tracking (its tensors cannot be used by autograd "+
		"or modified in place outside it later)", analyzer.Snippet(f.Text(sw), 40)))
}

// imIsNoGrad reports whether expr is `torch.no_grad()` or `torch.no_grad`.
func imIsNoGrad(m *analyzer.Model, expr analyzer.NodeID) bool {
	f := m.File
	expr = f.Unparen(expr)
	if f.Kind(expr) == analyzer.KindCall {
		if len(m.Args(expr)) > 0 {
			return false
		}
		expr = f.Field(expr, analyzer.FieldFunction)
	}
	return m.QualifiedName(expr) == "torch.no_grad"
}

// imWithItems counts the items of a with statement.
func imWithItems(f *analyzer.File, with analyzer.NodeID) int {
	n := 0
	f.Walk(f.FirstChild(with), func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindWithItem {
			n++
		}
	})
	return n
}

// imChecker decides whether a no_grad region is inference only.
type imChecker struct {
	m      *analyzer.Model
	f      *analyzer.File
	region analyzer.NodeID // the with body or the function body
	fn     analyzer.NodeID // the function (or module) the region lies in
	plain  map[string]int8 // memo of plainName: 1 plain, 2 not, 3 computing
	depth  int
}

// imMutatingWords mark calls that may modify or keep their arguments.
var imMutatingWords = []string{
	"update", "copy", "ema", "init", "load", "set", "apply", "swap", "sync", "average", "merge", "fuse", "quant",
	"prune", "assign", "fill", "reset", "register", "step", "clip", "train", "backward", "grad", "hook", "attach",
	"push", "put", "store", "cache", "add", "insert", "extend", "scatter", "index_", "zero", "calibrat", "fit",
	"optimize", "accumulate", "record", "remember", "replace", "emit", "send", "broadcast", "reduce", "gather",
}

// inferenceOnly reports whether the region runs a forward pass and lets
// only plain values out.
func (c *imChecker) inferenceOnly() bool {
	f, m := c.f, c.m
	ok, forward := true, false
	f.Walk(c.region, func(id analyzer.NodeID) {
		if !ok {
			return
		}
		switch f.Kind(id) {
		case analyzer.KindFunctionDefinition, analyzer.KindClassDefinition, analyzer.KindYield, analyzer.KindGlobalStatement,
			analyzer.KindNonlocalStatement:
			ok = false
		case analyzer.KindReturnStatement:
			if v := f.FirstChild(id); v != analyzer.NoNode && !c.plainExpr(v, 0) {
				ok = false
			}
		case analyzer.KindAssignment, analyzer.KindAugmentedAssignment:
			ok = c.assignmentStaysLocal(f.Field(id, analyzer.FieldLeft))
		case analyzer.KindAttribute:
			switch f.Text(f.Field(id, analyzer.FieldAttribute)) {
			case "data", "requires_grad", "grad", "weight_", "_parameters":
				ok = false
			}
		case analyzer.KindKeywordArgument:
			if f.TextIs(f.Field(id, analyzer.FieldName), "requires_grad") || f.TextIs(f.Field(id, analyzer.FieldName), "out") {
				ok = false
			}
		case analyzer.KindCall:
			if m.IsForwardCall(id) {
				// A forward whose output is dropped runs for its side
				// effects: hooks, calibration, running statistics.
				forward = true
				ok = !c.outputDropped(id)
				return
			}
			ok = c.callIsHarmless(id)
		}
	})
	return ok && forward && !imRegistersHooks(m) && c.resultsStayPlain()
}

type imHooksKey struct{}

// imRegistersHooks reports whether the file registers hooks on modules or
// tensors: a hook can keep what a forward pass computes where this rule
// does not look.
func imRegistersHooks(m *analyzer.Model) bool {
	return m.Memo(imHooksKey{}, func() any {
		f := m.File
		found := false
		f.Walk(analyzer.Root, func(id analyzer.NodeID) {
			if !found && f.Kind(id) == analyzer.KindCall {
				name := m.MethodName(id)
				found = strings.HasPrefix(name, "register_") && strings.Contains(name, "hook")
			}
		})
		return found
	}).(bool)
}

// assignmentStaysLocal reports whether an assignment target is a name or
// a subscript of a name the region binds itself: not an attribute (state
// on an object, a parameter's .data) nor a container from outside.
func (c *imChecker) assignmentStaysLocal(target analyzer.NodeID) bool {
	f := c.f
	switch f.Kind(target) {
	case analyzer.KindIdentifier:
		return true
	case analyzer.KindAttribute:
		return false
	case analyzer.KindSubscript:
		v := f.Field(target, analyzer.FieldValue)
		return f.Kind(v) == analyzer.KindIdentifier && c.boundOnlyInRegion(f.Text(v))
	case analyzer.KindPatternList, analyzer.KindTuplePattern, analyzer.KindListPattern, analyzer.KindExpressionList,
		analyzer.KindTuple, analyzer.KindList, analyzer.KindParenthesizedExpression, analyzer.KindListSplatPattern:
		ok := true
		f.Children(target, func(ch analyzer.NodeID) bool {
			ok = ok && c.assignmentStaysLocal(ch)
			return ok
		})
		return ok
	}
	return false
}

// callIsHarmless reports whether a call in the region can neither modify
// nor keep a tensor: no in-place method, no optimizer or backward, no
// grad-mode switch, no weight initialisation, no call named like an
// update; a function of this file is looked into.
func (c *imChecker) callIsHarmless(call analyzer.NodeID) bool {
	f, m := c.f, c.m
	q := m.CallName(call)
	method := m.MethodName(call)
	if strings.HasPrefix(q, "torch.nn.init.") || strings.HasPrefix(q, "torch.optim.") || q == "torch.enable_grad" ||
		q == "torch.set_grad_enabled" || q == "torch.inference_mode" || m.IsBackwardCall(call) {
		return false
	}
	if method != "" && strings.HasSuffix(method, "_") && !strings.HasSuffix(method, "__") {
		return false // in place
	}
	if imModuleConversions[method] && isModelReceiver(m, m.Receiver(call)) {
		// model.to(device) under inference_mode would turn the
		// parameters into inference tensors.
		return false
	}
	switch method {
	case "append", "extend":
		// Into a list of the region's own, or of plain values.
		recv := m.Receiver(call)
		if f.Kind(recv) == analyzer.KindIdentifier && c.boundOnlyInRegion(f.Text(recv)) {
			return true
		}
		for _, a := range m.Args(call) {
			if !c.plainExpr(a, 0) {
				return false
			}
		}
		return true
	case "item", "tolist", "numpy", "cpu", "argmax", "max", "min", "sum", "mean", "size", "to", "eq", "float", "view", "reshape",
		"softmax", "sigmoid", "topk", "sort", "squeeze", "unsqueeze", "detach", "format", "join", "info", "debug", "warning", "print",
		"eval", "cuda", "clone", "contiguous", "permute", "long", "int", "half", "round", "clamp", "abs", "exp", "log", "pow":
		return true
	}
	name := strings.ToLower(lastIdent(f, f.Field(call, analyzer.FieldFunction)))
	if method == "" && name == "print" {
		return true
	}
	if strings.HasSuffix(q, "_") {
		return false // torch.nn.utils.clip_grad_norm_ and the like
	}
	if method == "" && (strings.HasPrefix(q, "torch.") || strings.HasPrefix(q, "numpy.")) {
		return true // a library function: it returns new values
	}
	for _, w := range imMutatingWords {
		if strings.Contains(name, w) {
			return false
		}
	}
	if def := m.LocalCallee(call); def != analyzer.NoNode {
		return c.localIsHarmless(def)
	}
	if method != "" && f.TextIs(m.Receiver(call), "self") {
		return false // a method of this object that this file does not define here
	}
	return true
}

// imModuleConversions are nn.Module methods that replace the parameters'
// data with converted copies.
var imModuleConversions = map[string]bool{
	"to": true, "cuda": true, "cpu": true, "half": true, "float": true, "double": true, "bfloat16": true,
	"type": true, "to_empty": true, "xpu": true,
}

// outputDropped reports whether a forward call's output is thrown away:
// the call is a statement of its own, or assigned only to names that
// nothing reads afterwards (`_ = model(x)`).
func (c *imChecker) outputDropped(call analyzer.NodeID) bool {
	f := c.f
	p := f.Parent(call)
	for f.Kind(p) == analyzer.KindAttribute || f.Kind(p) == analyzer.KindParenthesizedExpression {
		p = f.Parent(p) // `_ = unet(x).sample`
	}
	switch f.Kind(p) {
	case analyzer.KindExpressionStatement:
		return true
	case analyzer.KindAssignment:
		if f.Field(p, analyzer.FieldRight) == analyzer.NoNode || !f.Contains(f.Field(p, analyzer.FieldRight), call) {
			return false
		}
	default:
		return false
	}
	read := false
	var names []string
	f.Walk(f.Field(p, analyzer.FieldLeft), func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindIdentifier {
			names = append(names, f.Text(id))
		}
	})
	if len(names) == 0 {
		return false
	}
	end := f.N(p).End
	loop := c.m.EnclosingLoop(p)
	f.Walk(c.fn, func(id analyzer.NodeID) {
		if read || f.Kind(id) != analyzer.KindIdentifier || rgIsBinding(f, id) {
			return
		}
		if fl := f.N(id).Field; fl == analyzer.FieldAttribute || fl == analyzer.FieldName {
			return
		}
		if f.N(id).Start < end && (loop == analyzer.NoNode || !f.Contains(loop, id)) {
			return
		}
		for _, n := range names {
			read = read || f.TextIs(id, n)
		}
	})
	return !read
}

// rgIsBinding reports whether an identifier is an assignment or for
// loop target, not a read.
func rgIsBinding(f *analyzer.File, id analyzer.NodeID) bool {
	child := id
	for p := f.Parent(id); p != analyzer.NoNode; child, p = p, f.Parent(p) {
		switch f.Kind(p) {
		case analyzer.KindPatternList, analyzer.KindTuplePattern, analyzer.KindListPattern, analyzer.KindExpressionList,
			analyzer.KindTuple, analyzer.KindList, analyzer.KindParenthesizedExpression, analyzer.KindListSplatPattern:
			continue
		case analyzer.KindAssignment, analyzer.KindForStatement:
			return f.N(child).Field == analyzer.FieldLeft
		}
		return false
	}
	return false
}

// localIsHarmless checks a called function of this file the same way,
// except that it may return tensors (the caller's use of them is checked
// where they land).
func (c *imChecker) localIsHarmless(def analyzer.NodeID) bool {
	if c.depth > 3 || def == c.fn {
		return false
	}
	sub := &imChecker{m: c.m, f: c.f, region: c.f.Field(def, analyzer.FieldBody), fn: def, plain: map[string]int8{}, depth: c.depth + 1}
	f := c.f
	ok := true
	f.Walk(sub.region, func(id analyzer.NodeID) {
		if !ok {
			return
		}
		switch f.Kind(id) {
		case analyzer.KindFunctionDefinition, analyzer.KindClassDefinition, analyzer.KindYield, analyzer.KindGlobalStatement,
			analyzer.KindNonlocalStatement:
			ok = false
		case analyzer.KindAssignment, analyzer.KindAugmentedAssignment:
			ok = sub.assignmentStaysLocal(f.Field(id, analyzer.FieldLeft))
		case analyzer.KindAttribute:
			switch f.Text(f.Field(id, analyzer.FieldAttribute)) {
			case "data", "requires_grad", "grad":
				ok = false
			}
		case analyzer.KindCall:
			ok = c.m.IsForwardCall(id) || sub.callIsHarmless(id)
		}
	})
	return ok
}

// boundOnlyInRegion reports whether every binding of name in the
// function lies inside the region: a list or tensor the region creates.
func (c *imChecker) boundOnlyInRegion(name string) bool {
	srcs := c.sources()[name]
	if len(srcs) == 0 {
		return false
	}
	for _, s := range srcs {
		if !c.f.Contains(c.region, s.Stmt) {
			return false
		}
	}
	return true
}

func (c *imChecker) sources() map[string][]analyzer.Source {
	return c.m.Sources(c.fn)
}

// resultsStayPlain reports whether every name the region binds and the
// function reads after the region holds a plain value (for a with
// block; a decorated function's locals die with it).
func (c *imChecker) resultsStayPlain() bool {
	f := c.f
	if f.Kind(f.Parent(c.region)) == analyzer.KindFunctionDefinition {
		return true
	}
	bound := map[string]bool{}
	for name, srcs := range c.sources() {
		for _, s := range srcs {
			if f.Contains(c.region, s.Stmt) {
				bound[name] = true
			}
		}
	}
	ok := true
	end := f.N(c.region).End
	scope := c.fn
	f.Walk(scope, func(id analyzer.NodeID) {
		if !ok || f.N(id).Start < end || f.Kind(id) != analyzer.KindIdentifier {
			return
		}
		name := f.Text(id)
		if fl := f.N(id).Field; fl == analyzer.FieldAttribute || fl == analyzer.FieldName || !bound[name] {
			return
		}
		ok = c.plainName(name, 0)
	})
	if ok {
		// A loop around the region runs it again after the names were read.
		for l := c.m.EnclosingLoop(f.Parent(c.region)); l != analyzer.NoNode; l = c.m.EnclosingLoop(l) {
			f.Walk(f.Field(l, analyzer.FieldBody), func(id analyzer.NodeID) {
				if ok && f.Kind(id) == analyzer.KindIdentifier && bound[f.Text(id)] && !f.Contains(c.region, id) {
					ok = c.plainName(f.Text(id), 0)
				}
			})
		}
	}
	return ok
}

// plainName reports whether every value bound to name in the function
// is plain.
func (c *imChecker) plainName(name string, depth int) bool {
	switch c.plain[name] {
	case 1:
		return true
	case 2:
		return false
	case 3:
		return true // a cycle through `x += ...`: decided by the other terms
	}
	srcs := c.sources()[name]
	if len(srcs) == 0 {
		return false
	}
	c.plain[name] = 3
	ok := true
	for _, s := range srcs {
		if s.Loop {
			ok = ok && c.f.Kind(c.f.Unparen(s.Value)) == analyzer.KindCall && c.m.CallName(c.f.Unparen(s.Value)) == "range"
		} else {
			ok = ok && c.plainExpr(s.Value, depth+1)
		}
	}
	c.plain[name] = 2
	if ok {
		c.plain[name] = 1
	}
	return ok
}

// plainExpr reports whether an expression's value is a plain Python
// value: a number, string, None, a NumPy array, or a container or
// arithmetic of such values.
func (c *imChecker) plainExpr(e analyzer.NodeID, depth int) bool {
	f, m := c.f, c.m
	e = f.Unparen(e)
	if depth > 16 {
		return false
	}
	switch f.Kind(e) {
	case analyzer.KindInteger, analyzer.KindFloat, analyzer.KindString, analyzer.KindConcatenatedString, analyzer.KindTrue,
		analyzer.KindFalse, analyzer.KindNone:
		return true
	case analyzer.KindIdentifier:
		return c.plainName(f.Text(e), depth)
	case analyzer.KindAssignment:
		return c.plainExpr(f.Field(e, analyzer.FieldRight), depth+1)
	case analyzer.KindAttribute:
		switch f.Text(f.Field(e, analyzer.FieldAttribute)) {
		case "shape", "ndim", "dtype", "device":
			return true
		}
		return false
	case analyzer.KindSubscript:
		return c.plainExpr(f.Field(e, analyzer.FieldValue), depth+1)
	case analyzer.KindBinaryOperator:
		return c.plainExpr(f.Field(e, analyzer.FieldLeft), depth+1) && c.plainExpr(f.Field(e, analyzer.FieldRight), depth+1)
	case analyzer.KindUnaryOperator:
		return c.plainExpr(f.Field(e, analyzer.FieldArgument), depth+1)
	case analyzer.KindComparisonOperator, analyzer.KindNotOperator, analyzer.KindBooleanOperator:
		ok := true
		f.Children(e, func(ch analyzer.NodeID) bool {
			if k := f.Kind(ch); k != analyzer.KindToken {
				ok = ok && c.plainExpr(ch, depth+1)
			}
			return ok
		})
		return ok
	case analyzer.KindConditionalExpression:
		kids := f.ChildList(e)
		return len(kids) == 3 && c.plainExpr(kids[0], depth+1) && c.plainExpr(kids[2], depth+1)
	case analyzer.KindList, analyzer.KindTuple, analyzer.KindExpressionList, analyzer.KindSet:
		ok := true
		f.Children(e, func(ch analyzer.NodeID) bool {
			ok = ok && c.plainExpr(ch, depth+1)
			return ok
		})
		return ok
	case analyzer.KindDictionary:
		ok := true
		f.Children(e, func(ch analyzer.NodeID) bool {
			if f.Kind(ch) == analyzer.KindPair {
				ok = ok && c.plainExpr(f.Field(ch, analyzer.FieldValue), depth+1)
			} else {
				ok = false
			}
			return ok
		})
		return ok
	case analyzer.KindCall:
		switch m.MethodName(e) {
		case "item", "tolist", "numpy", "size", "dim", "numel", "format", "join", "keys", "__len__":
			return true
		}
		q := m.CallName(e)
		switch {
		case q == "float", q == "int", q == "len", q == "bool", q == "str", q == "round", q == "repr", q == "abs",
			strings.HasPrefix(q, "math."), strings.HasPrefix(q, "numpy."):
			return true
		case q == "sum", q == "max", q == "min":
			ok := true
			for _, a := range m.Args(e) {
				ok = ok && c.plainExpr(a, depth+1)
			}
			return ok
		}
	}
	return false
}
