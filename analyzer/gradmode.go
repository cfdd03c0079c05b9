package analyzer

import (
	"maps"
	"slices"
	"strings"
)

// GradMode is whether autograd records operations at a point of the code.
type GradMode uint8

// The grad modes. GradUnknown is a switch whose argument is not a literal,
// such as `torch.set_grad_enabled(phase == "train")`.
const (
	GradEnabled GradMode = iota
	GradDisabled
	GradUnknown
)

func (g GradMode) String() string {
	return [...]string{"enabled", "disabled", "unknown"}[g]
}

// gradSwitch returns the grad mode that entering expr as a context
// manager (or applying it as a decorator) sets, and whether it is a grad
// mode switch at all. expr may be a call or a bare name (`@torch.no_grad`).
func (m *Model) gradSwitch(expr NodeID) (GradMode, bool) {
	f := m.File
	expr = f.Unparen(expr)
	if f.Kind(expr) == KindCall {
		// `ctx = torch.enable_grad if train else torch.no_grad`, then
		// `with ctx():`, or `with (nullcontext if train else no_grad)():`:
		// the classes chosen, called.
		if fn := f.Unparen(f.Field(expr, FieldFunction)); f.Kind(fn) == KindIdentifier && m.conditionalName(fn) || f.Kind(fn) == KindConditionalExpression {
			expr = fn
		}
	}
	if f.Kind(expr) == KindIdentifier && m.conditionalName(expr) {
		// `ctx = torch.enable_grad() if train else torch.no_grad()`, then
		// `with ctx:`. `ctx = ctx if i else torch.no_grad()` names itself.
		if v := m.Resolve(expr).Value; !m.switchBusy[v] {
			if m.switchBusy == nil {
				m.switchBusy = map[NodeID]bool{}
			}
			m.switchBusy[v] = true
			defer delete(m.switchBusy, v)
			return m.gradSwitch(v)
		}
	}
	if f.Kind(expr) == KindConditionalExpression {
		return m.conditionalSwitch(expr)
	}
	call := NoNode
	if f.Kind(expr) == KindCall {
		call = expr
		expr = f.Field(call, FieldFunction)
	}
	q := m.QualifiedName(expr)
	if root := expr; q == "" && f.Kind(expr) == KindAttribute {
		for f.Kind(root) == KindAttribute {
			root = f.Field(root, FieldObject)
		}
		if f.TextIs(root, "torch") && m.Resolve(root) == nil {
			// `torch` bound only by a star import of a package the
			// project does not hold (`from pkg.utils import *`).
			q = strings.Join(strings.Fields(f.Text(expr)), "")
		}
	}
	switch q {
	case "torch.no_grad":
		return GradDisabled, true
	case "torch.enable_grad":
		return GradEnabled, true
	case "torch.inference_mode":
		// inference_mode() and inference_mode(True) disable grad.
		if call == NoNode {
			return GradDisabled, true
		}
		return m.literalSwitch(call, GradDisabled, GradEnabled, GradDisabled), true
	case "torch.set_grad_enabled":
		if call == NoNode {
			return GradUnknown, true
		}
		return m.literalSwitch(call, GradEnabled, GradDisabled, GradUnknown), true
	}
	// A decorator of the project's own (`@nograd`) is judged by what it
	// does: it returns the function it is given under a switch, or a
	// wrapper that calls it under one. One defined in this file is judged
	// by that alone, not by its name.
	if f.Kind(expr) == KindIdentifier {
		if b := m.Resolve(expr); b != nil && b.Kind != BindImport {
			switch {
			case call == NoNode && b.Kind == BindFunction:
				return m.decoratorGrad(b.Stmt)
			case b.Kind == BindFunction:
				// `with no_grad_for(model):`, whose every return is a switch.
				return m.returnedSwitch(b.Stmt)
			}
			return GradEnabled, false
		}
	}
	if o := m.lookup(m.valueRef(expr), WantGrad); o != nil {
		switch {
		case call == NoNode && o.WrapsKnown:
			return o.Wraps, true // `@nograd`
		case call != NoNode && o.EntersKnown:
			return o.Enters, true // `with no_grad_for(model):`, `@inference()`
		}
	}
	// A wrapper imported from elsewhere that the project does not show,
	// such as yolov5's @smart_inference_mode(), by its name.
	name := strings.ToLower(lastName(f, expr))
	if strings.Contains(name, "no_grad") || strings.Contains(name, "inference_mode") {
		return GradDisabled, true
	}
	return GradEnabled, false
}

// literalSwitch maps the mode argument of a grad switch (its first
// positional argument or mode=) to ifTrue or ifFalse when it is a literal,
// to absent when there is none, and to GradUnknown otherwise.
func (m *Model) literalSwitch(call NodeID, ifTrue, ifFalse, absent GradMode) GradMode {
	f := m.File
	arg := m.Keyword(call, "mode")
	if args := m.Args(call); len(args) > 0 {
		arg = args[0]
	}
	switch f.Kind(f.Unparen(arg)) {
	case KindOther:
		if arg == NoNode {
			return absent
		}
	case KindTrue:
		return ifTrue
	case KindFalse:
		return ifFalse
	}
	return GradUnknown
}

// GradModeAt returns the grad mode in effect when id runs: the innermost
// `with` switch around it, else a statement-level
// `torch.set_grad_enabled(...)` earlier in an enclosing block, else the
// mode of the enclosing function (its decorators, its framework, or the
// mode at all of its call sites in this file), else enabled.
func (m *Model) GradModeAt(id NodeID) GradMode {
	f := m.File
	if m.gradAt == nil {
		m.gradAt = make([]int8, len(f.Nodes))
		for i := range m.gradAt {
			m.gradAt[i] = -1
		}
	}
	// Walk up until an ancestor decides the mode or a node whose mode is
	// known; every node passed on the way has that same mode. Memoizing
	// them keeps deep expressions linear.
	// FunctionGradMode can re-enter GradModeAt for call sites, so each
	// call keeps its own path.
	var buf [32]NodeID
	path := buf[:0]
	mode := GradEnabled
	n := m.factReads
	for x := id; ; {
		if g := m.gradAt[x]; g >= 0 {
			mode = m.gradAtHit(x)
			break
		}
		path = append(path, x)
		p := f.Parent(x)
		if p == NoNode {
			break
		}
		if g, ok := m.decideGradMode(p, x); ok {
			mode = g
			break
		}
		x = p
	}
	g := mark(m, int8(mode), gradAtTainted, n)
	for _, x := range path {
		m.gradAt[x] = g
	}
	return mode
}

// decideGradMode returns the grad mode that node n sets for its child, if
// n sets one: a with statement's switch over its body, a statement-level
// switch earlier in a block, a function's mode over its body, or enabled
// in a class body.
func (m *Model) decideGradMode(n, child NodeID) (GradMode, bool) {
	f := m.File
	switch f.Kind(n) {
	case KindWithStatement:
		if f.N(child).Field == FieldBody {
			return m.withSwitch(n)
		}
	case KindBlock, KindModule:
		if m.hasGradSwitchCall {
			return m.statementSwitchBefore(n, child)
		}
	case KindFunctionDefinition:
		if f.N(child).Field == FieldBody {
			return m.FunctionGradMode(n), true
		}
	case KindClassDefinition:
		if f.N(child).Field == FieldBody {
			return GradEnabled, true
		}
	}
	return GradEnabled, false
}

// conditionalName reports whether name is bound, by its one binding that
// reaches it, to a conditional expression.
func (m *Model) conditionalName(name NodeID) bool {
	f := m.File
	b := m.Resolve(name)
	if b == nil || b.Kind != BindAssign || b.Unpacked || f.Kind(f.Unparen(b.Value)) != KindConditionalExpression {
		return false
	}
	rb := m.ReachingBindings(name)
	return len(rb) == 1 && rb[0] == b
}

// conditionalSwitch reads `torch.enable_grad() if train else
// torch.no_grad()`: a switch where one arm at least is one and the other
// is one or a context that leaves the mode as it is
// (`contextlib.nullcontext()`); its mode is that of its arms where they
// agree, GradUnknown where they differ or one leaves the mode.
func (m *Model) conditionalSwitch(expr NodeID) (GradMode, bool) {
	f := m.File
	parts := f.ChildList(expr) // the value, the test, the other value
	if len(parts) != 3 {
		return GradEnabled, false
	}
	var modes []GradMode
	for _, arm := range []NodeID{parts[0], parts[2]} {
		arm = f.Unparen(arm)
		if g, ok := m.gradSwitch(arm); ok {
			modes = append(modes, g)
		} else if m.CallName(arm) != "contextlib.nullcontext" && m.QualifiedName(arm) != "contextlib.nullcontext" {
			return GradEnabled, false
		}
	}
	switch {
	case len(modes) == 0:
		return GradEnabled, false
	case len(modes) == 2 && modes[0] == modes[1]:
		return modes[0], true
	}
	return GradUnknown, true
}

// withSwitch returns the grad mode that a with statement's items set.
func (m *Model) withSwitch(with NodeID) (GradMode, bool) {
	mode, found := GradEnabled, false
	for _, v := range withItemValues(m.File, with) {
		if g, ok := m.gradSwitch(v); ok {
			mode, found = g, true
		}
	}
	return mode, found
}

// withItemValues returns what a with statement's items enter (`torch.no_grad()`
// of `with torch.no_grad() as g:`), in order.
func withItemValues(f *File, with NodeID) []NodeID {
	var out []NodeID
	f.Walk(f.FirstChild(with), func(c NodeID) {
		if f.Kind(c) != KindWithItem {
			return
		}
		v := f.Field(c, FieldValue)
		if f.Kind(v) == KindAsPattern {
			v = f.FirstChild(v)
		}
		out = append(out, v)
	})
	return out
}

// statementSwitchBefore finds the last statement in block before child
// that switches grad mode for the rest of the block:
// `torch.set_grad_enabled(x)`, or `stack.enter_context(torch.no_grad())`.
func (m *Model) statementSwitchBefore(block, child NodeID) (GradMode, bool) {
	start := m.File.N(child).Start
	var last *blockSwitch
	for i, sws := 0, m.blockSwitches(block); i < len(sws) && sws[i].at < start; i++ {
		last = &sws[i]
	}
	if last == nil {
		return GradEnabled, false
	}
	if last.partial && m.GradModeAt(last.stmt) != last.mode {
		// Switched on some paths through the statement, as it was on the
		// others: where it was otherwise, either.
		return GradUnknown, true
	}
	return last.mode, true
}

// blockSwitch is a statement that switches grad mode for the rest of its
// block.
type blockSwitch struct {
	at   uint32
	mode GradMode
	// stmt is the statement; partial says that on some paths through it
	// the mode stays as it was before it.
	stmt    NodeID
	partial bool
}

type blockSwitchKey struct{ block NodeID }

// blockSwitches lists, in order, the statements of block that switch grad
// mode, found once per block.
func (m *Model) blockSwitches(block NodeID) []blockSwitch {
	return m.Memo(blockSwitchKey{block}, func() any {
		f := m.File
		var out []blockSwitch
		f.Children(block, func(s NodeID) bool {
			if g, ok, partial := m.stmtEffect(s); ok {
				out = append(out, blockSwitch{at: f.N(s).Start, mode: g, stmt: s, partial: partial})
			}
			return true
		})
		return out
	}).([]blockSwitch)
}

// stmtEffect returns the grad mode a statement of a block leaves for the
// statements after it, where it switches it for the rest of the process:
// `torch.set_grad_enabled(x)` or `stack.enter_context(torch.no_grad())`;
// a call of a function of this file that switches it so (processSwitch,
// `model = load(path)` too); or a compound statement whose arms that
// reach its end leave it switched (armsEffect), with partial set where
// some paths through it leave the mode as it was. ok is false where it
// leaves the mode as it was on every path.
func (m *Model) stmtEffect(s NodeID) (g GradMode, ok, partial bool) {
	f := m.File
	single := func(g GradMode, ok bool) (GradMode, bool, bool) { return g, ok, false }
	switch f.Kind(s) {
	case KindExpressionStatement:
		call := f.FirstChild(s)
		if f.Kind(call) == KindAssignment {
			if v := f.Unparen(f.Field(call, FieldRight)); f.Kind(v) == KindCall {
				return single(m.processSwitch(m.LocalCallee(v)))
			}
			return GradEnabled, false, false
		}
		if f.Kind(call) == KindConditionalExpression {
			// `torch.set_grad_enabled(True) if phase == "train" else
			// torch.set_grad_enabled(False)`: set_grad_enabled(test).
			if parts := f.ChildList(call); len(parts) == 3 && m.CallName(f.Unparen(parts[0])) == "torch.set_grad_enabled" &&
				m.CallName(f.Unparen(parts[2])) == "torch.set_grad_enabled" {
				return single(m.gradSwitch(call))
			}
			return GradEnabled, false, false
		}
		if f.Kind(call) != KindCall {
			return GradEnabled, false, false
		}
		if m.CallName(call) == "torch.set_grad_enabled" {
			return single(m.gradSwitch(call))
		}
		// stack.enter_context(torch.no_grad()) inside `with ExitStack() as stack:`
		if args := m.Args(call); m.MethodName(call) == "enter_context" && len(args) == 1 {
			return single(m.gradSwitch(args[0]))
		}
		return single(m.processSwitch(m.LocalCallee(call)))
	case KindIfStatement, KindForStatement, KindWhileStatement, KindTryStatement, KindWithStatement:
		if !m.hasGradSwitchCall {
			return GradEnabled, false, false
		}
		var arms []NodeID
		skips := f.Kind(s) == KindForStatement || f.Kind(s) == KindWhileStatement // the body may not run
		elses := false
		f.Children(s, func(c NodeID) bool {
			switch f.Kind(c) {
			case KindBlock:
				arms = append(arms, c)
			case KindElseClause:
				elses = true
				fallthrough
			case KindElifClause, KindExceptClause, KindFinallyClause:
				f.Children(c, func(b NodeID) bool {
					if f.Kind(b) == KindBlock {
						arms = append(arms, b)
					}
					return true
				})
			}
			return true
		})
		if f.Kind(s) == KindIfStatement && !elses {
			skips = true // no else: the arms may all be skipped
		}
		return m.armsEffect(arms, skips)
	}
	return GradEnabled, false, false
}

// armsEffect combines the effects of the blocks of a compound statement
// (skips: none of them may run): the mode where every arm that reaches
// the end and switches leaves the same one, partial where other arms, or
// skipping them all, leave it as it was (a loop that turns grad off and
// back on leaves it on, or as it was); unknown where the arms differ. An
// arm that ends in return, raise, break or continue does not reach the
// end.
func (m *Model) armsEffect(arms []NodeID, skips bool) (GradMode, bool, bool) {
	f := m.File
	set, unchanged := map[GradMode]bool{}, skips
	for _, arm := range arms {
		kids := f.ChildList(arm)
		if n := len(kids); n > 0 {
			switch f.Kind(kids[n-1]) {
			case KindReturnStatement, KindRaiseStatement, KindBreakStatement, KindContinueStatement:
				continue
			}
		}
		sws := m.blockSwitches(arm)
		if len(sws) == 0 {
			unchanged = true
			continue
		}
		// The arm's last switch; one on some of its paths only, to a mode
		// other than the default, leaves it unknown.
		last := sws[len(sws)-1]
		if last.partial && last.mode != GradEnabled {
			last.mode = GradUnknown
		}
		set[last.mode] = true
	}
	if len(set) == 0 {
		return GradEnabled, false, false
	}
	if len(set) == 1 {
		for g := range set {
			return g, true, unchanged
		}
	}
	return GradUnknown, true, false
}

type processSwitchKey struct{ def NodeID }

// processSwitch returns the grad mode that def, a function of this file,
// leaves switched for the process on every call: the last of the
// statements of its own body that switch it (`torch.set_grad_enabled(False)`,
// a helper that does), where no other statement of it switches the mode
// under an if, a loop or a with. ok is false where it switches nothing.
func (m *Model) processSwitch(def NodeID) (GradMode, bool) {
	if def == NoNode || !m.hasGradSwitchCall {
		return GradEnabled, false
	}
	type result struct {
		g  GradMode
		ok bool
	}
	r := m.MemoRecursive(processSwitchKey{def}, result{}, func() any {
		f := m.File
		body := f.Field(def, FieldBody)
		out := result{}
		nested := false
		f.Walk(body, func(id NodeID) {
			if nested || f.Kind(id) != KindCall || m.CallName(id) != "torch.set_grad_enabled" || m.ScopeNode(id) != def {
				return
			}
			if s := f.Parent(id); f.Kind(s) != KindExpressionStatement || f.Parent(s) != body {
				nested = true
			}
		})
		if nested {
			return out
		}
		for _, sw := range m.blockSwitches(body) {
			if f.Kind(sw.stmt) == KindExpressionStatement {
				out = result{sw.mode, true}
			}
		}
		return out
	}).(result)
	return r.g, r.ok
}

// lightningEvalHooks are LightningModule hooks that Lightning runs with
// grad disabled (its evaluation and prediction loops).
var lightningEvalHooks = map[string]bool{
	"validation_step": true, "test_step": true, "predict_step": true,
	"on_validation_batch_start": true, "on_validation_batch_end": true,
	"on_test_batch_start": true, "on_test_batch_end": true,
	"on_predict_batch_start": true, "on_predict_batch_end": true,
	"validation_epoch_end": true, "test_epoch_end": true,
	"on_validation_epoch_end": true, "on_test_epoch_end": true, "on_predict_epoch_end": true,
	// The loop's own start and end, which it runs inside its no_grad
	// (or inference_mode) too.
	"on_validation_start": true, "on_test_start": true, "on_predict_start": true,
	"on_validation_epoch_start": true, "on_test_epoch_start": true, "on_predict_epoch_start": true,
	"on_validation_end": true, "on_test_end": true, "on_predict_end": true,
}

// IsLightningModule reports whether class derives from LightningModule.
func (m *Model) IsLightningModule(class NodeID) bool {
	return m.ClassInherits(class, func(q string) bool {
		return strings.HasSuffix(q, ".LightningModule") &&
			(strings.HasPrefix(q, "lightning.") || strings.HasPrefix(q, "pytorch_lightning.") || strings.HasPrefix(q, "lightning_fabric."))
	})
}

// IsLightningTrainHook reports whether def is a method that Lightning
// calls in its training loop, with grad enabled: a LightningModule's
// training_step and training hooks, a Callback's training hooks.
func (m *Model) IsLightningTrainHook(def NodeID) bool {
	if !lightningTrainHooks[m.FunctionName(def)] {
		return false
	}
	class := m.EnclosingClass(def)
	if class == NoNode || m.scopeOf[def] != m.defScope[class] {
		return false
	}
	return m.IsLightningModule(class) || m.ClassInherits(class, isLightningCallback)
}

// lightningTrainHooks are the methods Lightning's training loop calls.
var lightningTrainHooks = map[string]bool{
	"training_step": true, "on_train_start": true, "on_train_end": true, "on_train_epoch_start": true,
	"on_train_epoch_end": true, "on_train_batch_start": true, "on_train_batch_end": true,
	"training_epoch_end": true, "on_before_backward": true, "on_after_backward": true,
}

// autogradMethod reports whether def is the forward or backward of a
// custom autograd operation (a subclass of torch.autograd.Function),
// which autograd runs with grad disabled (backward, unless asked to build
// a graph of the gradient).
func (m *Model) autogradMethod(def NodeID) bool {
	switch m.FunctionName(def) {
	case "forward", "backward", "jvp", "vjp":
	default:
		return false
	}
	class := m.EnclosingClass(def)
	return class != NoNode && m.EnclosingFunction(m.File.Parent(def)) == NoNode && m.autogradOperation(class, 0)
}

// IsLightningEvalHook reports whether def is a method that its framework
// calls with grad disabled: a LightningModule's evaluation hooks, a
// fairseq task's valid_step.
func (m *Model) IsLightningEvalHook(def NodeID) bool {
	name := m.FunctionName(def)
	if !lightningEvalHooks[name] && name != "valid_step" {
		return false
	}
	class := m.EnclosingClass(def)
	if class == NoNode || m.scopeOf[def] != m.defScope[class] {
		return false
	}
	if lightningEvalHooks[name] && (m.IsLightningModule(class) || m.ClassInherits(class, isLightningCallback)) {
		return true // Lightning runs its evaluation loops, callbacks' hooks included, without grad
	}
	// fairseq's trainer runs a task's valid_step under no_grad.
	return name == "valid_step" && m.ClassInherits(class, func(q string) bool {
		return strings.HasPrefix(q, "fairseq.") && strings.HasSuffix(q, "FairseqTask")
	})
}

// isLightningCallback reports whether a qualified name is Lightning's
// Callback class.
func isLightningCallback(q string) bool {
	return (strings.HasPrefix(q, "pytorch_lightning.") || strings.HasPrefix(q, "lightning.")) && strings.HasSuffix(q, ".Callback")
}

// FunctionGradMode returns the grad mode in which a function's body runs:
// set by a decorator, by its framework, or — when every call of it in this
// file runs with grad disabled — disabled by its callers. A function also
// used as a value (a callback) runs in a mode this file cannot see.
func (m *Model) FunctionGradMode(def NodeID) GradMode {
	if g, ok := m.funcGrad[def]; ok {
		return m.gradHit(g)
	}
	if m.funcGrad == nil {
		m.funcGrad = make(map[NodeID]GradMode)
	}
	m.funcGrad[def] = GradEnabled // recursion: assume enabled while computing
	n := m.factReads
	g := m.functionGradMode(def)
	m.funcGrad[def] = m.gradStore(g, n)
	return g
}

func (m *Model) functionGradMode(def NodeID) GradMode {
	if g, ok := m.ownGradMode(def); ok {
		return g
	}
	if o := m.lookup(m.localRef(def), WantGrad); o != nil && o.GradKnown {
		// Set by its callers, in this file and others.
		return o.Grad
	}
	m.indexCalls()
	if m.engineHooks[def] && !m.callbacks[def] {
		// A hook of a torchnet Engine runs in the grad mode of the
		// engine's loops (`engine.train(...)`, `engine.test(...)`),
		// which set none of their own.
		return m.engineLoopsMode()
	}
	if m.callbacks[def] {
		// Passed as a value (a callback, a hook, a wrapper handed to an
		// evaluation loop): whoever calls it sets the grad mode.
		return GradUnknown
	}
	if m.escapes[def] {
		// Only run as a new thread's or process's target (grad mode is
		// per thread, and a new one starts with grad enabled), or as the
		// program's entry by a command-line library at module level.
		return GradEnabled
	}
	outside := 0
	for _, c := range m.callSites[def] {
		if m.File.Contains(def, c) {
			continue // a recursive call runs in the mode of the outer one
		}
		outside++
		if m.GradModeAt(c) != GradDisabled {
			return GradEnabled
		}
	}
	if outside == 0 {
		// An override no code of this file calls directly (`validate_step`
		// of a subclass) runs where its base class calls `self.name(...)`.
		if base := m.overridden(def); base != NoNode {
			g := m.FunctionGradMode(base)
			if m.uncalled[base] {
				m.uncalled[def] = true
			}
			return g
		}
		if o := m.projectNamedCalls(def); o != nil && o.Grad == GradDisabled {
			return GradDisabled // every call of its name in the project's files disables grad
		}
		if m.uncalled == nil {
			m.uncalled = make(map[NodeID]bool)
		}
		m.uncalled[def] = true
		return GradEnabled
	}
	return GradDisabled
}

// ownGradMode returns the grad mode a function's definition sets for its
// body, whoever calls it: its decorator, or its framework (Lightning's
// evaluation hooks, an autograd Function's methods).
func (m *Model) ownGradMode(def NodeID) (GradMode, bool) {
	if g, ok := m.decoratedGrad(def); ok {
		return g, true
	}
	if m.IsLightningEvalHook(def) || m.autogradMethod(def) || m.constructedOff(def) {
		return GradDisabled, true
	}
	return GradEnabled, false
}

// withoutInstance reports whether def is decorated `@staticmethod` or
// `@classmethod`: called on the class, with no instance built.
func (m *Model) withoutInstance(def NodeID) bool {
	return slices.ContainsFunc(m.Decorators(def), func(d NodeID) bool {
		return m.File.TextIs(d, "staticmethod") || m.File.TextIs(d, "classmethod")
	})
}

// constructedOff reports whether def is a method of a class of this file
// whose constructor turns grad off for the process on every call
// (`torch.set_grad_enabled(False)` in `__init__`, processSwitch): its
// other methods run on an instance, built after that switch. The mode
// stays off unless other code turns it on again, which a class that
// switches it off for good is not written for.
func (m *Model) constructedOff(def NodeID) bool {
	if !m.hasGradSwitchCall {
		return false
	}
	class := m.EnclosingClass(def)
	if class == NoNode || m.EnclosingFunction(m.File.Parent(def)) != NoNode {
		return false
	}
	name := m.FunctionName(def)
	if name == "__init__" || name == "__new__" || m.withoutInstance(def) {
		return false
	}
	init := m.MethodOf(class, "__init__")
	if init == NoNode {
		return false
	}
	g, ok := m.processSwitch(init)
	return ok && g == GradDisabled
}

// overridden returns the method of a base class, defined in this file,
// that a method overrides, or NoNode.
func (m *Model) overridden(def NodeID) NodeID {
	f := m.File
	class := m.EnclosingClass(def)
	if class == NoNode || m.EnclosingFunction(f.Parent(def)) != NoNode {
		return NoNode
	}
	name := m.FunctionName(def)
	return m.nearestBase(class, func(base NodeID) NodeID { return m.MethodOf(base, name) })
}

// indexCalls resolves every call and every other use of a local function
// or method name, once per file.
func (m *Model) indexCalls() {
	if m.callSites != nil {
		return
	}
	f := m.File
	m.callSites = make(map[NodeID][]NodeID)
	m.escapes = make(map[NodeID]bool)
	m.callbacks = make(map[NodeID]bool)
	m.programEntries = make(map[NodeID]int)
	m.engineHooks = make(map[NodeID]bool)
	m.classSites = make(map[NodeID][]NodeID)
	m.classEscapes = make(map[NodeID]bool)
	notebook := IsNotebook(f.Path)
	for i := range f.Nodes {
		id := NodeID(i)
		switch f.Nodes[i].Kind {
		case KindIdentifier:
			if f.N(id).Field == FieldName || f.N(id).Field == FieldAttribute {
				continue
			}
			b := m.Resolve(id)
			if b == nil || b.Kind != BindFunction && b.Kind != BindClass || b.Name == id {
				continue
			}
			p := f.Parent(id)
			if b.Kind == BindClass {
				switch {
				case f.Kind(p) == KindCall && f.N(id).Field == FieldFunction:
					m.classSites[b.Stmt] = append(m.classSites[b.Stmt], p)
				case !inAnnotation(f, id):
					m.classEscapes[b.Stmt] = true
				}
				continue
			}
			switch {
			case f.Kind(p) == KindCall && f.N(id).Field == FieldFunction:
				m.callSites[b.Stmt] = append(m.callSites[b.Stmt], p)
			case m.ThreadEntry(id):
				// Called where this file cannot see its arguments, in a
				// grad mode it knows.
				m.escapes[b.Stmt] = true
			case m.ProgramEntry(id):
				m.escapes[b.Stmt] = true
				m.programEntries[b.Stmt]++
			case m.engineHook(id):
				m.escapes[b.Stmt], m.engineHooks[b.Stmt] = true, true
			case f.Kind(p) != KindDecorator:
				m.escapes[b.Stmt], m.callbacks[b.Stmt] = true, true
			}
		case KindCall:
			if def := m.selfCallee(id); def != NoNode {
				m.callSites[def] = append(m.callSites[def], id)
			}
		case KindAttribute:
			// self.method(...), net.method(...) on an instance of a class
			// of this file (see instanceMethod), and either used as a
			// value.
			var def NodeID
			if obj := f.Field(id, FieldObject); f.TextIs(obj, "self") || f.TextIs(obj, "cls") {
				def = m.MethodOf(m.EnclosingClass(id), f.Text(f.Field(id, FieldAttribute)))
			} else if _, def = m.instanceMethod(id); def == NoNode && notebook {
				def = m.notebookMethodByName(id)
			}
			if def == NoNode {
				continue
			}
			p := f.Parent(id)
			switch {
			case f.Kind(p) == KindCall && f.N(id).Field == FieldFunction:
				m.callSites[def] = append(m.callSites[def], p)
			case m.ThreadEntry(id):
				m.escapes[def] = true
			default:
				m.escapes[def], m.callbacks[def] = true, true
			}
		}
	}
}

// notebookMethodByName returns, for attr (`agent.sample_action` called on
// an object of no known class) in a notebook, the method of that name of
// the one class of the notebook that defines it: no file imports a
// notebook, so the project's calls by method name (which the project
// resolves for its Python files) are the notebook's own. NoNode where no
// class or more than one defines it, or where objects of libraries a
// training loop drives have a method of that name too.
func (m *Model) notebookMethodByName(attr NodeID) NodeID {
	f := m.File
	name := f.Text(f.Field(attr, FieldAttribute))
	obj := f.Unparen(f.Field(attr, FieldObject))
	if k := f.Kind(obj); k != KindIdentifier && k != KindAttribute || libraryMethodNames[name] || strings.HasPrefix(name, "__") {
		return NoNode
	}
	defs := m.Memo(notebookMethodsKey{}, func() any {
		out := map[string][]NodeID{}
		for i := range f.Nodes {
			if id := NodeID(i); f.Nodes[i].Kind == KindClassDefinition && m.EnclosingFunction(id) == NoNode {
				f.Children(f.Field(id, FieldBody), func(c NodeID) bool {
					if d := c; f.Kind(d) == KindDecoratedDefinition {
						c = f.Field(d, FieldDefinition)
					}
					if f.Kind(c) == KindFunctionDefinition {
						n := f.Text(f.Field(c, FieldName))
						if !slices.Contains(out[n], c) {
							out[n] = append(out[n], c)
						}
					}
					return true
				})
			}
		}
		return out
	}).(map[string][]NodeID)[name]
	if len(defs) != 1 {
		return NoNode
	}
	return defs[0]
}

type notebookMethodsKey struct{}

// projectNamedCalls returns, for def, a method of a class of a notebook
// that the notebook does not call itself, what the project's files say
// of the calls of its name on objects of no known class
// (`agent.take_action(s)` in a training loop of a helper module the
// notebook hands its agent to): nil where there are none, or for a file
// other than a notebook, whose calls the project resolves itself.
func (m *Model) projectNamedCalls(def NodeID) *Object {
	f := m.File
	if !IsNotebook(f.Path) {
		return nil
	}
	class := m.EnclosingClass(def)
	if class == NoNode || m.EnclosingFunction(class) != NoNode || m.EnclosingClass(class) != NoNode {
		return nil
	}
	name := m.FunctionName(def)
	if libraryMethodNames[name] || strings.HasPrefix(name, "__") {
		return nil
	}
	return m.lookup("?."+name, WantCallers)
}

// CommonMethods are method names that objects of libraries a training
// loop drives have too (a gym environment's `step` and `reset`, an
// optimizer's `step`, a replay buffer's `sample` and `push`).
var CommonMethods = map[string]bool{
	"step": true, "reset": true, "render": true, "close": true, "seed": true, "sample": true, "update": true,
	"append": true, "add": true, "push": true, "put": true, "get": true, "pop": true, "send": true, "recv": true,
	"write": true, "log": true, "run": true, "train": true, "eval": true, "load": true, "save": true,
}

// libraryMethodNames are CommonMethods, a module's own and those of
// tensors, containers, estimators and plots: a call of one on an object
// of no known class says nothing of which of a notebook's methods runs.
var libraryMethodNames = func() map[string]bool {
	out := maps.Clone(CommonMethods)
	for _, name := range []string{
		"forward", "backward", "zero_grad", "parameters", "to", "cuda", "cpu",
		"state_dict", "load_state_dict", "item", "numpy", "format", "items",
		"keys", "values", "copy", "clear", "extend", "insert", "remove",
		"predict", "fit", "transform", "apply", "plot", "show",
	} {
		out[name] = true
	}
	return out
}()

// MethodOf returns the method name defined directly in class (the last
// definition of that name there), or NoNode.
func (m *Model) MethodOf(class NodeID, name string) NodeID {
	if class == NoNode {
		return NoNode
	}
	s, ok := m.defScope[class]
	if !ok {
		return NoNode
	}
	b := m.lastBinding(s, name)
	if b == nil || b.Kind != BindFunction {
		return NoNode
	}
	return b.Stmt
}

// decoratedGrad returns the grad mode a function's decorators set for its
// body, and whether they set one: that of the innermost switch, whose
// wrapper runs last, next to the body.
func (m *Model) decoratedGrad(def NodeID) (GradMode, bool) {
	ds := m.Decorators(def)
	for i := len(ds) - 1; i >= 0; i-- {
		if g, ok := m.gradSwitch(ds[i]); ok {
			return g, true
		}
	}
	return GradEnabled, false
}

// decoratorGrad returns the grad mode in which a decorator defined in
// this file runs the function it is given, and whether it sets one: it
// returns `torch.no_grad()(fn)`, or a wrapper defined in it whose every
// call of fn is under the same switch.
func (m *Model) decoratorGrad(def NodeID) (GradMode, bool) {
	if g, ok := m.decoGrad[def]; ok {
		g = m.gradHit(g)
		return g, g != GradUnknown
	}
	if m.decoGrad == nil {
		m.decoGrad = make(map[NodeID]GradMode)
	}
	m.decoGrad[def] = GradUnknown // recursion: no mode while computing
	n := m.factReads
	g := m.computeDecoratorGrad(def)
	m.decoGrad[def] = m.gradStore(g, n)
	return g, g != GradUnknown
}

func (m *Model) computeDecoratorGrad(def NodeID) GradMode {
	f := m.File
	params := m.positionalParams(def)
	if f.Kind(def) != KindFunctionDefinition || len(params) == 0 {
		return GradUnknown
	}
	mode := GradUnknown
	for i, v := range m.ReturnValues(def) {
		mode = agreeing(mode, m.wrapGrad(def, params[0], f.Unparen(v)), i == 0)
	}
	return mode
}

// agreeing folds one more grad mode g into the mode of those seen before
// (first: none was): the same mode, or GradUnknown where they differ.
func agreeing(mode, g GradMode, first bool) GradMode {
	if first || g == mode {
		return g
	}
	return GradUnknown
}

// wrapGrad returns the grad mode in which v, a value a decorator returns,
// runs the function the decorator was given as param: GradUnknown where
// v is not that function under a switch.
func (m *Model) wrapGrad(def, param, v NodeID) GradMode {
	f := m.File
	isParam := func(id NodeID) bool {
		b := m.Resolve(f.Unparen(id))
		return b != nil && b.Kind == BindParam && b.Name == param
	}
	switch f.Kind(v) {
	case KindCall: // torch.no_grad()(fn)
		if args := m.Args(v); len(args) == 1 && isParam(args[0]) {
			if g, ok := m.gradSwitch(f.Field(v, FieldFunction)); ok {
				return g
			}
		}
	case KindIdentifier: // a wrapper whose calls of fn are under a switch
		b := m.Resolve(v)
		if b == nil || b.Kind != BindFunction || !f.Contains(def, b.Stmt) {
			return GradUnknown
		}
		mode, calls := GradUnknown, 0
		f.Walk(f.Field(b.Stmt, FieldBody), func(id NodeID) {
			if f.Kind(id) == KindCall && isParam(f.Field(id, FieldFunction)) {
				mode = agreeing(mode, m.switchAround(id, b.Stmt), calls == 0)
				calls++
			}
		})
		return mode
	}
	return GradUnknown
}

// switchAround returns the mode of the innermost grad switch that a
// `with` statement inside def sets around id; GradUnknown without one.
func (m *Model) switchAround(id, def NodeID) GradMode {
	f := m.File
	for child, p := id, f.Parent(id); p != NoNode && p != def; child, p = p, f.Parent(p) {
		if f.Kind(p) == KindWithStatement && f.N(child).Field == FieldBody {
			if g, ok := m.withSwitch(p); ok {
				return g
			}
		}
	}
	return GradUnknown
}

// returnedSwitch returns the grad mode a `with` on the result of def, a
// function of this file, sets, and whether it is a switch: every value
// def returns is a grad switch (`return torch.no_grad()`, or
// `torch.inference_mode()` on another branch), or a decorator defined in
// def that runs the function it is given under one (a decorator factory,
// applied as `@smart_inference_mode()`). The mode is GradUnknown
// where they differ or one is not known (`torch.set_grad_enabled(flag)`).
func (m *Model) returnedSwitch(def NodeID) (GradMode, bool) {
	const none = GradMode(255)
	f := m.File
	g := m.MemoRecursive(returnedSwitchKey{def}, none, func() any {
		mode := none
		for _, v := range m.ReturnValues(def) {
			v = f.Unparen(v)
			if f.Kind(v) != KindCall {
				// Else only a decorator def defines (`smart_inference_mode()`
				// returns `decorate`), whose mode gradSwitch reads.
				if b := m.Resolve(v); f.Kind(v) != KindIdentifier || b == nil || b.Kind != BindFunction || !f.Contains(def, b.Stmt) {
					return none
				}
			}
			g, ok := m.gradSwitch(v)
			switch {
			case !ok && m.versionGuarded(v, def):
				// `if torch.__version__ >= "0.4": return torch.no_grad()`,
				// else `contextlib.suppress()`: the fallback of a version
				// before the switch existed.
				continue
			case !ok:
				return none
			case mode == none:
				mode = g
			case g != mode:
				mode = GradUnknown
			}
		}
		return mode
	}).(GradMode)
	if g == none {
		return GradEnabled, false
	}
	return g, true
}

type returnedSwitchKey struct{ def NodeID }

// versionGuarded reports whether node id, in function def, runs only on
// one side of a test of a library's version (`torch.__version__`,
// `version.parse(...)`, `TORCH_VERSION`): an if, elif or else of such a
// test, an arm of such a conditional expression, or a return after such
// an if in the same block.
func (m *Model) versionGuarded(id, def NodeID) bool {
	f := m.File
	mentions := func(cond NodeID) bool {
		l := strings.ToLower(f.Text(cond))
		return strings.Contains(l, "__version__") || strings.Contains(l, "version.parse") || strings.Contains(l, "torch_version")
	}
	for x := f.Parent(id); x != def && x != NoNode; x = f.Parent(x) {
		if f.Kind(x) == KindReturnStatement {
			// `if torch.__version__ >= ...: return torch.no_grad()`, then
			// `return contextlib.suppress()`: the test's fall-through.
			guarded := false
			f.Children(f.Parent(x), func(c NodeID) bool {
				if c == x {
					return false
				}
				guarded = guarded || f.Kind(c) == KindIfStatement && mentions(f.Field(c, FieldCondition))
				return true
			})
			if guarded {
				return true
			}
		}
		switch f.Kind(x) {
		case KindIfStatement, KindElifClause, KindConditionalExpression:
			cond := f.Field(x, FieldCondition)
			if f.Kind(x) == KindConditionalExpression {
				cond = f.ChildList(x)[1]
			}
			if cond != NoNode && mentions(cond) {
				return true
			}
		}
	}
	return false
}

// ThreadEntry reports whether a use of a function's name hands it to a
// new thread or process as what it runs (`mp.Process(target=evaluate,
// ...)`, `threading.Thread(target=f)`, `torch.multiprocessing.spawn(f)`):
// grad mode is per thread, and a new one starts with grad enabled.
func (m *Model) ThreadEntry(use NodeID) bool {
	f := m.File
	p := f.Parent(use)
	switch {
	case f.Kind(p) == KindKeywordArgument && f.Field(p, FieldValue) == use && f.TextIs(f.Field(p, FieldName), "target"):
		// `multiprocessing.Process`, `torch.multiprocessing.Process`,
		// `threading.Thread`, and the same of a context
		// (`mp.get_context("spawn").Process`).
		call := f.Parent(f.Parent(p))
		if f.Kind(call) != KindCall {
			return false
		}
		fn := f.Unparen(f.Field(call, FieldFunction))
		if f.Kind(fn) == KindAttribute {
			fn = f.Field(fn, FieldAttribute)
		}
		return f.TextIs(fn, "Process") || f.TextIs(fn, "Thread")
	default:
		if call := m.firstArgOf(use); call != NoNode {
			q := m.CallName(call)
			return q == "torch.multiprocessing.spawn" || q == "torch.multiprocessing.start_processes"
		}
		return false
	}
}

// torchnetEngines are the classes whose loops (`train`, `test`) call the
// hooks stored in an instance's `hooks` dict, and the function they are
// given, in the grad mode of the loop's call: neither disables grad.
var torchnetEngines = map[string]bool{"torchnet.engine.Engine": true, "torchnet.engine.engine.Engine": true}

// engineHook reports whether use, a function's name, is stored as a hook
// of a torchnet Engine (`engine.hooks['on_end_epoch'] = on_end_epoch`).
func (m *Model) engineHook(use NodeID) bool {
	f := m.File
	p := f.Parent(use)
	if f.Kind(p) != KindAssignment || f.Field(p, FieldRight) != use {
		return false
	}
	target := f.Field(p, FieldLeft)
	if f.Kind(target) != KindSubscript {
		return false
	}
	hooks := f.Unparen(f.Field(target, FieldValue))
	if f.Kind(hooks) != KindAttribute || !f.TextIs(f.Field(hooks, FieldAttribute), "hooks") {
		return false
	}
	return m.torchnetEngine(f.Unparen(f.Field(hooks, FieldObject)))
}

// torchnetEngine reports whether recv is an instance of a torchnet Engine.
func (m *Model) torchnetEngine(recv NodeID) bool {
	if !m.hasTorchnet {
		return false
	}
	class := m.receiverClass(recv)
	return class != NoNode && torchnetEngines[m.QualifiedName(class)]
}

// engineLoopsMode is the grad mode in which this file's torchnet Engine
// loops (`engine.train(...)`, `engine.test(...)`) run: enabled where one
// at least runs with grad enabled, disabled where all run without it,
// unknown where the file runs none.
func (m *Model) engineLoopsMode() GradMode {
	return m.MemoRecursive(engineLoopsKey{}, GradEnabled, func() any {
		f := m.File
		g := GradUnknown
		for i := range f.Nodes {
			id := NodeID(i)
			if f.Nodes[i].Kind != KindCall {
				continue
			}
			if name := m.MethodName(id); name != "train" && name != "test" || !m.torchnetEngine(m.Receiver(id)) {
				continue
			}
			switch m.GradModeAt(id) {
			case GradDisabled:
				if g == GradUnknown {
					g = GradDisabled
				}
			default:
				return GradEnabled
			}
		}
		return g
	}).(GradMode)
}

type engineLoopsKey struct{}

// firstArgOf returns the call whose first positional argument is use,
// or NoNode.
func (m *Model) firstArgOf(use NodeID) NodeID {
	f := m.File
	p := f.Parent(use)
	if f.Kind(p) != KindArgumentList {
		return NoNode
	}
	call := f.Parent(p)
	if args := m.Args(call); len(args) == 0 || args[0] != use {
		return NoNode
	}
	return call
}

// cliEntries are the command-line libraries whose call runs the
// function it is given, with the program's arguments, as the program.
var cliEntries = map[string]bool{"fire.Fire": true, "typer.run": true, "jsonargparse.CLI": true, "jsonargparse.auto_cli": true}

// ProgramEntry reports whether use, a function's name, is the first
// argument of a command-line library's entry (`fire.Fire(infer)`) called
// by module-level code outside any `no_grad`: the function runs as the
// program, with grad enabled.
func (m *Model) ProgramEntry(use NodeID) bool {
	call := m.firstArgOf(use)
	if call == NoNode {
		return false
	}
	return cliEntries[m.CallName(call)] && m.ScopeNode(call) == Root && m.GradModeAt(call) != GradDisabled
}

// CalledOnceAtTop reports whether def, a function of the module's own
// scope, is called once in its file, by module-level code outside any
// loop (`main()` under `if __name__ == "__main__":`), or run once as the
// program by a command-line library (`fire.Fire(main)`), and used no
// other way there: each run of the script runs it once.
func (m *Model) CalledOnceAtTop(def NodeID) bool {
	f := m.File
	if f.Kind(def) != KindFunctionDefinition || m.scopeOf[def] != 0 {
		return false
	}
	m.indexCalls()
	calls := m.callSites[def]
	if len(calls) == 0 && m.programEntries[def] == 1 && !m.callbacks[def] {
		return true // `fire.Fire(main)`: the program, run once
	}
	if m.escapes[def] || len(calls) != 1 {
		return false
	}
	c := calls[0]
	return m.ScopeNode(c) == Root && m.EnclosingLoop(c) == NoNode && !f.Contains(def, c)
}
