package analyzer

import (
	"slices"
	"strings"
)

// Flow follows values through one function by the keys they are held
// under: names, and attribute chains of self (`self.fake_B`). It answers
// which keys an expression's graph may run through, where each key gets
// its values, and whether a key may hold a tensor with autograd history
// at all, judged from every value it gets. Rules that ask whether two
// uses share a graph, or whether a graph is built afresh in each step,
// ask a Flow.
//
// A Flow remembers what it has judged; take a new one for each question
// (the index of the function's assignments is shared).
type Flow struct {
	m       *Model
	f       *File
	fn      NodeID
	sources map[string][]Source
	carry   map[string]carryState
	// FreshData says each run of the code asked about draws data of its
	// own (a loop over batches, a step function given its batch): a
	// value from outside it (a parameter, an attribute set elsewhere)
	// then carries a graph only where the code shows it does.
	FreshData bool
	// cyclic is set while a judgement met a key still being judged.
	cyclic bool
	// calls holds the keys the function calls (called), once worked out.
	calls map[string]bool
}

// called returns the keys of the names and attribute chains that the
// function calls (`G` of `G(z)`, `self.net` of `self.net(x)`).
func (fl *Flow) called() map[string]bool {
	if fl.calls != nil {
		return fl.calls
	}
	f := fl.f
	fl.calls = map[string]bool{}
	f.Walk(fl.fn, func(id NodeID) {
		if f.Kind(id) != KindCall || fl.m.ScopeNode(id) != fl.fn {
			return
		}
		switch fn := f.Unparen(f.Field(id, FieldFunction)); f.Kind(fn) {
		case KindIdentifier:
			fl.calls[f.Text(fn)] = true
		case KindAttribute:
			// `self.net(x)`: a chain of attributes of self; a method
			// called on a value (`x.mean()`) calls no value of its own.
			if root := f.Field(fn, FieldObject); f.TextIs(root, "self") || f.Kind(root) == KindAttribute && strings.HasPrefix(FlowKey(f, fn), "self.") {
				fl.calls[FlowKey(f, fn)] = true
			} else if f.Kind(root) == KindIdentifier && fl.m.IsForwardCall(id) {
				// `model.decoder(x)`, model a dict of modules: what holds
				// the modules the function runs, not a tensor.
				fl.calls[f.Text(root)] = true
			}
		}
	})
	return fl.calls
}

// Source is one place in a function where a key gets a value.
type Source struct {
	Stmt  NodeID // the assignment, for loop, with item or walrus
	Value NodeID // the value assigned (the iterable of a for loop)
	Loop  bool   // a for loop target
}

type flowKey struct{ fn NodeID }

// Flow returns a flow of the function fn (Root for module level).
func (m *Model) Flow(fn NodeID) *Flow {
	return &Flow{m: m, f: m.File, fn: fn, sources: m.Sources(fn), carry: map[string]carryState{}}
}

// Sources maps every key bound in fn's own scope (Root for module
// level) to where it gets its values, in source order. The map is
// shared: it must not be changed.
func (m *Model) Sources(fn NodeID) map[string][]Source {
	return m.Memo(flowKey{fn}, func() any { return m.indexSources(fn) }).(map[string][]Source)
}

// Sources returns where key gets its values in the function, in source
// order.
func (fl *Flow) Sources(key string) []Source { return fl.sources[key] }

// indexSources indexes every binding in fn's own scope by the key it
// binds: assignments (nested unpacking included), for loop targets, with
// targets and walrus names.
func (m *Model) indexSources(fn NodeID) map[string][]Source {
	f := m.File
	out := map[string][]Source{}
	var bind func(target NodeID, s Source)
	bind = func(target NodeID, s Source) {
		switch f.Kind(target) {
		case KindIdentifier:
			out[f.Text(target)] = append(out[f.Text(target)], s)
		case KindAttribute:
			k := FlowKey(f, target)
			out[k] = append(out[k], s)
		case KindSubscript:
			bind(f.Field(target, FieldValue), s)
		case KindPatternList, KindTuplePattern, KindListPattern, KindExpressionList, KindTuple, KindList,
			KindListSplatPattern, KindParenthesizedExpression, KindListSplat:
			f.Children(target, func(c NodeID) bool {
				bind(c, s)
				return true
			})
		}
	}
	f.Walk(fn, func(id NodeID) {
		switch f.Kind(id) {
		case KindAssignment, KindAugmentedAssignment, KindForStatement, KindAsPattern, KindNamedExpression:
		default:
			return
		}
		if m.ScopeNode(id) != fn {
			return
		}
		switch f.Kind(id) {
		case KindAssignment, KindAugmentedAssignment:
			if v := f.Field(id, FieldRight); v != NoNode {
				bind(f.Field(id, FieldLeft), Source{Stmt: id, Value: v})
			}
		case KindForStatement:
			bind(f.Field(id, FieldLeft), Source{Stmt: id, Value: f.Field(id, FieldRight), Loop: true})
		case KindAsPattern:
			bind(f.FirstChild(f.Field(id, FieldAlias)), Source{Stmt: id, Value: f.FirstChild(id)})
		case KindNamedExpression:
			bind(f.Field(id, FieldName), Source{Stmt: id, Value: f.Field(id, FieldValue)})
		}
	})
	return out
}

// FlowKey keys an attribute chain: `self.fake_B` by its text, anything
// else (`outputs.logits`, `args.beta`) by the name it hangs from; "" for
// a chain that hangs from no name.
func FlowKey(f *File, attr NodeID) string {
	root := attr
	for f.Kind(root) == KindAttribute {
		root = f.Field(root, FieldObject)
	}
	if f.TextIs(root, "self") {
		return strings.Join(strings.Fields(f.Text(attr)), "")
	}
	if f.Kind(root) == KindIdentifier {
		return f.Text(root)
	}
	return ""
}

// shapeMethods take shapes, devices, dtypes or dimensions as arguments:
// their arguments add nothing to the receiver's graph.
var shapeMethods = map[string]bool{
	"to": true, "cuda": true, "cpu": true, "type": true, "view": true, "reshape": true, "permute": true,
	"expand": true, "repeat": true, "transpose": true, "squeeze": true, "unsqueeze": true, "flatten": true,
	"sum": true, "mean": true, "norm": true, "type_as": true, "view_as": true, "expand_as": true, "fill_": true,
	"float": true, "half": true, "double": true, "long": true, "contiguous": true, "split": true, "chunk": true,
}

// Keys adds to into the keys through which expr's value may carry
// autograd history, each with the nodes that mention it. Callees,
// keyword names, detached subexpressions, fresh tensors and shape
// arguments are skipped.
func (fl *Flow) Keys(expr NodeID, into map[string][]NodeID) {
	f, m := fl.f, fl.m
	if expr == NoNode {
		return
	}
	add := func(k string, at NodeID) {
		if k != "" && k != "self" {
			into[k] = append(into[k], at)
		}
	}
	switch f.Kind(expr) {
	case KindIdentifier:
		add(f.Text(expr), expr)
		return
	case KindAttribute:
		if nonGradAttributes[f.Text(f.Field(expr, FieldAttribute))] {
			return
		}
		add(FlowKey(f, expr), expr)
		return
	case KindSubscript:
		if f.TextIs(f.Field(expr, FieldSubscript), "1") && m.returnsIndices(f.Unparen(f.Field(expr, FieldValue))) {
			return // the indices of a (values, indices) pair
		}
		fl.Keys(f.Field(expr, FieldValue), into)
		return
	case KindKeywordArgument:
		fl.Keys(f.Field(expr, FieldValue), into)
		return
	case KindLambda, KindString, KindConcatenatedString, KindComparisonOperator:
		return
	case KindCall:
		method := m.MethodName(expr)
		if detachingMethods[method] {
			return
		}
		q := m.CallName(expr)
		if q != "" {
			method = "" // a function of a module (`torch.mean(x)`), not a method of a value
		}
		switch {
		case castBuiltins[q], strings.HasPrefix(q, "math."), strings.HasPrefix(q, "numpy."), q == "isinstance":
			return
		case strings.HasPrefix(q, "torch.") && freshTensors[strings.TrimPrefix(q, "torch.")]:
			return // a fresh tensor: its arguments are shapes and fill values
		case q == "torch.autograd.Variable" || q == "torch.autograd.variable.Variable":
			return // a leaf: Variable(x) holds x's values, detached
		}
		if method != "" {
			fl.Keys(m.Receiver(expr), into)
			if shapeMethods[method] {
				return
			}
		}
		f.Children(f.Field(expr, FieldArguments), func(c NodeID) bool {
			switch {
			case f.Kind(c) != KindKeywordArgument:
				fl.Keys(c, into)
			case q == "" && m.QualifiedName(f.Unparen(f.Field(c, FieldValue))) == "":
				// A keyword argument of a function or method of the
				// project, or of a value (`self.value_loss(value=v,
				// reward=R)`), feeds the result like a positional one; a
				// library function's are options (`dim=1`), and so are a
				// library's names (`dtype=np.float32`).
				fl.Keys(f.Field(c, FieldValue), into)
			}
			return true
		})
		return
	}
	f.Children(expr, func(c NodeID) bool {
		fl.Keys(c, into)
		return true
	})
}

// freshTensors are torch functions that make a new tensor from shapes
// and fill values.
var freshTensors = map[string]bool{
	"randn": true, "rand": true, "randint": true, "zeros": true, "ones": true, "empty": true, "full": true,
	"arange": true, "linspace": true, "eye": true, "zeros_like": true, "ones_like": true, "empty_like": true,
	"randn_like": true, "rand_like": true, "full_like": true, "randperm": true, "tensor": true,
}

// Reach returns the keys the values of roots may carry a graph through,
// following the function's assignments transitively, each with the
// nodes that mention it (those in roots first). A for loop over data
// (IteratesData) adds nothing.
func (fl *Flow) Reach(roots []NodeID) map[string][]NodeID {
	f := fl.f
	out := map[string][]NodeID{}
	type keySource struct {
		key  string
		stmt NodeID
	}
	seen := map[keySource]bool{}
	var visit func(expr NodeID)
	visit = func(expr NodeID) {
		keys := map[string][]NodeID{}
		fl.Keys(expr, keys)
		for k, at := range keys {
			out[k] = append(out[k], at...)
			if fl.called()[k] {
				continue // a model's constructor arguments are not its outputs' graph
			}
			for _, s := range fl.reachingSources(k, at) {
				if seen[keySource{k, s.Stmt}] {
					continue
				}
				seen[keySource{k, s.Stmt}] = true
				if s.Loop && fl.IteratesData(s.Value) {
					continue
				}
				visit(s.Value)
				if f.Kind(s.Stmt) == KindAugmentedAssignment {
					visit(f.Field(s.Stmt, FieldLeft)) // `x += v` reads x as it was
				}
			}
		}
	}
	for _, r := range roots {
		visit(r)
	}
	return out
}

// reachingSources returns the sources of key that may give the values
// read at the nodes at: for a name, those whose bindings reach the reads
// in statement order (ReachingBindings); for an attribute chain, all.
func (fl *Flow) reachingSources(key string, at []NodeID) []Source {
	f, m := fl.f, fl.m
	srcs := fl.sources[key]
	stmts := map[NodeID]bool{}
	for _, u := range at {
		if f.Kind(u) != KindIdentifier || m.ScopeNode(u) != fl.fn {
			return srcs
		}
		for _, b := range m.ReachingBindings(u) {
			stmts[b.Stmt] = true
		}
	}
	var out []Source
	for _, s := range srcs {
		if stmts[s.Stmt] {
			out = append(out, s)
		}
	}
	return out
}

// IteratesData reports whether a for loop's iterable yields data or
// counters, not tensors with history: a data loader or a range.
func (fl *Flow) IteratesData(iter NodeID) bool {
	return fl.iteratesData(iter, 0)
}

func (fl *Flow) iteratesData(iter NodeID, depth int) bool {
	f, m := fl.f, fl.m
	iter = f.Unparen(iter)
	if f.Kind(iter) == KindIdentifier && depth < 4 {
		// `iterable = enumerate(tqdm(loader))` in one branch,
		// `enumerate(loader)` in the other: what every binding that
		// reaches the loop gives.
		if bs := m.ReachingBindings(iter); len(bs) > 0 && !slices.ContainsFunc(bs, func(b *Binding) bool {
			return b.Kind != BindAssign || b.Unpacked || !fl.iteratesData(b.Value, depth+1)
		}) {
			return true
		}
	}
	for f.Kind(iter) == KindCall {
		switch m.CallName(iter) {
		case "range":
			return true
		case "enumerate", "zip", "tqdm.tqdm", "tqdm", "tqdm.auto.tqdm", "iter", "reversed":
			args := m.Args(iter)
			if len(args) == 0 {
				return false
			}
			iter = f.Unparen(args[0])
			continue
		}
		break
	}
	name := strings.ToLower(f.Text(iter))
	return strings.Contains(name, "loader") || strings.Contains(name, "batches") || strings.Contains(name, "dataset") ||
		m.namesData(iter) || m.CallName(iter) == "torch.utils.data.DataLoader"
}

// namesData reports whether a name or attribute says by its last word
// that it holds data (`data`, `train_data`, `self.val_data`), and is not
// a name bound where it is read to a container its code builds
// (builtHere).
func (m *Model) namesData(id NodeID) bool {
	name := strings.ToLower(m.File.Text(id))
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	words := strings.Split(strings.Trim(name, "_"), "_")
	return words[len(words)-1] == "data" && !m.builtHere(id)
}

// MayCarry reports whether key may hold a tensor with autograd history,
// judged from every place it gets a value: models, losses, literals,
// detached values, data and hyperparameters do not. at is a use of key.
func (fl *Flow) MayCarry(key string, at NodeID) bool {
	if s, judged := fl.carry[key]; judged {
		if s == carryBusy {
			// A key met again while judged (`x = x.cuda()`, `h = h + 1`)
			// adds no graph of its own: its other values decide.
			fl.cyclic = true
			return false
		}
		return s == carryYes
	}
	fl.carry[key] = carryBusy
	outer := fl.cyclic
	fl.cyclic = false
	if fl.mayCarry(key, at) {
		fl.carry[key] = carryYes
		fl.cyclic = outer
		return true
	}
	if fl.cyclic {
		delete(fl.carry, key) // judged before a key it depends on was: ask again
	} else {
		fl.carry[key] = carryNo
	}
	fl.cyclic = fl.cyclic || outer
	return false
}

func (fl *Flow) mayCarry(key string, at NodeID) bool {
	f, m := fl.f, fl.m
	if c := m.ClassifyCallee(at); c == CallableModel || c == CallableLoss || fl.called()[key] {
		// A model, a loss, or what the function calls (`G(z)`, then
		// `G.sample_noise(n)`): no tensor, and the parameters it holds
		// are leaves that every step shares.
		return false
	}
	srcs := fl.sources[key]
	for _, s := range srcs {
		if s.Loop {
			if !fl.IteratesData(s.Value) {
				return true
			}
			continue
		}
		if !fl.Leaf(s.Value) {
			return true
		}
	}
	if f.Kind(at) == KindAttribute {
		if importedChain(m, at) {
			return false // `np.float32`, `torch.float16`: a module's constant
		}
		if fl.FreshData {
			// self.x set in another method: what it is set to there.
			return fl.attrCarries(at)
		}
		// self.x set in another method, or passed in: unseen.
		return len(srcs) == 0 || !fl.assignedOnlyHere(at)
	}
	if len(srcs) > 0 && m.ScopeNode(srcs[0].Stmt) == fl.fn {
		return false
	}
	b := m.Resolve(at)
	switch {
	case b == nil:
		return !leafBuiltins[f.Text(at)]
	case b.Kind == BindImport || b.Kind == BindFunction || b.Kind == BindClass:
		return false
	case b.Kind == BindParam:
		if fl.FreshData {
			// Only what the code does with it shows a graph, or what
			// the calls of the file give it.
			return m.CarriesGraph(at) || fl.reusedGraphArg(b)
		}
		return !fl.scalarParam(b.Stmt)
	case b.Kind == BindAssign && !b.Unpacked:
		return !fl.Leaf(b.Value)
	case b.Kind == BindLoopTarget && f.Kind(b.Stmt) == KindForInClause:
		// A comprehension's variable: what its iterable holds.
		return b.Value == NoNode || !fl.Leaf(b.Value)
	}
	return true
}

// reusedGraphArg reports whether a call of the file passes, for the
// parameter b binds, a name that holds a graph and is bound outside the
// loop that makes the call: every call gets the same graph (a GAN's fake
// batch made once for several critic steps), so every call's backward
// runs through it again.
func (fl *Flow) reusedGraphArg(b *Binding) bool {
	f, m := fl.f, fl.m
	args, _ := m.paramArgs(b)
	for _, a := range args {
		a = f.Unparen(a)
		if f.Kind(a) != KindIdentifier || !m.CarriesGraph(a) {
			continue
		}
		loop := m.statementLoop(a)
		if loop == NoNode {
			continue
		}
		// Every binding that reaches the call is made outside the loop:
		// one that the loop makes gives a fresh graph to later calls.
		rb := m.ReachingBindings(a)
		if len(rb) > 0 && !slices.ContainsFunc(rb, func(b *Binding) bool { return f.Contains(loop, b.Stmt) }) {
			return true
		}
	}
	return false
}

// attrCarries reports whether an attribute chain of self is assigned, in
// a method of its class, a value that may carry a graph.
func (fl *Flow) attrCarries(attr NodeID) bool {
	f, m := fl.f, fl.m
	class := m.EnclosingClass(attr)
	if class == NoNode {
		return m.CarriesGraph(attr)
	}
	key := FlowKey(f, attr)
	yes := false
	f.Walk(class, func(id NodeID) {
		if yes || f.Kind(id) != KindAssignment && f.Kind(id) != KindAugmentedAssignment {
			return
		}
		left := f.Field(id, FieldLeft)
		if f.Kind(left) == KindAttribute && FlowKey(f, left) == key && m.ScopeNode(id) != fl.fn {
			yes = m.CarriesGraph(f.Field(id, FieldRight))
		}
	})
	return yes
}

// leafBuiltins are unbound names that hold no tensor.
var leafBuiltins = map[string]bool{
	"True": true, "False": true, "None": true, "print": true, "range": true, "len": true, "float": true, "int": true,
	"sum": true, "max": true, "min": true, "abs": true, "enumerate": true, "zip": true, "list": true, "dict": true, "tuple": true,
}

// assignedOnlyHere reports whether a `self.x` key is assigned in no other
// method of the class than the flow's function.
func (fl *Flow) assignedOnlyHere(attr NodeID) bool {
	f, m := fl.f, fl.m
	class := m.EnclosingClass(attr)
	if class == NoNode {
		return false
	}
	key := FlowKey(f, attr)
	only := true
	f.Walk(class, func(id NodeID) {
		if !only || f.Kind(id) != KindAssignment && f.Kind(id) != KindAugmentedAssignment {
			return
		}
		left := f.Field(id, FieldLeft)
		if f.Kind(left) == KindAttribute && FlowKey(f, left) == key && m.ScopeNode(id) != fl.fn {
			only = false
		}
	})
	return only
}

// scalarParam reports whether a parameter is a hyperparameter or data:
// it has a number, string or boolean default, a scalar annotation, or a
// name that reads so.
func (fl *Flow) scalarParam(param NodeID) bool {
	f := fl.f
	if v := f.Field(param, FieldValue); v != NoNode {
		switch f.Kind(v) {
		case KindInteger, KindFloat, KindString, KindTrue, KindFalse:
			return true
		}
	}
	switch f.Text(f.Field(param, FieldType)) {
	case "int", "float", "bool", "str":
		return true
	}
	name := param
	if f.Kind(param) != KindIdentifier {
		name = f.Field(param, FieldName)
		if name == NoNode {
			name = f.FirstChild(param)
		}
	}
	return leafParamName(f.Text(name))
}

// leafParamWords are words of parameter names that hold data or
// hyperparameters rather than tensors with history: a batch handed to a
// step function, a loss weight, a step count.
var leafParamWords = map[string]bool{
	"self": true, "cls": true, "batch": true, "data": true, "inputs": true, "input": true, "x": true, "y": true,
	"images": true, "imgs": true, "sample": true, "samples": true, "targets": true, "target": true, "labels": true,
	"steps": true, "step": true, "weight": true, "lambda": true, "alpha": true, "beta": true, "gamma": true,
	"coef": true, "scale": true, "temperature": true, "tau": true, "lr": true, "eps": true, "factor": true,
	"ratio": true, "accum": true, "device": true, "idx": true, "epoch": true, "iteration": true, "args": true,
	"config": true, "cfg": true, "opt": true, "hparams": true, "dim": true, "size": true, "num": true, "n": true,
}

// leafParamName reports whether a parameter name reads as data or a
// hyperparameter: its last word, or its first (`accum_steps`,
// `lambda_gp`, `batch_idx`).
func leafParamName(name string) bool {
	words := strings.Split(strings.ToLower(strings.Trim(name, "_")), "_")
	return leafParamWords[words[0]] || leafParamWords[words[len(words)-1]]
}

// Leaf reports whether a value has no autograd history of its own
// making: a literal, a detached value, a model, or an expression of such
// values.
func (fl *Flow) Leaf(v NodeID) bool {
	f, m := fl.f, fl.m
	v = f.Unparen(v)
	switch f.Kind(v) {
	case KindInteger, KindFloat, KindString, KindConcatenatedString, KindTrue,
		KindFalse, KindNone, KindDictionary, KindLambda, KindComparisonOperator:
		return true
	case KindList, KindTuple:
		if len(f.ChildList(v)) == 0 {
			return true
		}
	}
	if m.GradModeAt(v) == GradDisabled {
		return true // computed with grad disabled: no history
	}
	if m.CarriesGraph(v) {
		return false
	}
	unseen := f.Kind(v) == KindCall && m.CallName(v) == "" && m.Receiver(v) == NoNode && !fl.definedHere(v)
	if unseen && m.ClassifyCallee(f.Field(v, FieldFunction)) == CallableModel {
		return false // a model built by a constructor from elsewhere: `Generator()`
	}
	keys := map[string][]NodeID{}
	fl.Keys(v, keys)
	if unseen && len(keys) > 0 {
		return false // a function this file cannot see, given tensors
	}
	if fl.opOfGradLeaf(v, keys) {
		return false // `torch.exp(log_sigma)`, log_sigma a tensor that requires grad: the op's graph
	}
	for k, at := range keys {
		if fl.MayCarry(k, at[0]) {
			return false
		}
	}
	return true
}

// opOfGradLeaf reports whether v, whose names are keys, is a torch
// operation (a torch function, a tensor method that keeps the graph, or
// arithmetic) on a name every value of which is a tensor made to require
// grad (`torch.tensor(x, requires_grad=True)`, `nn.Parameter(w)`): such
// a result is no leaf, it holds the graph of the operation.
func (fl *Flow) opOfGradLeaf(v NodeID, keys map[string][]NodeID) bool {
	f, m := fl.f, fl.m
	switch f.Kind(v) {
	case KindBinaryOperator, KindUnaryOperator:
	case KindCall:
		q, method := m.CallName(v), m.MethodName(v)
		name, torchFn := strings.CutPrefix(q, "torch.")
		if detachingMethods[method] || torchFn && (nonDifferentiable[name] || strings.HasPrefix(name, "cuda.")) ||
			!torchFn && !tensorMethod(method) {
			return false
		}
	default:
		return false
	}
	for k := range keys {
		if fl.GradLeafKey(k) {
			return true
		}
	}
	return false
}

// gradLeaf reports whether every value key holds is a tensor made to
// require grad: a factory given `requires_grad=True`, an nn.Parameter, or
// `.requires_grad_()`.
func (fl *Flow) gradLeaf(key string) bool {
	f, m := fl.f, fl.m
	srcs := fl.sources[key]
	for _, s := range srcs {
		if v := f.Unparen(s.Value); s.Loop || f.Kind(v) != KindCall || !m.leafCall(v) {
			return false
		}
	}
	return len(srcs) > 0
}

// GradLeafKey reports whether key holds a tensor made to require grad,
// a leaf of autograd: a name the function binds only so (gradLeaf) or
// makes require grad in place (`x.requires_grad_()`), or an attribute of
// self that its class only ever sets so, or makes require grad
// (`self.log_alpha.requires_grad = True` after binding it). What a
// backward computes from such keys alone is a graph of its own making.
func (fl *Flow) GradLeafKey(key string) bool {
	f, m := fl.f, fl.m
	if !strings.HasPrefix(key, "self.") {
		return fl.gradLeaf(key) || m.leavesMadeIn(fl.fn)[key]
	}
	class := m.EnclosingClass(fl.fn)
	if class == NoNode || strings.Count(key, ".") != 1 {
		return false
	}
	made, other := false, false
	f.Walk(class, func(id NodeID) {
		switch f.Kind(id) {
		case KindAssignment:
			left := f.Field(id, FieldLeft)
			if f.Kind(left) != KindAttribute {
				return
			}
			if FlowKey(f, left) == key {
				v := f.Unparen(f.Field(id, FieldRight))
				if f.Kind(v) == KindCall && (m.leafCall(v) || m.parameterLeaf(v)) {
					made = true
				} else if f.Kind(v) != KindCall || !freshTensors[strings.TrimPrefix(m.CallName(v), "torch.")] {
					other = true
				}
				return
			}
			obj := f.Field(left, FieldObject)
			if f.TextIs(f.Field(left, FieldAttribute), "requires_grad") && f.Kind(obj) == KindAttribute &&
				FlowKey(f, obj) == key && f.Kind(f.Field(id, FieldRight)) == KindTrue {
				made = true
			}
		case KindAugmentedAssignment:
			if left := f.Field(id, FieldLeft); f.Kind(left) == KindAttribute && FlowKey(f, left) == key {
				other = true
			}
		case KindCall:
			if r := f.Unparen(m.Receiver(id)); f.Kind(r) == KindAttribute && FlowKey(f, r) == key && m.leafCall(id) {
				made = true
			}
		}
	})
	return made && !other
}

// definedHere reports whether a call calls a function or class defined
// in this file.
func (fl *Flow) definedHere(call NodeID) bool {
	fn := fl.f.Field(call, FieldFunction)
	if fl.f.Kind(fn) != KindIdentifier {
		return false
	}
	b := fl.m.Resolve(fn)
	return b != nil && (b.Kind == BindFunction || b.Kind == BindClass)
}

// AssignedBefore reports whether key is assigned inside body by a
// statement that ends before the read use, and whether that assignment
// runs on every pass through body (Unconditional).
func (fl *Flow) AssignedBefore(key string, use, body NodeID) (ok, always bool) {
	f := fl.f
	for _, s := range fl.sources[key] {
		if !f.Contains(body, s.Stmt) {
			continue
		}
		before := f.N(s.Stmt).End <= f.N(use).Start && f.Kind(s.Stmt) != KindForStatement
		if s.Loop && f.Contains(f.Field(s.Stmt, FieldBody), use) {
			before = true
		}
		if !before {
			continue
		}
		ok = true
		if f.Unconditional(s.Stmt, body) {
			always = true
		}
	}
	return ok, always
}

// Unconditional reports whether stmt runs whenever body does: no if,
// loop, try, match or conditional expression lies between them.
func (f *File) Unconditional(stmt, body NodeID) bool {
	for p := f.Parent(stmt); p != NoNode && p != body; p = f.Parent(p) {
		switch f.Kind(p) {
		case KindIfStatement, KindElifClause, KindElseClause, KindForStatement,
			KindWhileStatement, KindTryStatement, KindExceptClause, KindMatchStatement,
			KindConditionalExpression, KindBooleanOperator:
			return false
		}
	}
	return true
}

// ReturnsAny reports whether the function returns or yields a value
// that may carry one of keys.
func (fl *Flow) ReturnsAny(keys map[string][]NodeID) bool {
	f, m := fl.f, fl.m
	found := false
	f.Walk(fl.fn, func(id NodeID) {
		if found || (f.Kind(id) != KindReturnStatement && f.Kind(id) != KindYield) || m.ScopeNode(id) != fl.fn {
			return
		}
		ret := map[string][]NodeID{}
		f.Children(id, func(c NodeID) bool {
			fl.Keys(c, ret)
			return true
		})
		for k := range ret {
			if _, ok := keys[k]; ok {
				found = true
			}
		}
	})
	return found
}

// DerivesFrom reports whether expr's value keeps the autograd history of
// a value that from accepts, bound inside within (a hook's output
// parameter): it is such a value, or is computed from one by operations
// that keep the graph. Detaching methods, non-grad attributes,
// non-differentiable torch functions and grad-disabled code end the
// trail, and so does a function this file cannot see into.
func (m *Model) DerivesFrom(expr, within NodeID, from func(*Binding) bool) bool {
	return m.derivesFrom(expr, within, from, 0, 0)
}

// deriveOpts change what derivesFrom follows: deriveViaParams, the calls
// of the function's parameters into their arguments; deriveShallow stops
// it at the calls of the file's functions, which it otherwise follows by
// what their own bodies, read shallowly, return (shallowGraphParams).
type deriveOpts uint8

const (
	deriveViaParams deriveOpts = 1 << iota
	deriveShallow
)

// optionsNames are the names code gives the options of a run (argparse's
// namespace, a config), whose attributes are settings.
var optionsNames = map[string]bool{
	"args": true, "opt": true, "opts": true, "cfg": true, "config": true, "hparams": true, "options": true, "conf": true, "flags": true,
}

// passThroughBuiltins return their argument's elements as they are.
var passThroughBuiltins = map[string]bool{"list": true, "tuple": true, "dict": true, "sorted": true, "reversed": true, "enumerate": true, "zip": true}

func (m *Model) derivesFrom(expr, within NodeID, from func(*Binding) bool, depth int, opts deriveOpts) bool {
	f := m.File
	expr = f.Unparen(expr)
	if expr == NoNode || depth > 16 {
		return false
	}
	viaParams := opts&deriveViaParams != 0
	t := func(e NodeID) bool { return m.derivesFrom(e, within, from, depth+1, opts) }
	switch f.Kind(expr) {
	case KindIdentifier:
		b := m.Resolve(expr)
		if b == nil || !f.Contains(within, b.Stmt) {
			return false
		}
		if from(b) {
			return true
		}
		switch b.Kind {
		case BindLoopTarget:
			// `for i, loss in enumerate(losses)`: loss is an element of
			// losses, i a count; `for a, b in zip(xs, ys)`: a is of xs.
			if v := f.Unparen(b.Value); f.Kind(v) == KindCall && b.Index >= 0 {
				switch args := m.Args(v); m.CallName(v) {
				case "enumerate":
					return b.Index == 1 && len(args) > 0 && t(args[0])
				case "zip":
					return b.Index < len(args) && t(args[b.Index])
				}
			}
			return t(b.Value)
		case BindAssign, BindAugAssign, BindWithTarget:
			if viaParams && b.Unpacked && b.Index != 0 && m.paramCallValue(b.Value, within, depth) {
				// `loss, n = loss_func(out)`: a count or a log beside the
				// loss, for all this file shows of what a parameter returns.
				return false
			}
			if t(b.Value) {
				return true
			}
			if v := f.Unparen(b.Value); b.Kind == BindAssign && !b.Unpacked && f.Kind(v) == KindList && len(f.ChildList(v)) == 0 {
				// `parts = []`, then `parts.append(torch.tanh(x[:, a:b]))`:
				// the list holds what its function appends to it.
				return slices.ContainsFunc(m.appendedTo(b), t)
			}
			return false
		}
	case KindAttribute:
		if nonGradAttributes[f.Text(f.Field(expr, FieldAttribute))] {
			return false
		}
		if obj := f.Unparen(f.Field(expr, FieldObject)); viaParams && f.Kind(obj) == KindIdentifier && optionsNames[f.Text(obj)] {
			return false // `opt.nce_t`: a setting of the run, not a tensor
		}
		return t(f.Field(expr, FieldObject))
	case KindSubscript:
		if f.TextIs(f.Field(expr, FieldSubscript), "1") && m.returnsIndices(f.Unparen(f.Field(expr, FieldValue))) {
			return false // the indices of a (values, indices) pair
		}
		return t(f.Field(expr, FieldValue))
	case KindCall:
		// The grad mode last, as in callCarries.
		return !detachingMethods[m.MethodName(expr)] && m.callDerives(expr, within, opts, t) && m.GradModeAt(expr) != GradDisabled
	case KindBinaryOperator:
		return t(f.Field(expr, FieldLeft)) || t(f.Field(expr, FieldRight))
	case KindUnaryOperator:
		return t(f.Field(expr, FieldArgument))
	case KindConditionalExpression:
		kids := f.ChildList(expr)
		return len(kids) == 3 && (t(kids[0]) || t(kids[2]))
	case KindList, KindTuple, KindExpressionList, KindSet:
		yes := false
		f.Children(expr, func(c NodeID) bool { yes = t(c); return !yes })
		return yes
	case KindDictionary:
		yes := false
		f.Children(expr, func(c NodeID) bool {
			yes = f.Kind(c) == KindPair && t(f.Field(c, FieldValue))
			return !yes
		})
		return yes
	case KindListComprehension, KindGeneratorExpression, KindDictionaryComprehension:
		body := f.Field(expr, FieldBody)
		if f.Kind(body) == KindPair {
			body = f.Field(body, FieldValue)
		}
		return t(body)
	}
	return false
}

// appendedTo returns what the function of binding b adds to the list b
// binds (`parts.append(v)`, `parts.extend(vs)`, `parts.insert(0, v)`),
// in statement order, after b.
func (m *Model) appendedTo(b *Binding) []NodeID {
	return m.Memo(appendedKey{b.Stmt, b.Name}, func() any {
		f := m.File
		scope := m.ScopeNode(b.Stmt)
		var out []NodeID
		f.Walk(scope, func(id NodeID) {
			if f.Kind(id) != KindCall || f.N(id).Start < f.N(b.Stmt).End || m.ScopeNode(id) != scope {
				return
			}
			name := m.MethodName(id)
			if name != "append" && name != "extend" && name != "insert" {
				return
			}
			recv := f.Unparen(m.Receiver(id))
			if f.Kind(recv) != KindIdentifier || !f.TextIs(recv, f.Text(b.Name)) {
				return
			}
			if rb := m.Resolve(recv); rb == nil || rb.Stmt != b.Stmt {
				return
			}
			switch args := m.Args(id); {
			case len(args) == 1 && name != "insert":
				out = append(out, args[0])
			case len(args) == 2 && name == "insert":
				out = append(out, args[1]) // `returns.insert(0, gae + values[t])`
			}
		})
		return out
	}).([]NodeID)
}

type appendedKey struct{ stmt, name NodeID }

// callDerives is derivesFrom for a call run with grad enabled; t asks it
// of the call's parts.
func (m *Model) callDerives(expr, within NodeID, opts deriveOpts, t func(NodeID) bool) bool {
	f := m.File
	viaParams := opts&deriveViaParams != 0
	q := m.CallName(expr)
	if name, ok := strings.CutPrefix(q, "torch."); ok {
		if nonDifferentiable[name] || strings.HasPrefix(name, "cuda.") || strings.HasPrefix(name, "distributed.") {
			return false
		}
	} else if !passThroughBuiltins[q] {
		fn := f.Unparen(f.Field(expr, FieldFunction))
		if m.IsForwardCall(expr) && (m.MethodName(expr) == "" || m.MethodName(expr) == "forward" || m.selfSubmodule(fn)) ||
			m.IsLossCall(expr) && m.selfSubmodule(fn) || m.freeLayerCall(expr) {
			// `self(z, s)`, `self.head(x)`, `self.focal(logits, y)`: a
			// forward pass, or a loss the module holds, computes its
			// output from its inputs; so does a layer without parameters
			// (`nn.LogSigmoid()(x)`).
			return slices.ContainsFunc(m.Args(expr), t)
		}
		if viaParams && m.MethodName(expr) == "" && q == "" && m.calledParam(expr, within) {
			// `criterion(output, label)`, `discriminator(data)`: a
			// loss, model or function the caller hands in computes
			// its result from what it is given.
			return slices.ContainsFunc(m.Args(expr), t)
		}
		if def := m.LocalCallee(expr); def != NoNode && f.Kind(def) == KindFunctionDefinition && opts&deriveShallow == 0 {
			// A function of this file: its result keeps the graph of the
			// arguments its own body returns (`mu, s = coef(out)`).
			args, keeps := m.Args(expr), m.shallowGraphParams(def)
			for i, a := range args {
				if k := f.Kind(a); k == KindKeywordArgument || k == KindListSplat || k == KindDictionarySplat {
					break
				}
				if slices.Contains(keeps, i) && t(a) {
					return true
				}
			}
			return false
		}
		if m.MethodName(expr) == "" || q != "" {
			return false // a function this file cannot see into
		}
		return t(m.Receiver(expr))
	}
	// Every argument, a tensor given by keyword
	// (`F.smooth_l1_loss(input=x, target=y)`) as much as one given
	// by position.
	yes := false
	f.Children(f.Field(expr, FieldArguments), func(c NodeID) bool {
		switch f.Kind(c) {
		case KindKeywordArgument:
			yes = t(f.Field(c, FieldValue))
		case KindDictionarySplat:
		default:
			yes = t(c)
		}
		return !yes
	})
	return yes
}

// paramCallValue reports whether v is, or is a name bound to, a call
// of a parameter of function within (calledParam).
func (m *Model) paramCallValue(v, within NodeID, depth int) bool {
	f := m.File
	for i := depth; i < 16; i++ {
		v = f.Unparen(v)
		switch f.Kind(v) {
		case KindCall:
			return m.calledParam(v, within)
		case KindIdentifier:
			b := m.Resolve(v)
			if b == nil || b.Kind != BindAssign || b.Unpacked {
				return false
			}
			v = b.Value
		default:
			return false
		}
	}
	return false
}

// calledParam reports whether call calls a parameter of function
// within, by its plain name.
func (m *Model) calledParam(call, within NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindIdentifier {
		return false
	}
	b := m.Resolve(fn)
	return b != nil && b.Kind == BindParam && f.Parent(f.Parent(b.Stmt)) == within
}

// importedChain reports whether an attribute chain hangs from a name an
// import binds (`np.float32`, `torch.float16`): an attribute of a module,
// which holds no tensor of this function's graph.
func importedChain(m *Model, attr NodeID) bool {
	f := m.File
	root := attr
	for f.Kind(root) == KindAttribute {
		root = f.Field(root, FieldObject)
	}
	b := m.Resolve(root)
	return b != nil && b.Kind == BindImport
}
