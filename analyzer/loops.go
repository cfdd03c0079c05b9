package analyzer

import "strings"

// Loops classified by what one iteration does, for rules that care how
// often code in a loop runs: once per training step or per item a model
// runs on (hot), or once per model, layer, epoch or experiment (a phase).

// LoopRole says what one iteration of a loop is for.
type LoopRole uint8

// The roles of a loop, as its iterable and its own body (not its nested
// loops) show them; a loop over modules is seen in its nested loops too.
const (
	// LoopOther: none of the roles below; an epoch loop whose steps run
	// in a loop nested in it, a loop over files or settings.
	LoopOther LoopRole = iota
	// LoopModules: each iteration runs, builds or converts another
	// module: a layer-by-layer calibration or quantization
	// (`for layer in model.layers:`), a sweep over models. It runs once
	// per module, a phase of its own, even when it runs them.
	LoopModules
	// LoopStep: steps an optimizer or back-propagates every iteration.
	LoopStep
	// LoopBatch: iterates a data loader or computes a loss every
	// iteration.
	LoopBatch
	// LoopItem: runs a model on every iteration (a frame, an image, a
	// sample, an augmentation), directly or through a method or function
	// of the project.
	LoopItem
)

// Hot reports whether a loop of this role runs once per step or item.
func (r LoopRole) Hot() bool { return r >= LoopStep }

type loopRoleKey struct{ loop NodeID }

// LoopRole returns what an iteration of loop is for.
func (m *Model) LoopRole(loop NodeID) LoopRole {
	return m.Memo(loopRoleKey{loop}, func() any { return m.loopRole(loop) }).(LoopRole)
}

func (m *Model) loopRole(loop NodeID) LoopRole {
	if m.loopsOverModules(loop) {
		return LoopModules
	}
	a := m.Loop(loop)
	switch {
	case a.Once:
		return LoopOther // one iteration, whatever it does
	case a.Backward:
		return LoopStep
	case a.Batches || a.Loss:
		return LoopBatch
	case m.stepsNested(loop):
		// An epoch: the forward passes of its own body (an example
		// printed, a validation) run once per epoch, after its steps.
		return LoopOther
	case a.Forward || m.ModelRunIn(loop) != NoNode || m.runsOuterModule(loop):
		return LoopItem
	}
	return LoopOther
}

// runsOuterModule reports whether loop's own body calls a module that a
// loop around it draws per iteration: the samples run through one layer
// of a layer-by-layer calibration.
func (m *Model) runsOuterModule(loop NodeID) bool {
	f := m.File
	for outer := m.EnclosingLoop(loop); outer != NoNode; outer = m.EnclosingLoop(outer) {
		if m.LoopRole(outer) != LoopModules {
			continue
		}
		drawn := m.loopDrawn(outer)
		// The loop's own variables, and names bound to an element of a
		// collection it indexes (`layer = layers[i].cuda()`): the module
		// of the iteration; not an object built per module
		// (`early_stopping = EarlyStopping(...)`).
		targets := m.loopNames(outer, func(v NodeID, _ map[string]bool) bool {
			for inner := movedFrom(f, v); inner != NoNode; inner = movedFrom(f, v) {
				v = inner
			}
			return f.Kind(v) == KindSubscript
		})
		found := false
		f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
			if found || f.Kind(id) != KindCall || m.statementLoop(id) != loop {
				return
			}
			fn := f.Unparen(f.Field(id, FieldFunction))
			// What the outer loop draws and this one calls: a module, not
			// an object of another kind made per module (`early_stopping`).
			found = drawn[f.Text(fn)] && (m.ClassifyCallee(fn) == CallableModel || m.IsForwardCall(id) || targets[f.Text(fn)])
		})
		if found {
			return true
		}
	}
	return false
}

// ModelRunIn returns the first call in loop's own body (not its nested
// loops) that runs a model on each iteration through a method or a
// function: `self.forward(x)`, `self.blocks[name](x)` (heldModuleCall),
// `self.test()` whose body runs the model,
// `tracker.track(frame)` for a tracker whose class, in this file or
// another of the project, runs a model in `track`. NoNode when there is
// none; direct forward passes are Loop's.
func (m *Model) ModelRunIn(loop NodeID) NodeID {
	f := m.File
	found := NoNode
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		if found != NoNode || f.Kind(id) != KindCall || m.statementLoop(id) != loop {
			return
		}
		if m.isSelfForward(id) || m.heldModuleCall(id) || m.callRunsModel(id, 0) || m.projectHelperRunsModel(id, loop) {
			found = id
		}
	})
	return found
}

// isSelfForward reports whether a call is `self.forward(...)` or
// `super().forward(...)` in an nn.Module subclass.
func (m *Model) isSelfForward(call NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindAttribute || !f.TextIs(f.Field(fn, FieldAttribute), "forward") {
		return false
	}
	obj := f.Unparen(f.Field(fn, FieldObject))
	if !f.TextIs(obj, "self") && (f.Kind(obj) != KindCall || !f.TextIs(f.Field(obj, FieldFunction), "super")) {
		return false
	}
	class := m.EnclosingClass(call)
	return class != NoNode && m.IsModuleClass(class)
}

// callRunsModel reports whether a call of a function or method of this
// file runs a model on one item: its body runs a forward pass in any
// grad mode, itself or through the functions of this file it calls, and
// none in a loop or comprehension of its own. A function that runs the
// model in a loop runs a whole phase (an evaluation over a loader, a
// video frame by frame), warm-up passes before it included.
func (m *Model) callRunsModel(call NodeID, depth int) bool {
	def := m.LocalCallee(call)
	if def == NoNode || depth > 6 {
		return false
	}
	return m.Memo(runsModelKey{def}, func() any {
		f := m.File
		once, looped := false, false
		f.Walk(f.Field(def, FieldBody), func(id NodeID) {
			if looped || f.Kind(id) != KindCall || m.ScopeNode(id) != def {
				return
			}
			if m.IsForwardCall(id) || m.isSelfForward(id) || m.callRunsModel(id, depth+1) {
				if m.EnclosingLoop(id) != NoNode {
					looped = true
				} else {
					once = true
				}
			}
		})
		return once && !looped
	}).(bool)
}

type runsModelKey struct{ def NodeID }

// projectHelperRunsModel reports whether a call in loop's body of a
// function or method of another file runs a model on this iteration's
// item: the project says the function runs a forward pass (or calls the
// model passed to it), and the call passes something the iteration
// draws from its iterable, not a data loader. What the function does
// with the item is not seen here: passed a loader, or only a counter, it
// may run a whole phase.
func (m *Model) projectHelperRunsModel(call, loop NodeID) bool {
	if strings.HasPrefix(m.calleeRef(call), "#") {
		return false // this file's own, judged by callRunsModel
	}
	o := m.Helper(call)
	if o == nil || o.Forward == nil && m.ParamForward(o, call) == nil {
		return false
	}
	f := m.File
	items := m.loopItems(loop)
	counters := m.rangeCounters(loop)
	passes := false
	for _, a := range m.Args(call) {
		if f.Kind(a) == KindKeywordArgument {
			a = f.Field(a, FieldValue)
		}
		if m.iteratesBatches(a) {
			return false
		}
		f.Walk(a, func(id NodeID) {
			// What the iteration draws, or a slice of something by its
			// count (`net.complete(video[t:t + 10])`).
			passes = passes || f.Kind(id) == KindIdentifier && (items[f.Text(id)] || counters[f.Text(id)] && indexesIn(f, id, a))
		})
	}
	return passes
}

// rangeCounters returns the targets of a for loop over a range, the
// counts of its iterations, and the names its body computes from them
// (`end = min(n, t + size)`).
func (m *Model) rangeCounters(loop NodeID) map[string]bool {
	f := m.File
	if f.Kind(loop) != KindForStatement {
		return nil
	}
	if !overRange(f, loop) {
		return nil
	}
	counts := identifiers(f, f.Field(loop, FieldLeft))
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		if f.Kind(id) != KindAssignment || m.statementLoop(id) != loop {
			return
		}
		for n := range identifiers(f, f.Field(id, FieldRight)) {
			if counts[n] {
				for t := range identifiers(f, f.Field(id, FieldLeft)) {
					counts[t] = true
				}
				return
			}
		}
	})
	return counts
}

// loopItems returns the names that hold what an iteration of a for loop
// draws from its iterable: its targets, unless it counts through a
// range, and names assigned in its body from them (`img =
// load(path)`, `frame = frames[i]`).
func (m *Model) loopItems(loop NodeID) map[string]bool {
	f := m.File
	items := map[string]bool{}
	if f.Kind(loop) != KindForStatement {
		return items
	}
	targets := identifiers(f, f.Field(loop, FieldLeft))
	counts := overRange(f, loop)
	if !counts {
		for t := range targets {
			items[t] = true
		}
	}
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		if f.Kind(id) != KindAssignment || m.statementLoop(id) != loop {
			return
		}
		right := f.Field(id, FieldRight)
		drawn := false
		f.Walk(right, func(u NodeID) {
			if drawn || f.Kind(u) != KindIdentifier {
				return
			}
			if items[f.Text(u)] {
				drawn = true
			} else if counts && targets[f.Text(u)] && indexesIn(f, u, right) {
				drawn = true // `frames[i]`, `video[t:t + 10]`
			}
		})
		if drawn {
			for n := range identifiers(f, f.Field(id, FieldLeft)) {
				items[n] = true
			}
		}
	})
	return items
}

// overRange reports whether a for loop iterates `range(...)`: its
// targets count.
func overRange(f *File, loop NodeID) bool {
	it := f.Unparen(f.Field(loop, FieldRight))
	return f.Kind(it) == KindCall && f.TextIs(f.Field(it, FieldFunction), "range")
}

// indexesIn reports whether u, a node of the expression e, sits in the
// index of a subscript within e (`frames[i]`, `video[t:t + 10]`), not in
// the value subscripted.
func indexesIn(f *File, u, e NodeID) bool {
	for c := u; c != e && c != NoNode; c = f.Parent(c) {
		if f.Kind(f.Parent(c)) == KindSubscript && f.N(c).Field != FieldValue {
			return true
		}
	}
	return false
}

// identifiers returns the names an expression or target mentions.
func identifiers(f *File, id NodeID) map[string]bool {
	names := map[string]bool{}
	f.Walk(id, func(c NodeID) {
		if f.Kind(c) == KindIdentifier && f.N(c).Field != FieldAttribute {
			names[f.Text(c)] = true
		}
	})
	return names
}

// loopsOverModules reports whether each iteration of loop runs, builds,
// loads or frees another module: a loop over a model's layers or
// modules, over models or experiments.
func (m *Model) loopsOverModules(loop NodeID) bool {
	f := m.File
	if f.Kind(loop) == KindForStatement {
		// `for model in models:`, `for name, model in zoo.items():`
		over := false
		f.Walk(f.Field(loop, FieldLeft), func(id NodeID) {
			over = over || f.Kind(id) == KindIdentifier && m.ClassifyCallee(id) == CallableModel
		})
		if over || m.iteratesModuleParts(f.Field(loop, FieldRight)) {
			return true
		}
	}
	drawn := m.loopDrawn(loop)
	over := false
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		if over {
			return
		}
		switch f.Kind(id) {
		case KindCall:
			// `layer(x)` for `layer = layers[i].cuda()`, `blocks[i](x)`:
			// a callable drawn from the iterable is a module per iteration,
			// unless it prepares the input of a forward pass
			// (`model(aug(img))`).
			if args := f.Parent(id); f.Kind(args) == KindArgumentList && (m.IsForwardCall(f.Parent(args)) || m.isSelfForward(f.Parent(args))) {
				return
			}
			fn := f.Unparen(f.Field(id, FieldFunction))
			switch f.Kind(fn) {
			case KindIdentifier:
				over = drawn[f.Text(fn)]
			case KindSubscript:
				f.Walk(f.Field(fn, FieldSubscript), func(u NodeID) {
					over = over || f.Kind(u) == KindIdentifier && drawn[f.Text(u)]
				})
			}
		case KindAssignment:
			left := f.Field(id, FieldLeft)
			if f.Kind(left) == KindIdentifier && m.ClassifyCallee(left) == CallableModel {
				// `net = Net().cuda()`: a module built per iteration,
				// moved or switched on its way.
				v := f.Unparen(f.Field(id, FieldRight))
				for f.Kind(v) == KindCall && (moduleMoves[m.MethodName(v)] || m.MethodName(v) == "eval" || m.MethodName(v) == "train") {
					v = f.Unparen(m.Receiver(v))
				}
				over = f.Kind(v) == KindCall && m.Receiver(v) == NoNode || m.MethodName(v) == "from_pretrained"
			}
		case KindExpressionStatement:
			// `net.load_state_dict(torch.load(path))` on every iteration:
			// a sweep over checkpoints, one model each.
			if f.Parent(id) == f.Field(loop, FieldBody) {
				if c := f.Unparen(f.FirstChild(id)); f.Kind(c) == KindCall && m.MethodName(c) == "load_state_dict" &&
					m.ClassifyCallee(m.Receiver(c)) == CallableModel {
					over = true
				}
			}
		case KindDeleteStatement:
			f.Walk(id, func(c NodeID) {
				if f.Kind(c) == KindIdentifier && (m.ClassifyCallee(c) == CallableModel || isPipelineName(f.Text(c))) {
					over = true
				}
			})
		}
	})
	return over
}

// loopDrawn returns the loop's targets and the names its body assigns
// from them (`layer = layers[i].to(dev)`), in any nested block.
func (m *Model) loopDrawn(loop NodeID) map[string]bool {
	f := m.File
	return m.loopNames(loop, func(v NodeID, drawn map[string]bool) bool {
		for n := range identifiers(f, v) {
			if drawn[n] {
				return true
			}
		}
		return false
	})
}

// loopNames returns the loop's targets and the names its body, in any
// nested block, assigns a value that keep accepts, given the names so far.
func (m *Model) loopNames(loop NodeID, keep func(value NodeID, names map[string]bool) bool) map[string]bool {
	f := m.File
	names := map[string]bool{}
	if f.Kind(loop) == KindForStatement {
		names = identifiers(f, f.Field(loop, FieldLeft))
	}
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		if f.Kind(id) == KindAssignment && f.Kind(f.Field(id, FieldLeft)) == KindIdentifier &&
			keep(f.Unparen(f.Field(id, FieldRight)), names) {
			names[f.Text(f.Field(id, FieldLeft))] = true
		}
	})
	return names
}

// iteratesModuleParts reports whether an iterable walks a module's parts:
// `model.modules()`, `named_children()`, `parameters()`,
// `state_dict().items()`.
func (m *Model) iteratesModuleParts(iter NodeID) bool {
	f := m.File
	found := false
	f.Walk(iter, func(id NodeID) {
		if found || f.Kind(id) != KindCall {
			return
		}
		switch m.MethodName(id) {
		case "modules", "named_modules", "children", "named_children", "parameters", "named_parameters", "state_dict":
			found = m.Receiver(id) != NoNode
		}
	})
	return found
}

// isPipelineName reports whether a name reads as an inference pipeline
// (diffusers, transformers), which holds whole models: deleting one is a
// phase boundary.
func isPipelineName(name string) bool {
	l := strings.ToLower(name)
	return l == "pipe" || strings.HasSuffix(l, "pipeline") || strings.HasSuffix(l, "_pipe")
}

// HotLoop returns the loop whose every iteration runs id: the innermost
// loop around id, in its function, of a hot role, with id not confined
// to selected iterations of it (OnSomeIterations). What runs in a loop
// over modules, or on some iterations of a hot loop, runs once per
// module or per selected iteration; it still runs on every iteration of
// a loop around that one which is hot, or which runs the model on each
// of its items inside it (runsItemIn: `for chunk in chunks:` around `for
// level in range(n): nets[level](chunk)`). Such a loop, of no hot role
// of its own, is returned too. A loop that waits for a person on every
// iteration (`input()`) ends the search: it is no throughput loop.
// NoNode when there is none.
func (m *Model) HotLoop(id NodeID) NodeID {
	passed := NoNode // a loop over modules, or a hot one id runs on some iterations of
	for loop := m.EnclosingLoop(id); loop != NoNode; loop = m.EnclosingLoop(loop) {
		if m.waitsForPerson(loop) {
			return NoNode
		}
		role := m.LoopRole(loop)
		switch {
		case role == LoopModules:
			passed = loop
		case role.Hot() || passed != NoNode && m.runsItemIn(loop, passed):
			if !m.OnSomeIterations(loop, id) {
				return loop
			}
			passed = loop
		}
	}
	return NoNode
}

// runsItemIn reports whether loop runs a model, inside the loop inner
// nested in it, on what each of its iterations draws (loopItems), and
// the loops between them draw nothing that call is given: a chunk of
// rays run through each level's model, a frame through each block.
func (m *Model) runsItemIn(loop, inner NodeID) bool {
	f := m.File
	items := m.loopItems(loop)
	var counts map[string]bool
	if overRange(f, loop) {
		counts = identifiers(f, f.Field(loop, FieldLeft))
	}
	if len(items) == 0 && len(counts) == 0 {
		return false
	}
	scope := m.ScopeNode(loop)
	// The callables a loop over modules draws are its modules, however
	// it picks them (`net = models['net_{}'.format(level)]`).
	var modules map[string]bool
	if m.LoopRole(inner) == LoopModules {
		modules = m.loopDrawn(inner)
	}
	found := false
	f.Walk(inner, func(id NodeID) {
		if found || f.Kind(id) != KindCall || m.ScopeNode(id) != scope {
			return
		}
		fn := f.Unparen(f.Field(id, FieldFunction))
		drawnModule := f.Kind(fn) == KindIdentifier && modules[f.Text(fn)]
		if !drawnModule && !m.IsForwardCall(id) && !m.isSelfForward(id) && !m.heldModuleCall(id) && !m.callRunsModel(id, 0) {
			return
		}
		given := m.argNames(id)
		passes := false
		for n := range given {
			passes = passes || items[n]
		}
		for _, a := range m.Args(id) {
			// `net(rays[s:s + chunk])`: the item its counter slices.
			f.Walk(a, func(u NodeID) {
				passes = passes || f.Kind(u) == KindIdentifier && counts[f.Text(u)] && indexesIn(f, u, a)
			})
		}
		for l := m.statementLoop(id); passes && l != loop && l != NoNode; l = m.EnclosingLoop(l) {
			if f.Kind(l) != KindForStatement && f.Kind(l) != KindWhileStatement {
				continue
			}
			if m.Loop(l).Batches {
				passes = false
			}
			if l == inner && modules != nil {
				// What a loop over modules draws is each module's own (its
				// samples count, its settings), not another item.
				continue
			}
			for n := range m.loopItems(l) {
				passes = passes && !given[n]
			}
		}
		found = passes
	})
	return found
}

// heldModuleCall reports whether a call runs a module picked from a
// container of modules by a key (`self.blocks[name](x)` for an
// nn.ModuleDict or nn.ModuleList): a forward pass of that module.
func (m *Model) heldModuleCall(call NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, FieldFunction))
	if f.Kind(fn) != KindSubscript {
		return false
	}
	c := f.Unparen(f.Field(fn, FieldValue))
	return (f.Kind(c) == KindIdentifier || f.Kind(c) == KindAttribute) && m.ClassifyCallee(c) == CallableModel && m.IsModelValue(c)
}

// waitsForPerson reports whether every iteration of loop waits for a
// person: its own body calls the builtin `input()` on every pass (an
// interactive loop, paced by whoever types).
func (m *Model) waitsForPerson(loop NodeID) bool {
	f := m.File
	body := f.Field(loop, FieldBody)
	found := false
	f.Walk(body, func(id NodeID) {
		if found || f.Kind(id) != KindCall || m.statementLoop(id) != loop {
			return
		}
		if fn := f.Field(id, FieldFunction); !f.TextIs(fn, "input") || f.Kind(fn) != KindIdentifier || m.Resolve(fn) != nil {
			return // not the builtin
		}
		found = everyPass(f, id, body)
	})
	return found
}

// everyPass reports whether id runs on every pass through block: no
// branch, loop or handler lies between them (a try's own body does not
// count as one).
func everyPass(f *File, id, block NodeID) bool {
	for p := f.Parent(id); p != NoNode && p != block; p = f.Parent(p) {
		switch f.Kind(p) {
		case KindIfStatement, KindElifClause, KindElseClause, KindForStatement, KindWhileStatement,
			KindExceptClause, KindMatchStatement, KindConditionalExpression, KindBooleanOperator,
			KindFunctionDefinition, KindLambda:
			return false
		}
	}
	return true
}

// OnSomeIterations reports whether id, in loop, runs only on some of its
// iterations: under a condition that thins them (`if step % 100 == 0:`,
// `if i == 0:`, `if i in refine_steps:`), or after `if step % k:
// continue`; in an except clause; or in a branch that leaves the
// iteration (`if isnan(loss.item()): ...; continue`). A test that does
// not thin the iterations (`if i < n:`, `if x is not None:`) does not
// count.
func (m *Model) OnSomeIterations(loop, id NodeID) bool {
	f := m.File
	vars := m.loopVariables(loop)
	thins := func(cond NodeID, negated bool) bool { return thinningCondition(f, cond, negated, vars) }
	for x := id; x != loop && x != NoNode; x = f.Parent(x) {
		p := f.Parent(x)
		switch f.Kind(p) {
		case KindExceptClause:
			return true // runs only on the iterations that fail
		case KindIfStatement:
			if f.N(x).Field == FieldConsequence && (thins(f.Field(p, FieldCondition), false) || leavesIteration(f, x)) {
				return true
			}
			if f.N(x).Field == FieldAlternative {
				// An elif or else runs where the conditions before it fail.
				if thins(f.Field(p, FieldCondition), true) {
					return true
				}
				for c := f.FirstChild(p); c != x && c != NoNode; c = f.N(c).NextSibling {
					if f.Kind(c) == KindElifClause && thins(f.Field(c, FieldCondition), true) {
						return true
					}
				}
			}
		case KindElifClause:
			if f.N(x).Field == FieldConsequence && (thins(f.Field(p, FieldCondition), false) || leavesIteration(f, x)) {
				return true
			}
		case KindBlock:
			// `if step % k: continue` before x in the same block.
			skipped := false
			f.Children(p, func(c NodeID) bool {
				if c == x {
					return false
				}
				if f.Kind(c) == KindIfStatement && f.Field(c, FieldAlternative) == NoNode && endsInContinue(f, f.Field(c, FieldConsequence)) &&
					thins(f.Field(c, FieldCondition), true) {
					skipped = true
				}
				return !skipped
			})
			if skipped {
				return true
			}
		}
	}
	return false
}

// leavesIteration reports whether a branch ends the iteration it runs
// in, or the loop: a recovery path (`if isnan(loss): ...; continue`), or
// a last step (`if done: ...; break`), which the other iterations skip.
func leavesIteration(f *File, block NodeID) bool {
	last := lastStatement(f, block)
	switch f.Kind(last) {
	case KindContinueStatement, KindBreakStatement, KindReturnStatement, KindRaiseStatement:
		return true
	case KindIfStatement:
		// `if n > 100: raise ... else: ...; continue`: every branch leaves.
		if !leavesIteration(f, f.Field(last, FieldConsequence)) {
			return false
		}
		hasElse := false
		for c := f.FirstChild(last); c != NoNode; c = f.N(c).NextSibling {
			switch f.Kind(c) {
			case KindElifClause:
				if !leavesIteration(f, f.Field(c, FieldConsequence)) {
					return false
				}
			case KindElseClause:
				hasElse = true
				if !leavesIteration(f, f.Field(c, FieldBody)) {
					return false
				}
			}
		}
		return hasElse
	}
	return false
}

// endsInContinue reports whether a block's last statement is `continue`.
func endsInContinue(f *File, block NodeID) bool {
	return f.Kind(lastStatement(f, block)) == KindContinueStatement
}

// loopVariables returns the names that change from one iteration to the
// next of loop and the loops around it in its function: their targets,
// and the counters their bodies step (`step += 1`). The targets of loops
// nested in loop are not among them: a test of one (`if t == 0:`) picks
// an iteration of the nested loop, and so still runs on each of loop's.
func (m *Model) loopVariables(loop NodeID) map[string]loopVar {
	f := m.File
	vars := map[string]loopVar{}
	body := f.Field(loop, FieldBody)
	for ; loop != NoNode; loop = m.EnclosingLoop(loop) {
		if f.Kind(loop) == KindForStatement {
			for n := range identifiers(f, f.Field(loop, FieldLeft)) {
				vars[n] = loopTarget
			}
		}
		f.Walk(f.Field(loop, FieldBody), func(a NodeID) {
			if f.Kind(a) == KindAugmentedAssignment && f.Kind(f.Field(a, FieldLeft)) == KindIdentifier {
				vars[f.Text(f.Field(a, FieldLeft))] = loopTarget
			}
		})
	}
	// Names the body assigns, each iteration, from what the iteration
	// yields (`frame_id = info[2].item()`): another value per iteration.
	for pass, changed := 0, true; changed && pass < 3; pass++ {
		changed = false
		f.Walk(body, func(a NodeID) {
			left := f.Field(a, FieldLeft)
			if f.Kind(a) != KindAssignment || f.Kind(left) != KindIdentifier || vars[f.Text(left)] != 0 {
				return
			}
			for n := range identifiers(f, f.Field(a, FieldRight)) {
				if vars[n] != 0 {
					vars[f.Text(left)], changed = loopDerived, true
					return
				}
			}
		})
	}
	return vars
}

// loopVar is how a name changes from one iteration of a loop to the
// next: a target of the loop or a name it adds to (loopTarget), or a
// name its body assigns from one of those (loopDerived).
type loopVar uint8

const (
	loopTarget loopVar = iota + 1
	loopDerived
)

// thinningCondition reports whether a condition (negated: its failure)
// holds on only some iterations of a loop whose changing names are vars:
// anything periodic (`%`), or an equality or membership test of one of
// them (`i == 0`, `i in steps`; failed: `i != 0`). An order test (`i <
// n`), an identity test (`x is None`) or a test of anything else does
// not thin them.
func thinningCondition(f *File, cond NodeID, negated bool, vars map[string]loopVar) bool {
	cond = f.Unparen(cond)
	if periodic(f, cond) {
		return true
	}
	switch f.Kind(cond) {
	case KindIdentifier:
		return negated && vars[f.Text(cond)] == loopTarget // `if not i:`, the first iteration
	case KindNotOperator:
		return thinningCondition(f, f.Field(cond, FieldArgument), !negated, vars)
	case KindBooleanOperator:
		l := thinningCondition(f, f.Field(cond, FieldLeft), negated, vars)
		r := thinningCondition(f, f.Field(cond, FieldRight), negated, vars)
		if f.TextIs(f.Field(cond, FieldOperator), "and") != negated {
			return l || r // both must hold: one thinning test is enough
		}
		return l && r
	case KindComparisonOperator:
		if !mentionsLoopVariable(f, cond, vars) {
			return false
		}
		eq, ne := 0, 0
		for c := f.N(cond).FirstChild; c != NoNode; c = f.N(c).NextSibling {
			if f.N(c).Field != FieldOperators {
				continue
			}
			switch strings.Join(strings.Fields(f.Text(c)), " ") {
			case "==", "in":
				eq++
			case "!=", "not in":
				ne++
			default:
				ne, eq = 1, 1 // an order or identity test among them
			}
		}
		if eq > 0 && ne > 0 {
			return false
		}
		return eq > 0 && !negated || ne > 0 && negated
	}
	return false
}

// mentionsLoopVariable reports whether a comparison tests a value that
// changes each iteration: a loop target, or a name assigned from one
// compared with constants alone (`frame_id == 1`).
func mentionsLoopVariable(f *File, cmp NodeID, vars map[string]loopVar) bool {
	target, derived, other := false, false, false
	for c := f.N(cmp).FirstChild; c != NoNode; c = f.N(c).NextSibling {
		if f.N(c).Field == FieldOperators {
			continue
		}
		c = f.Unparen(c)
		switch {
		case f.Kind(c) == KindIdentifier && vars[f.Text(c)] == loopDerived:
			derived = true
		case isLiteral(f, c):
		default:
			other = true
		}
		f.Walk(c, func(id NodeID) {
			target = target || f.Kind(id) == KindIdentifier && vars[f.Text(id)] == loopTarget && f.N(id).Field != FieldAttribute
		})
	}
	return target || derived && !other
}

// isLiteral reports whether an expression is a constant written out: a
// number, a string, True, False or None (ScalarLiteral), or a tuple or
// list of them.
func isLiteral(f *File, e NodeID) bool {
	switch f.Kind(e) {
	case KindConcatenatedString:
		return true
	case KindTuple, KindList:
		all := true
		f.Children(e, func(c NodeID) bool {
			all = all && isLiteral(f, c)
			return all
		})
		return all
	case KindUnaryOperator:
		return isLiteral(f, f.Field(e, FieldArgument))
	}
	return ScalarLiteral(f, e)
}

// periodic reports whether an expression takes a remainder (`step % k`).
func periodic(f *File, e NodeID) bool {
	found := false
	f.Walk(e, func(id NodeID) {
		found = found || f.Kind(id) == KindBinaryOperator && f.TextIs(f.Field(id, FieldOperator), "%")
	})
	return found
}

// HotIterating returns the for loop whose iterable holds call
// (`for batch in make_batches(...)`, `enumerate(stream(...))`) when each
// of its iterations runs once per step or item (a hot role, no person
// waited for); NoNode otherwise. What the iterable runs to yield each
// item then runs on every iteration of that loop.
func (m *Model) HotIterating(call NodeID) NodeID {
	f := m.File
	for n := f.Parent(call); n != NoNode; n = f.Parent(n) {
		switch f.Kind(n) {
		case KindForStatement:
			if !f.Contains(f.Field(n, FieldRight), call) || !m.LoopRole(n).Hot() || m.waitsForPerson(n) {
				return NoNode
			}
			return n
		case KindCall, KindArgumentList, KindKeywordArgument, KindParenthesizedExpression:
		default:
			return NoNode
		}
	}
	return NoNode
}

// UnseenItemWork returns a call in loop's body, at its level of the
// function and outside any nested loop, that hands what each iteration
// draws (loopItems: `frame` of `for frame in frames:`) to a method of a
// parameter whose code the project does not show (`tracker.track(frame)`,
// no class of the project with a `track`, nor a library's object): work
// on each item that may run a model. NoNode when there is none, or when a call of the loop
// waits for a person.
func (m *Model) UnseenItemWork(loop NodeID) NodeID {
	f := m.File
	items := m.loopItems(loop)
	if len(items) == 0 || m.waitsForPerson(loop) {
		return NoNode
	}
	scope := m.ScopeNode(loop)
	found := NoNode
	f.Walk(f.Field(loop, FieldBody), func(id NodeID) {
		if found != NoNode || f.Kind(id) != KindCall || m.ScopeNode(id) != scope || m.statementLoop(id) != loop {
			return
		}
		callee := f.Unparen(f.Field(id, FieldFunction))
		if f.Kind(callee) != KindAttribute {
			return
		}
		obj := f.Unparen(f.Field(callee, FieldObject))
		b := m.Resolve(obj)
		if f.Kind(obj) != KindIdentifier || b == nil || b.Kind != BindParam || f.TextIs(obj, "self") || f.TextIs(obj, "cls") ||
			m.QualifiedName(callee) != "" || m.Helper(id) != nil {
			return
		}
		name := f.Text(f.Field(callee, FieldAttribute))
		if moduleUses[name] || moduleMoves[name] || strings.HasPrefix(name, "__") {
			return // what every module has (`net.load_state_dict(torch.load(path))`: a checkpoint per iteration)
		}
		if tensorMethod(name) || strings.HasPrefix(name, "new_") {
			return // a tensor's (`outputs.new_zeros((n, 4))`, `x.view(-1)`): no model
		}
		if ref := m.nameOnlyRef(id); ref == "" || m.lookup(ref, WantKind) != nil || m.localMethodNamed(name) {
			return // a method the project shows, which runs no model
		}
		for n := range m.argNames(id) {
			if items[n] {
				found = id
				return
			}
		}
	})
	return found
}

// argNames returns the names a call's arguments read, keyword arguments'
// values included.
func (m *Model) argNames(call NodeID) map[string]bool {
	f := m.File
	names := map[string]bool{}
	for _, a := range m.Args(call) {
		if f.Kind(a) == KindKeywordArgument {
			a = f.Field(a, FieldValue)
		}
		for n := range identifiers(f, a) {
			names[n] = true
		}
	}
	return names
}

// localMethodNamed reports whether a class of this file defines a method
// named name.
func (m *Model) localMethodNamed(name string) bool {
	return m.Memo(localMethodKey{name}, func() any {
		f := m.File
		found := false
		f.Walk(Root, func(id NodeID) {
			if !found && f.Kind(id) == KindClassDefinition && m.MethodOf(id, name) != NoNode {
				found = true
			}
		})
		return found
	}).(bool)
}

type localMethodKey struct{ name string }
