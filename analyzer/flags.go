package analyzer

import (
	"slices"
	"strings"
)

// One function that trains or evaluates by a flag: `def run_epoch(model,
// loader, train=True)` that back-propagates only under `if train:`, or a
// solver's `_run_one_epoch(cross_valid=False)` under `if not
// cross_valid:`. A call that turns the flag off runs the function's
// forward passes and no backward.

// SkipsBackward reports whether a call of a function of this file runs
// none of the function's back-propagation: every backward() of its body
// (its own, or through the functions of this file it calls) sits under an
// `if` on one of its parameters that the call's literal arguments, or the
// parameter's default, make false (`run_epoch(model, val_loader,
// train=False)`). It is false for a function that back-propagates
// nothing, and wherever a flag's value is not a literal.
func (m *Model) SkipsBackward(call NodeID) bool {
	_, ok := m.SkippingFlag(call)
	return ok
}

// SkippingFlag is SkipsBackward, with the flag that turns the callee's
// backward() off as the call sets it (`train=False`).
func (m *Model) SkippingFlag(call NodeID) (flag string, ok bool) {
	def := m.LocalCallee(call)
	if def == NoNode {
		return "", false
	}
	guards := m.Memo(flagGuardsKey{def}, func() any { return m.flagGuards(def) }).([]flagGuard)
	if len(guards) == 0 {
		return "", false
	}
	f := m.File
	for _, g := range guards {
		v, ok := m.argOrDefault(call, def, g.param)
		if !ok {
			return "", false
		}
		truth, known := testTruth(f, v, g.lit)
		if !known || truth == g.runsWhen {
			return "", false
		}
		if flag == "" {
			flag = g.param + "=" + f.Text(v)
		}
	}
	return flag, true
}

type flagGuardsKey struct{ def NodeID }

// flagParams returns the names of def's parameters a flag may be: the
// positional ones (self and cls not counted) and those with a default,
// keyword-only ones too.
func (m *Model) flagParams(def NodeID) map[string]bool {
	return m.Memo(flagParamsKey{def}, func() any {
		f := m.File
		params := map[string]bool{}
		for _, p := range m.positionalParams(def) {
			params[f.Text(p)] = true
		}
		f.Children(f.Field(def, FieldParameters), func(c NodeID) bool {
			if k := f.Kind(c); k == KindDefaultParameter || k == KindTypedDefaultParameter {
				params[f.Text(f.Field(c, FieldName))] = true
			}
			return true
		})
		return params
	}).(map[string]bool)
}

type flagParamsKey struct{ def NodeID }

// ArmForwards returns, for a call that turns its callee's backward() off
// by a flag (SkippingFlag), the first forward passes (at most max, one
// per line) of the callee's own body that run with the flags the call
// sets: outside any test of the callee's parameters, or in the branch of
// such a test that the call's arguments (or the defaults) select
// (`training=False`, the else of `if training:`). Nil where there is
// none, or no such flag.
func (m *Model) ArmForwards(call NodeID, max int) []NodeID {
	if _, ok := m.SkippingFlag(call); !ok {
		return nil
	}
	def := m.LocalCallee(call)
	f := m.File
	var found []NodeID
	line := -1
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if len(found) == max || f.Kind(id) != KindCall || m.ScopeNode(id) != def || !m.IsForwardCall(id) || !m.RunsWithFlags(call, id) {
			return
		}
		if l := f.Position(f.N(id).Start).Line; l != line {
			found, line = append(found, id), l
		}
	})
	return found
}

// RunsWithFlags reports whether node id, in the body of the function of
// this file that call calls, runs with the arguments the call passes:
// it is in no branch of a test of the function's parameters that the
// call's arguments (or the defaults) are known not to select.
func (m *Model) RunsWithFlags(call, id NodeID) bool {
	def := m.LocalCallee(call)
	if def == NoNode || !m.File.Contains(def, id) {
		return false
	}
	f := m.File
	g, guarded := m.guardOf(id, def, m.flagParams(def))
	if !guarded {
		return true
	}
	v, ok := m.argOrDefault(call, def, g.param)
	if !ok {
		return true
	}
	truth, known := testTruth(f, v, g.lit)
	return !known || truth == g.runsWhen
}

// flagGuard is a backward() of a function that runs only when parameter
// param is truthy (runsWhen true) or falsy.
type flagGuard struct {
	param    string
	runsWhen bool
	lit      NodeID // the literal the flag is compared with (`mode == "train"`), or NoNode
}

// flagGuards returns, for every backward() a function runs, the flag
// that guards it; nil when one is not guarded by a parameter, or when
// the function back-propagates nothing.
func (m *Model) flagGuards(def NodeID) []flagGuard {
	f := m.File
	params := m.flagParams(def)
	var guards []flagGuard
	ok := true
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if !ok || f.Kind(id) != KindCall || m.EnclosingFunction(id) != def {
			return
		}
		back := m.IsBackwardCall(id)
		if !back {
			if callee := m.LocalCallee(id); callee != NoNode && callee != def && m.backpropagates(callee) {
				back = true
			}
		}
		if !back {
			return
		}
		g, found := m.guardOf(id, def, params)
		if !found {
			ok = false
			return
		}
		guards = append(guards, g)
	})
	if !ok {
		return nil
	}
	return guards
}

// guardOf returns the innermost `if` on a parameter of def that holds
// node id, and on which of its truth values id runs.
func (m *Model) guardOf(id, def NodeID, params map[string]bool) (flagGuard, bool) {
	f := m.File
	for child, p := id, f.Parent(id); p != NoNode && p != def; child, p = p, f.Parent(p) {
		if f.Kind(p) != KindIfStatement {
			continue
		}
		cond, lit, runsWhen, ok := flagTest(f, p, child)
		if !ok || !params[f.Text(cond)] {
			continue
		}
		if b := m.Resolve(cond); b == nil || b.Kind != BindParam {
			continue // the name was bound again in the body
		}
		return flagGuard{param: f.Text(cond), runsWhen: runsWhen, lit: lit}, true
	}
	return flagGuard{}, false
}

// flagTest reads if statement p, around its part child (its consequence,
// an elif or an else clause), as a test of a name (`if train:`, `if not
// train:`) or a comparison of a name with a literal (`if mode ==
// "train":`, `if phase != "val":`): the name, the literal (NoNode for a
// test of the name's truth), and on which truth value of the test
// (`name`, or `name == lit`) child runs (the consequence when it holds, an
// elif or else when it does not). ok is false for another condition, or
// when child is the condition itself.
func flagTest(f *File, p, child NodeID) (name, lit NodeID, runsWhen, ok bool) {
	cond := f.Unparen(f.Field(p, FieldCondition))
	if child == cond {
		return NoNode, NoNode, false, false
	}
	neg := false
	if f.Kind(cond) == KindNotOperator {
		cond, neg = f.Unparen(f.Field(cond, FieldArgument)), true
	}
	if f.Kind(cond) == KindComparisonOperator {
		a, b, eq, ok := nameComparison(f, cond)
		if !ok {
			return NoNode, NoNode, false, false
		}
		if _, known := flagValue(f, b); !known {
			return NoNode, NoNode, false, false
		}
		if !eq {
			neg = !neg // `phase != "val"`: the test `phase == "val"`, negated
		}
		return a, b, (f.Field(p, FieldConsequence) == child) != neg, true
	}
	if f.Kind(cond) != KindIdentifier {
		return NoNode, NoNode, false, false
	}
	return cond, NoNode, (f.Field(p, FieldConsequence) == child) != neg, true
}

// nameComparison reads cond, a comparison of a name with one other
// operand by `==`, `!=`, `is` or `is not` (`mode == "train"`, `"val" !=
// phase`, `is_validation is False`, either maybe in parentheses): the
// name, the other operand, and whether the operator is `==` or `is`. ok
// is false for any other test.
func nameComparison(f *File, cond NodeID) (name, other NodeID, eq, ok bool) {
	if f.Kind(cond) != KindComparisonOperator {
		return NoNode, NoNode, false, false
	}
	kids := f.ChildList(cond) // the operands: the operators are tokens
	if len(kids) != 2 {
		return NoNode, NoNode, false, false
	}
	switch strings.Join(strings.Fields(string(f.Src[f.N(kids[0]).End:f.N(kids[1]).Start])), " ") {
	case "==", "is":
		eq = true
	case "!=", "is not":
	default:
		return NoNode, NoNode, false, false
	}
	name, other = f.Unparen(kids[0]), f.Unparen(kids[1])
	if f.Kind(name) != KindIdentifier {
		name, other = other, name
	}
	if f.Kind(name) != KindIdentifier {
		return NoNode, NoNode, false, false
	}
	return name, other, eq, true
}

// flagValue returns the value a literal stands for, for comparing two
// of them: a string's contents (`"train"` and `'train'` alike), a number's
// or a constant's text; known is false for anything else.
func flagValue(f *File, v NodeID) (val string, known bool) {
	v = f.Unparen(v)
	switch f.Kind(v) {
	case KindString:
		if t := f.Text(v); strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, "'''") {
			return "", false
		}
		if s, ok := stringLiteral(f, v); ok {
			return "s" + s, true
		}
	case KindInteger, KindTrue, KindFalse, KindNone:
		return f.Text(v), true
	}
	return "", false
}

// testTruth returns the truth value of a flag's test for value v of the
// flag: its own truth where lit is NoNode, else whether v equals lit;
// known is false unless v is a literal.
func testTruth(f *File, v, lit NodeID) (truth, known bool) {
	if lit == NoNode {
		return literalTruth(f, v)
	}
	a, ok := flagValue(f, v)
	if !ok {
		return false, false
	}
	b, _ := flagValue(f, lit)
	return a == b, true
}

// literalTruth returns the truth value of a literal (`True`, `False`,
// `None`, a number), and whether v is one.
func literalTruth(f *File, v NodeID) (truth, known bool) {
	v = f.Unparen(v)
	switch f.Kind(v) {
	case KindTrue:
		return true, true
	case KindFalse, KindNone:
		return false, true
	case KindInteger:
		return !f.TextIs(v, "0"), true
	}
	return false, false
}

// FlaggedHelper returns what a call that skips its callee's backward
// (SkipsBackward) runs in its caller's grad mode: the forward passes of
// the callee's body and the parameters it calls. Nil for any other call.
func (m *Model) FlaggedHelper(call NodeID) *Object {
	if !m.SkipsBackward(call) {
		return nil
	}
	def := m.LocalCallee(call)
	return m.Memo(flaggedKey{def}, func() any {
		fs := m.summarizeFunc(def, m.defName(def))
		if fs.trained == nil {
			return (*Object)(nil)
		}
		o := &Object{Kind: ObjectFunction, Forward: fs.trained.Forward, ParamCalls: slices.Clone(fs.trained.ParamCalls)}
		m.ownSites(o, def)
		return o
	}).(*Object)
}

type flaggedKey struct{ def NodeID }

// FlagModeSwitch says which mode a call of a function of this file leaves
// the modules it switches in, where a flag chooses it: `net_mode(train=False)`
// with `if train: net.train() else: net.eval()`, or `set_mode(False)`
// with `model.train(mode)`. ok is false unless every switch of the body
// (its own, not its nested functions') is decided by the call's literal
// arguments or the parameters' defaults, one flag at least is tested or
// passed on, and one switch at least runs.
func (m *Model) FlagModeSwitch(call NodeID) (eval, train, ok bool) {
	def := m.LocalCallee(call)
	f := m.File
	if def == NoNode || f.Kind(def) != KindFunctionDefinition {
		return false, false, false
	}
	decided, flagged := true, false
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if !decided || f.Kind(id) != KindCall || m.ScopeNode(id) != def {
			return
		}
		e, t := m.ModeSwitch(id)
		args := m.Args(id)
		if t && f.TextIs(f.Field(f.Field(id, FieldFunction), FieldAttribute), "train") && len(args) == 1 &&
			f.Kind(args[0]) == KindIdentifier {
			// `net.train(mode)`: the mode a parameter passes on
			v, known := m.argOrDefault(call, def, f.Text(args[0]))
			truth, lit := literalTruth(f, v)
			if !known || !lit {
				decided = false
				return
			}
			e, t, flagged = !truth, truth, true
		}
		if !e && !t {
			return
		}
		runs, tested, known := m.runsUnderFlags(call, def, id)
		flagged = flagged || tested
		switch {
		case !known:
			decided = false
		case runs:
			eval, train = eval || e, train || t
		}
	})
	return eval, train, decided && flagged && (eval || train)
}

// runsUnderFlags reports whether node id of function def runs when call
// calls it: every if around it, up to def, tests a parameter (`if
// train:`, `if not train:`) that the call's literal arguments, or the
// parameter's default, decide. known is false for any other test. A loop
// around it (over the modules to switch) is taken to run. tested says
// whether a flag was tested on the way.
func (m *Model) runsUnderFlags(call, def, id NodeID) (runs, tested, known bool) {
	f := m.File
	for c, p := id, f.Parent(id); p != NoNode && p != def; c, p = p, f.Parent(p) {
		switch f.Kind(p) {
		case KindIfStatement:
			if f.Kind(c) == KindElseClause && slices.ContainsFunc(f.ChildList(p), func(n NodeID) bool { return f.Kind(n) == KindElifClause }) {
				return false, tested, false
			}
		case KindElseClause:
			if f.Kind(f.Parent(p)) != KindIfStatement {
				return false, tested, false // a loop's or a try's else
			}
			continue // read where the if is
		case KindElifClause, KindTryStatement, KindConditionalExpression, KindBooleanOperator, KindLambda:
			return false, tested, false
		default:
			continue
		}
		if f.Field(p, FieldCondition) == c {
			continue // its condition
		}
		cond, cmp, runsWhen, ok := flagTest(f, p, c)
		if !ok {
			return false, tested, false
		}
		v, isParam := m.argOrDefault(call, def, f.Text(cond))
		truth, lit := testTruth(f, v, cmp)
		if !isParam || !lit {
			return false, tested, false
		}
		tested = true
		if truth != runsWhen {
			return false, true, true
		}
	}
	return true, tested, true
}

// ArmWithGrad reports whether some call of def in this file takes the
// arm of the test cond on its parameters that want names (true: cond
// holds), with grad enabled where it is called: `run_epoch(model, val,
// train=False)` outside no_grad, for `if train:` with want false. A
// call whose arguments leave the test undecided counts as taking it. ok
// is false where the file does not show every call of def (it escapes,
// or another file of the project calls it) or shows none.
func (m *Model) ArmWithGrad(def, cond NodeID, want bool) (found, ok bool) {
	if def == NoNode {
		return false, false
	}
	calls, ok := m.callsOf(def)
	if !ok {
		return false, false
	}
	if o := m.lookup(m.localRef(def), WantCallers); o != nil && o.CalledElsewhere {
		return false, false
	}
	for _, c := range calls {
		truth, known := m.testAt(c, def, cond)
		if (!known || truth == want) && m.GradModeAt(c) != GradDisabled {
			return true, true
		}
	}
	return false, true
}

// CalledElsewhere reports whether def, a function of this file, is
// called, as the project shows, from another file.
func (m *Model) CalledElsewhere(def NodeID) bool {
	o := m.lookup(m.localRef(def), WantCallers)
	return o != nil && o.CalledElsewhere
}

// EnabledBy returns the call in another file that runs def, a function
// of this file every call of which here disables grad, with grad enabled
// (Object.EnabledBy), or nil.
func (m *Model) EnabledBy(def NodeID) *Site {
	if o := m.lookup(m.localRef(def), WantCallers); o != nil {
		return o.EnabledBy
	}
	return nil
}

// testAt evaluates cond, a test on def's parameters, for the arguments
// call passes: a name, `not` a test, or a comparison of a name with a
// literal (`mode == "train"`, `phase != 'val'`).
func (m *Model) testAt(call, def, cond NodeID) (truth, known bool) {
	f := m.File
	cond = f.Unparen(cond)
	switch f.Kind(cond) {
	case KindIdentifier:
		v, ok := m.argOrDefault(call, def, f.Text(cond))
		if !ok {
			return false, false
		}
		if t, known := literalTruth(f, v); known {
			return t, true
		}
		if s, ok := stringLiteral(f, v); ok {
			return s != "", true
		}
	case KindNotOperator:
		t, known := m.testAt(call, def, f.Field(cond, FieldArgument))
		return !t, known
	case KindComparisonOperator:
		name, lit, eq, ok := nameComparison(f, cond)
		if !ok {
			return false, false
		}
		want, ok := flagValue(f, lit)
		if !ok {
			return false, false
		}
		v, ok := m.argOrDefault(call, def, f.Text(name))
		if !ok {
			return false, false
		}
		got, ok := flagValue(f, v)
		if !ok {
			return false, false
		}
		return (got == want) == eq, true
	}
	return false, false
}

// stringLiteral returns the value of a plain string literal.
func stringLiteral(f *File, v NodeID) (string, bool) {
	v = f.Unparen(v)
	if f.Kind(v) != KindString {
		return "", false
	}
	t := f.Text(v)
	if len(t) < 2 || strings.ContainsAny(t[:1], "fFbBrRuU") {
		return "", false
	}
	q := t[:1]
	if q != `"` && q != "'" || !strings.HasSuffix(t, q) || strings.Contains(t[1:len(t)-1], `\`) {
		return "", false
	}
	return strings.Trim(t, q), true
}

// SkipsForwards reports whether call runs a function of this file whose
// forward passes in its caller's grad mode all sit in branches that the
// call's literal arguments, or the defaults it leaves, do not take
// (`compute_embedding(x, model)` with `requires_grad=False` by default,
// whose grad-enabled pass is under `else:` of `if not requires_grad:`,
// the other arm under no_grad): that call runs none of them.
func (m *Model) SkipsForwards(call NodeID) bool {
	f := m.File
	def := m.LocalCallee(call)
	if def == NoNode || f.Kind(def) != KindFunctionDefinition {
		return false
	}
	truth := map[NodeID]bool{}
	f.Children(f.Field(def, FieldParameters), func(c NodeID) bool {
		name := c
		if k := f.Kind(c); k == KindDefaultParameter || k == KindTypedDefaultParameter {
			name = f.Field(c, FieldName)
		}
		if f.Kind(name) != KindIdentifier {
			return true
		}
		if v, ok := m.argOrDefault(call, def, f.Text(name)); ok {
			if t, known := m.defaultTruth(NoNode, v); known {
				truth[c] = t
			}
		}
		return true
	})
	if len(truth) == 0 {
		return false
	}
	saved := m.argTruth
	m.argTruth = truth
	defer func() { m.argTruth = saved }()
	passes, skipped := 0, true
	f.Walk(f.Field(def, FieldBody), func(id NodeID) {
		if !skipped || f.Kind(id) != KindCall || m.ScopeNode(id) != def {
			return
		}
		if _, decided := m.localGradMode(id); decided {
			return
		}
		if !m.IsForwardCall(id) {
			if h := m.Helper(id); h == nil || h.Forward == nil {
				return
			}
		}
		passes++
		skipped = m.notTakenWith(def, id)
	})
	return passes > 0 && skipped
}

// notTakenWith reports whether statement id of def runs in no branch the
// parameters' truths (argTruth) take.
func (m *Model) notTakenWith(def, id NodeID) bool {
	return m.branchSkipped(def, id, func(cond NodeID) (bool, bool) { return m.defaultTruth(def, cond) })
}
