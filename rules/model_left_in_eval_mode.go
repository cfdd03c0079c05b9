package rules

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// ModelLeftInEvalMode is TL503.
var ModelLeftInEvalMode = &analyzer.Rule{
	Code:      "TL503",
	Name:      "model-left-in-eval-mode",
	Summary:   "A training loop switches its model to evaluation mode and never back to training mode",
	Severity:  analyzer.SeverityError,
	Precision: "high",
	// Read on code none of us wrote, its findings (all of high
	// confidence) were right or right but minor 35 times in 36, half of
	// them minor (a model without dropout or batch norm): on by default,
	// shown from high.
	Confidence: analyzer.ConfidenceHigh,
	Tags:       []string{"correctness"},
	Fixable:    true,
	Kinds:      []analyzer.Kind{analyzer.KindCall},
	Check:      checkModelLeftInEval,
	Doc: `## What it does
Checks for a loop that trains a model (it back-propagates or steps an
optimizer on every iteration) and, in the same iteration, switches that
model to evaluation mode, with ` + "`model.eval()`" + ` or by calling an evaluation
function (in this file or another file of the project) that does, while
nothing in the loop switches it back with ` + "`model.train()`" + `. It is reported at
the call that switches.

## Why is this bad?
` + "`model.eval()`" + ` changes what the model computes, not only how fast:
dropout stops dropping, and batch normalisation normalises with its
running statistics and stops updating them. Every training step after the
first evaluation then trains a different network from the one the code
describes, with no error raised: regularisation is gone and the batch
norm statistics are frozen at the values they had when evaluation first
ran. The usual symptom is a model that trains well for one epoch, then
overfits or stalls.

Measured: on an NVIDIA H200 with PyTorch 2.11.0, 5 seeds each ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL503.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl503_eval_mode.py)):
a small CNN with batch norm and dropout, validated after each of 15
epochs on a synthetic ten-class image task with a fifth of its training
labels wrong, ended at 83.3 % held-out accuracy when the validation left
it in evaluation mode (80.0 to 84.1 over the seeds; 84.4 in a second
run), against 91.6 % (86.2 to 93.5; 90.9 in a second run) with
` + "`model.train()`" + ` at the start of every epoch. The two were level for the
first epochs, both peaking near 93.9 %; then the model without dropout
and with its batch norm statistics frozen fitted the wrong labels, its
training loss falling to 0.17 against 0.96, and lost held-out accuracy.
It ended where the same network without batch norm and dropout ends, a
model the rule does not report: 83.1 % left in evaluation mode and 83.3
% with ` + "`model.train()`" + ` (78.2 to 84.8 and 79.7 to 84.8 over the seeds),
since evaluation mode changes nothing it computes.

## Example
` + "```python" + `
def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return sum(metric(model(x), y) for x, y in loader)

model.train()
for epoch in range(epochs):
    for x, y in train_loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    evaluate(model, val_loader)
` + "```" + `

## Use instead
` + "```python" + `
for epoch in range(epochs):
    model.train()
    for x, y in train_loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    evaluate(model, val_loader)
` + "```" + `
Or have the evaluation function restore the mode it found
(` + "`was_training = model.training`" + ` … ` + "`model.train(was_training)`" + `).

Not reported:
- a loop that calls ` + "`model.train()`" + ` anywhere in its body, itself or in a
  function it calls (a ` + "`train_one_epoch`" + ` that starts with ` + "`model.train()`" + `);
- an evaluation function that switches the model back before returning;
- a model the loop does not train: one it runs forward only without
  gradients (an EMA copy), a copy (` + "`copy.deepcopy`" + `, ` + "`AveragedModel`" + `, timm's
  ` + "`ModelEmaV2`" + `), or a module the optimizers built in the function or its
  class leave out (a fixed feature extractor for a perceptual loss);
- training in evaluation mode on purpose: a loop that calls a function
  which back-propagates after switching the model to ` + "`eval()`" + ` itself (a
  linear probe that keeps a frozen backbone's batch norm statistics), or
  that calls ` + "`model.eval()`" + ` at the top of its body, before its first step,
  with no evaluation between;
- a model whose class, in this file, has no layer that evaluation mode
  changes (no dropout, no batch norm, no code reading ` + "`self.training`" + `):
  the switch changes nothing it computes today;
- a switch followed by ` + "`break`" + ` or ` + "`return`" + `, after which no step runs;
- a loop that builds the model afresh at the top of each iteration, before
  its first step (` + "`model = Net()`" + `, ` + "`copy.deepcopy(base)`" + ` in a grid search):
  the switch reaches a module no later step trains (moving it, reading it
  from an attribute or wrapping it, ` + "`model = self.model`" + `,
  ` + "`nn.DataParallel(net)`" + `, is no new one).

## Fix safety
The fix inserts ` + "`model.train()`" + ` after the statement that switches to
evaluation mode. It is unsafe: a model that holds parts meant to stay in
evaluation mode (a frozen backbone with batch norm) needs those switched
back to ` + "`eval()`" + ` after it.

## Known problems
Which module an evaluation function switches is matched by the name it is
passed under or by the attribute of ` + "`self`" + ` it uses, so a model reached
through a container (` + "`models[\"student\"]`" + `) is not followed; for a function of
another file, whose parameters are not known, the argument is the one
passed under the parameter's own name, or else the one model among the
arguments. An evaluation function that both switches to ` + "`eval()`" + ` and calls
` + "`train()`" + ` anywhere is taken to restore the mode, and a function that
back-propagates and switches to ` + "`eval()`" + ` is taken to train in evaluation
mode on purpose, even when its switch follows its training (a
` + "`train_one_epoch`" + ` that evaluates at its end, without ever calling
` + "`train()`" + `).

Which layers a model has is read from its class, in its file or another
file of the project (with the classes it builds or derives from, and the
` + "`torch.nn`" + ` and ` + "`torchvision.models`" + ` modules), and from the layers given
to it after it is built (` + "`model.fc = nn.Sequential(nn.Dropout(0.5), ...)`" + `).
A model without dropout or batch norm is not reported: evaluation mode
changes nothing it computes, and the switch only matters once such a
layer is added. Where the class is in a library, or built by a function,
the message says what evaluation mode changes if the model has those
layers.

A switch in the last iteration of the loop (` + "`if i == len(loader) - 1:`" + `), whose
enclosing loop switches the model back to training at its top, leaves no
step in evaluation mode.

A function's switch of a copy of a module it makes (` + "`copy.deepcopy`" + `) leaves
its callers' models as they were, and so does, for a function of the same
file, the switch of a module that is none of its parameters (a model it
loads, ` + "`Net.from_pretrained(path)`" + `, whose loader switches it).

Before the exceptions above, 15 of 23 findings on real training code were
right, most of them on models that evaluation mode does not change, and
on an independent sample of 36 training repositories it reported 4
findings, none right (linear probes that train in evaluation mode on
purpose). With them, on 36 findings of repositories it was not fixed on,
all of high confidence, 35 were right or right but minor (half minor: a
model whose class is in another file and has neither layer, a probe
whose wrapper froze its backbone in its constructor): it is on by
default, shown from ` + "`high`" + `. An evaluation function of another file is
taken to switch the model passed under the name of the parameter it
switches, else the only model among the call's arguments, when the loop
trains it: given two models (a student and its frozen teacher), it may
switch either, and nothing is reported. A method the loop calls on a
model whose class it does not know (` + "`model.train_custom()`" + `)
switches it back to training where every method of that name in the
project switches a module of its class to training mode.

## References
- [torch.nn.Module.eval](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.eval)
- [Autograd mechanics: evaluation mode is not a grad mode](https://pytorch.org/docs/stable/notes/autograd.html#evaluation-mode-nn-module-eval)
`,
}

func checkModelLeftInEval(p *analyzer.Pass, call analyzer.NodeID) {
	m, f := p.Model, p.File
	if m.EnclosingLoop(call) == analyzer.NoNode {
		return
	}
	var target, how string
	var h *analyzer.Object
	if eval, _ := m.ModeSwitch(call); eval {
		target = compact(f.Text(f.Unparen(m.Receiver(call))))
	} else {
		h = m.Steps(call)
		if h == nil || h.Eval == nil || h.Train != nil || h.Backward != nil {
			// A function that back-propagates and switches to evaluation
			// mode, never to training, trains in evaluation mode on
			// purpose (a linear probe on a frozen backbone).
			return
		}
		target = h.Eval.Text[:max(0, strings.LastIndexByte(h.Eval.Text, '.'))]
		how = fmt.Sprintf(" (`%s`, %s:%d)", h.Eval.Text, h.Eval.Path, h.Eval.Line)
		if def := m.LocalCallee(call); def != analyzer.NoNode && !siteIn(f, h.Eval, def) {
			// A function of this file that switches a module in a callee
			// (a loader's `model.eval()` on the model it loads): the name
			// there is not its parameter's.
			return
		}
	}
	loop, t := trainingLoop(m, call)
	if loop == analyzer.NoNode || t.switchesToTrain || t.trainsInEval || leavesAfter(m, call, loop) != analyzer.NoNode {
		return
	}
	model := trainedTarget(m, call, target, t.models)
	if model != "" && lastIteration(m, call, loop) && trainedAgainAround(m, loop, model) {
		return // in the loop's last iteration, and the loop around it switches back before it runs again
	}
	if model == "" || h == nil && trainsInEvalOnPurpose(m, call, loop, t) || !trainedByLoop(m, loop, t.models[model]) ||
		rebuiltEachIteration(m, loop, call, model, t.firstStep) {
		return
	}
	known, has := m.ModeLayers(t.models[model])
	if known && !has {
		return // evaluation mode changes nothing in this model today
	}
	harm := ": dropout stops dropping and batch norm uses, and stops updating, its running statistics"
	if !known {
		harm = ", where dropout stops dropping and batch norm uses, and stops updating, its running statistics, if the model has either"
	}
	msg := fmt.Sprintf("%s switches `%s` to evaluation mode%s and nothing in this training loop switches it back, "+
		"so the later steps of this loop train in evaluation mode%s; "+
		"call `%s.train()` after it, or at the top of each iteration", code(m, call, 40, "this call"), model, how, harm, model)
	p.Report(call, msg)
	if how != "" {
		// The evaluation function has done its work when it returns.
		if fix := insertAfterFix(f, call, model+".train()", fmt.Sprintf("Call `%s.train()` after it", model)); fix != nil {
			p.Fix(fix)
		}
	} else if f.N(call).Start > t.firstStep {
		// The evaluation code follows the switch: switch back at the top
		// of the next iteration, before its training step.
		if fix := insertFirstFix(f, loop, model+".train()", fmt.Sprintf("Call `%s.train()` at the top of each iteration", model)); fix != nil {
			p.Fix(fix)
		}
	}
}

// rebuiltEachIteration reports whether every iteration of loop binds
// model afresh before its first training step, and the switch to
// evaluation mode (call) comes after that step or before the binding
// (`model = CNN()` at the top of a grid search, evaluated at its end):
// each iteration trains a new module, in training mode, not the one the
// switch reached.
func rebuiltEachIteration(m *analyzer.Model, loop, call analyzer.NodeID, model string, firstStep uint32) bool {
	f := m.File
	for _, a := range loopAssignments(m, loop)[model] {
		if f.Parent(a) == analyzer.NoNode || !runsEachIteration(m, loop, f.Parent(a)) || f.N(a).Start >= firstStep ||
			mentions(f, f.Field(a, analyzer.FieldRight), model) || !newModule(m, f.Field(a, analyzer.FieldRight), 0) {
			continue // not run by each iteration, or after the step, or the same module (`model = model.to(dev)`, `model = self.model`)
		}
		if at := f.N(call).Start; at > firstStep || at < f.N(a).Start {
			return true
		}
	}
	return false
}

// runsEachIteration reports whether stmt, in the body of loop, is a
// statement of that body or of the arms of ifs there whose tests read
// nothing the loop changes (`if model_flag == 0: net = Net()`, the one
// arm of a choice made once for all iterations).
func runsEachIteration(m *analyzer.Model, loop, stmt analyzer.NodeID) bool {
	f := m.File
	body := f.Field(loop, analyzer.FieldBody)
	assigned := loopAssignments(m, loop)
	for p := f.Parent(stmt); p != body; p = f.Parent(p) {
		switch f.Kind(p) {
		case analyzer.KindBlock, analyzer.KindElseClause:
		case analyzer.KindIfStatement, analyzer.KindElifClause:
			varies := false
			f.Walk(f.Field(p, analyzer.FieldCondition), func(id analyzer.NodeID) {
				varies = varies || f.Kind(id) == analyzer.KindIdentifier && (len(assigned[f.Text(id)]) > 0 || mentions(f, f.Field(loop, analyzer.FieldLeft), f.Text(id)))
			})
			if varies {
				return false
			}
		default:
			return false // a loop, a with, a try, a function: not each iteration, or not known
		}
	}
	return true
}

// newModule reports whether v builds a module afresh: a call of a class
// or a factory (`Net()`, `build_model(cfg)`, `models.resnet18()`), or a
// deep copy; moved or
// wrapped (`Net().to(dev)`, `nn.DataParallel(Net())`) it still is one. An
// attribute (`self.model`, `ddp.module`), a name, or a wrapper around
// one of these (`nn.DataParallel(net)`) hands back a module that exists.
func newModule(m *analyzer.Model, v analyzer.NodeID, depth int) bool {
	f := m.File
	v = f.Unparen(v)
	if depth > 4 || f.Kind(v) != analyzer.KindCall {
		return false
	}
	switch q, method := m.CallName(v), m.MethodName(v); {
	case q == "copy.deepcopy":
		return true
	case analyzer.ModuleWrappers[q]:
		args := m.Args(v)
		return len(args) > 0 && newModule(m, args[0], depth+1)
	case analyzer.SelfReturning[method]:
		return newModule(m, m.Receiver(v), depth+1)
	case method == "":
		return true // `Net()`, `build_model(cfg)`
	}
	if m.CallName(v) != "" {
		return true // `models.resnet18()`: a function of an imported module
	}
	// `Net.from_config(cfg)`, a class's constructor; `self.build_model()`,
	// `self.model_cls(cfg)`: named for building one. Another method of an
	// object (`trainer.get_model()`) may hand back the same module.
	recv := f.Unparen(m.Receiver(v))
	if b := m.Resolve(recv); f.Kind(recv) == analyzer.KindIdentifier && b != nil && b.Kind == analyzer.BindClass {
		return true
	}
	name := strings.ToLower(m.MethodName(v))
	for _, w := range []string{"build", "make", "create", "new", "construct", "init_model", "cls", "class", "factory"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// siteIn reports whether site lies in def, a function of file f.
func siteIn(f *analyzer.File, site *analyzer.Site, def analyzer.NodeID) bool {
	if site.Abs != "" && site.Abs != f.Path {
		if abs, err := filepath.Abs(f.Path); err != nil || site.Abs != abs {
			return false
		}
	}
	start, end := f.Position(f.N(def).Start).Line, f.Position(f.N(def).End).Line
	return site.Line >= start && site.Line <= end
}

// compact drops the spaces of an expression's text, to compare it with
// another's.
func compact(s string) string { return strings.Join(strings.Fields(s), "") }

// loopTraining is what an iteration of a loop does to train a model.
type loopTraining struct {
	trains          bool   // it back-propagates or steps an optimizer
	firstStep       uint32 // where it first does
	switchesToTrain bool   // it calls .train(), itself or through a function
	// trainsInEval: it calls a function that back-propagates and switches
	// a module to evaluation mode, never to training mode: one that
	// trains in evaluation mode on purpose, every time it runs.
	trainsInEval bool
	// models are the modules it runs forward with gradients enabled, or
	// hands to functions that train, each with its first mention.
	models map[string]analyzer.NodeID
}

type trainingKey struct{ loop analyzer.NodeID }

// trainingLoop returns the innermost loop around call, in its function,
// that trains a model on every iteration, with what it does.
func trainingLoop(m *analyzer.Model, call analyzer.NodeID) (analyzer.NodeID, loopTraining) {
	f := m.File
	for l := m.EnclosingLoop(call); l != analyzer.NoNode; l = m.EnclosingLoop(l) {
		if k := f.Kind(l); k != analyzer.KindForStatement && k != analyzer.KindWhileStatement {
			continue
		}
		if t := loopTrainingOf(m, l); t.trains {
			return l, t
		}
	}
	return analyzer.NoNode, loopTraining{}
}

func loopTrainingOf(m *analyzer.Model, loop analyzer.NodeID) loopTraining {
	return m.Memo(trainingKey{loop}, func() any {
		f := m.File
		scope := m.ScopeNode(loop)
		t := loopTraining{models: map[string]analyzer.NodeID{}, firstStep: f.N(loop).End}
		step := func(id analyzer.NodeID) {
			t.trains = true
			t.firstStep = min(t.firstStep, f.N(id).Start)
		}
		model := func(e analyzer.NodeID) {
			if k := compact(f.Text(e)); !hasKey(t.models, k) {
				t.models[k] = e
			}
		}
		f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
			if f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != scope {
				return
			}
			if _, train := m.ModeSwitch(id); train {
				t.switchesToTrain = true
			}
			if _, ok := optimizerStep(m, id); ok || m.AddsGrad(id) {
				step(id)
			}
			// A forward pass without gradients (an EMA copy's, an
			// evaluation's) trains nothing.
			noGrad := m.GradModeAt(id) == analyzer.GradDisabled
			if m.IsForwardCall(id) && !noGrad {
				fn := f.Unparen(f.Field(id, analyzer.FieldFunction))
				if f.Kind(fn) == analyzer.KindAttribute && f.TextIs(f.Field(fn, analyzer.FieldAttribute), "forward") {
					fn = f.Field(fn, analyzer.FieldObject)
				}
				model(fn)
			}
			h := m.Steps(id)
			if h != nil && h.Train != nil {
				t.switchesToTrain = true
			}
			// The modules handed to a function that back-propagates, or
			// that runs them forward for the step (`compute_loss(model,
			// batch)`), are trained; those handed to an evaluation are not.
			backprops := h != nil && h.Backward != nil
			if backprops && h.Eval != nil && h.Train == nil {
				t.trainsInEval = true
			}
			forwards := !backprops && !noGrad && (h == nil || h.Eval == nil)
			if forwards {
				fw := m.Helper(id)
				forwards = fw != nil && fw.Forward != nil
			}
			if backprops {
				step(id)
			}
			for _, a := range argValues(f, id) {
				if k := f.Kind(a); k != analyzer.KindIdentifier && k != analyzer.KindAttribute {
					continue
				}
				if backprops || forwards && m.ClassifyCallee(a) == analyzer.CallableModel {
					model(a)
				}
			}
		})
		return t
	}).(loopTraining)
}

// trainedTarget returns the name of the module a switch to evaluation
// mode reaches that the loop trains: the switch's own receiver, or for
// an evaluation function, the attribute of self it switches or the
// argument it is passed for the parameter it switches. "" when none is.
func trainedTarget(m *analyzer.Model, call analyzer.NodeID, target string, models map[string]analyzer.NodeID) string {
	f := m.File
	target = strings.TrimSuffix(target, ".module")
	if _, eval := m.ModeSwitch(call); eval {
		if _, ok := models[target]; ok {
			return target
		}
		return ""
	}
	// An evaluation function switches an attribute of self when it is a
	// method called through self, a global when it takes no arguments,
	// and otherwise what it is passed.
	args := argValues(f, call)
	_, trained := models[target]
	method := strings.HasPrefix(compact(f.Text(f.Field(call, analyzer.FieldFunction))), "self.")
	if trained && (method && strings.HasPrefix(target, "self.") || len(args) == 0 && !strings.Contains(target, ".")) {
		return target
	}
	if a := argumentFor(m, call, target); a != analyzer.NoNode {
		if t := compact(f.Text(a)); hasKey(models, t) {
			return t
		}
		return ""
	}
	if def := m.LocalCallee(call); def != analyzer.NoNode && trained && switchesGlobal(m, def, target, models[target]) {
		return target // `sample(epoch)`, whose `model.eval()` switches the global the loop trains
	}
	if m.LocalCallee(call) != analyzer.NoNode {
		// A function of this file that takes no parameter of that name
		// switches a module of its own making, or one a callee returns
		// (`fresh = Net.from_pretrained(path)`): not what it is given.
		return ""
	}
	// The function is not one of this file's: the argument passed under
	// the parameter's own name, else the only model it is given, when
	// the loop trains it. Given a model the loop does not train as well
	// (a frozen teacher beside the student), it may switch that one.
	var only string
	n := 0
	for _, a := range args {
		t := compact(f.Text(a))
		_, trained := models[t]
		if trained && t == target {
			return t
		}
		if m.ClassifyCallee(a) != analyzer.CallableModel {
			continue
		}
		n++
		if trained {
			only = t
		}
	}
	if n > 1 {
		return ""
	}
	return only
}

func hasKey(models map[string]analyzer.NodeID, k string) bool {
	_, ok := models[k]
	return ok
}

// argumentFor returns the value a call passes for the parameter named
// param of the function of this file it calls, or NoNode when the
// function is not known or does not take it.
func argumentFor(m *analyzer.Model, call analyzer.NodeID, param string) analyzer.NodeID {
	f := m.File
	if k := m.Keyword(call, param); k != analyzer.NoNode {
		return f.Unparen(k)
	}
	def := m.LocalCallee(call)
	if def == analyzer.NoNode || strings.Contains(param, ".") {
		return analyzer.NoNode
	}
	pos := 0
	index := -1
	f.Children(f.Field(def, analyzer.FieldParameters), func(c analyzer.NodeID) bool {
		name := c
		switch f.Kind(c) {
		case analyzer.KindDefaultParameter, analyzer.KindTypedDefaultParameter:
			name = f.Field(c, analyzer.FieldName)
		case analyzer.KindTypedParameter:
			name = f.FirstChild(c)
		case analyzer.KindIdentifier:
		case analyzer.KindListSplatPattern, analyzer.KindDictionarySplatPattern:
			return false
		default:
			return true
		}
		if pos == 0 && m.EnclosingClass(def) != analyzer.NoNode && (f.TextIs(name, "self") || f.TextIs(name, "cls")) {
			return true
		}
		if f.TextIs(name, param) {
			index = pos
			return false
		}
		pos++
		return true
	})
	if args := m.Args(call); index >= 0 && index < len(args) && f.Kind(args[index]) != analyzer.KindKeywordArgument {
		return f.Unparen(args[index])
	}
	return analyzer.NoNode
}

// trainsInEvalOnPurpose reports whether a switch to evaluation mode is
// the loop's own setting for its training steps: a statement of the
// loop's body, before its first step, with no evaluation between them
// (`model.eval()` at the top of a linear probe's epoch, to keep a frozen
// backbone's batch norm statistics).
func trainsInEvalOnPurpose(m *analyzer.Model, call, loop analyzer.NodeID, t loopTraining) bool {
	f := m.File
	stmt := statementOf(f, call)
	if f.Parent(stmt) != f.Field(loop, analyzer.FieldBody) || f.N(call).Start > t.firstStep {
		return false
	}
	between := false
	f.Walk(f.Field(loop, analyzer.FieldBody), func(id analyzer.NodeID) {
		if between || f.Kind(id) != analyzer.KindCall || f.N(id).Start <= f.N(call).End || f.N(id).Start >= t.firstStep {
			return
		}
		if m.IsForwardCall(id) && m.GradModeAt(id) == analyzer.GradDisabled {
			between = true
		} else if h := m.Steps(id); h != nil && h.Eval != nil {
			between = true
		}
	})
	return !between
}

// trainedByLoop reports whether the module a loop switches is one its
// optimizer trains: not a copy (`copy.deepcopy`, an EMA or SWA average)
// nor a module left out of every optimizer the function or its class
// builds, where those say which parameters they take.
func trainedByLoop(m *analyzer.Model, loop, model analyzer.NodeID) bool {
	f := m.File
	name := model
	for f.Kind(name) == analyzer.KindAttribute && f.TextIs(f.Field(name, analyzer.FieldAttribute), "module") {
		name = f.Field(name, analyzer.FieldObject)
	}
	last := f.Text(name)
	if f.Kind(name) == analyzer.KindAttribute {
		last = f.Text(f.Field(name, analyzer.FieldAttribute))
	}
	optimized, known := optimizerParams(m, loop, last)
	if known {
		return optimized
	}
	if v := f.Unparen(m.BoundValue(name)); v != analyzer.NoNode && f.Kind(v) == analyzer.KindCall && modelCopies[m.CallName(v)] {
		return false
	}
	return true
}

// modelCopies are the calls that make a copy of a model that no optimizer
// steps: a frozen copy, or an average of the trained weights.
var modelCopies = map[string]bool{
	"copy.deepcopy":                       true,
	"torch.optim.swa_utils.AveragedModel": true,
	"timm.utils.ModelEma":                 true,
	"timm.utils.ModelEmaV2":               true,
	"timm.utils.ModelEmaV3":               true,
	"timm.utils.model_ema.ModelEma":       true,
	"timm.utils.model_ema.ModelEmaV2":     true,
	"timm.utils.model_ema.ModelEmaV3":     true,
	"torch_ema.ExponentialMovingAverage":  true,
	"ema_pytorch.EMA":                     true,
}

// optimizerParams reports whether the optimizers built in the loop's
// function, or in its class, take the parameters of the module named
// name; known is false when none is built there, or one's parameters are
// not an expression that says whose they are.
func optimizerParams(m *analyzer.Model, loop analyzer.NodeID, name string) (optimized, known bool) {
	f := m.File
	fn := m.EnclosingFunction(loop)
	region := fn
	if c := m.EnclosingClass(fn); c != analyzer.NoNode {
		region = c
	}
	if region == analyzer.NoNode {
		region = 0 // a loop at module level: the module's optimizers
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	built, opaque := 0, false
	f.Walk(region, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall || !isOptimizerClass(m.CallName(id)) {
			return
		}
		if region == fn && m.ScopeNode(id) != fn {
			return
		}
		built++
		params := m.Keyword(id, "params")
		if args := m.Args(id); len(args) > 0 && f.Kind(args[0]) != analyzer.KindKeywordArgument {
			params = args[0]
		}
		text := f.Text(params)
		f.Walk(params, func(n analyzer.NodeID) {
			if f.Kind(n) == analyzer.KindIdentifier {
				if v := m.BoundValue(n); v != analyzer.NoNode {
					text += " " + f.Text(v)
				}
			}
		})
		if params == analyzer.NoNode || !strings.Contains(text, "parameters") {
			opaque = true
		}
		optimized = optimized || word.MatchString(text)
	})
	return optimized, built > 0 && (optimized || !opaque)
}

// isOptimizerClass reports whether q names a torch.optim optimizer.
func isOptimizerClass(q string) bool {
	rest, ok := strings.CutPrefix(q, "torch.optim.")
	return ok && !strings.Contains(rest, ".") && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z'
}

// switchesGlobal reports whether def, a function of this file, switches
// to evaluation mode the module-level name target that model, a use of
// it where the loop trains it, reads too.
func switchesGlobal(m *analyzer.Model, def analyzer.NodeID, target string, model analyzer.NodeID) bool {
	f := m.File
	trained := m.Resolve(model)
	if trained == nil || strings.Contains(target, ".") || m.ScopeNode(trained.Stmt) != analyzer.Root {
		return false
	}
	found := false
	f.Walk(f.Field(def, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall {
			return
		}
		if eval, _ := m.ModeSwitch(id); eval {
			recv := f.Unparen(m.Receiver(id))
			b := m.Resolve(recv)
			found = f.TextIs(recv, target) && b != nil && b.Stmt == trained.Stmt
		}
	})
	return found
}

// lastIteration reports whether call runs only in the last iteration of
// loop, `for i, batch in enumerate(loader)`: under `if i == len(loader) -
// 1:` (or `i + 1 == len(loader)`).
func lastIteration(m *analyzer.Model, call, loop analyzer.NodeID) bool {
	f := m.File
	iter, target := f.Unparen(f.Field(loop, analyzer.FieldRight)), f.Field(loop, analyzer.FieldLeft)
	vars := f.ChildList(target)
	if f.Kind(loop) != analyzer.KindForStatement || m.CallName(iter) != "enumerate" || len(vars) != 2 || f.Kind(vars[0]) != analyzer.KindIdentifier {
		return false
	}
	i := f.Text(vars[0])
	for p := f.Parent(call); p != analyzer.NoNode && p != loop; p = f.Parent(p) {
		if f.Kind(p) != analyzer.KindIfStatement {
			continue
		}
		test := compact(f.Text(f.Unparen(f.Field(p, analyzer.FieldCondition))))
		if strings.HasPrefix(test, i+"==len(") && strings.HasSuffix(test, ")-1") ||
			strings.HasPrefix(test, i+"+1==len(") && strings.HasSuffix(test, ")") {
			return true
		}
	}
	return false
}

// trainedAgainAround reports whether a loop around loop switches model
// to training mode in its body before loop, on each of its iterations.
func trainedAgainAround(m *analyzer.Model, loop analyzer.NodeID, model string) bool {
	f := m.File
	outer := m.EnclosingLoop(loop)
	if outer == analyzer.NoNode {
		return false
	}
	body := f.Field(outer, analyzer.FieldBody)
	found := false
	f.Children(body, func(st analyzer.NodeID) bool {
		if f.N(st).Start >= f.N(loop).Start {
			return false
		}
		f.Walk(st, func(id analyzer.NodeID) {
			if _, train := m.ModeSwitch(id); train && f.Kind(id) == analyzer.KindCall && compact(f.Text(f.Unparen(m.Receiver(id)))) == model && len(m.Args(id)) == 0 {
				found = true
			}
		})
		return !found
	})
	return found
}

// argValues returns the values a call passes, positional and keyword.
func argValues(f *analyzer.File, call analyzer.NodeID) []analyzer.NodeID {
	var out []analyzer.NodeID
	f.Children(f.Field(call, analyzer.FieldArguments), func(c analyzer.NodeID) bool {
		switch f.Kind(c) {
		case analyzer.KindKeywordArgument:
			out = append(out, f.Unparen(f.Field(c, analyzer.FieldValue)))
		case analyzer.KindComment:
		default:
			if f.N(c).Kind != analyzer.KindToken {
				out = append(out, f.Unparen(c))
			}
		}
		return true
	})
	return out
}

// leavesAfter returns the statement that leaves loop after n's on
// every path from it: a break (of loop, or of the loop within it that
// holds n), a return or raise, or a call that ends the process
// (`exit()`, `sys.exit()`), later in n's block or in a block around it
// within loop. NoNode when there is none, or a continue comes first. The
// switch to evaluation it follows starts no training step; the sum it
// follows adds nothing to a later iteration.
func leavesAfter(m *analyzer.Model, n, loop analyzer.NodeID) analyzer.NodeID {
	f := m.File
	body := f.Field(loop, analyzer.FieldBody)
	for child, p := statementOf(f, n), f.Parent(statementOf(f, n)); p != analyzer.NoNode; child, p = p, f.Parent(p) {
		if f.Kind(p) == analyzer.KindBlock {
			after := false
			for _, s := range f.ChildList(p) {
				switch {
				case s == child:
					after = true
				case !after:
				case f.Kind(s) == analyzer.KindContinueStatement:
					return analyzer.NoNode
				case f.Kind(s) == analyzer.KindBreakStatement,
					f.Kind(s) == analyzer.KindReturnStatement, f.Kind(s) == analyzer.KindRaiseStatement, exits(m, s):
					return s
				}
			}
		}
		if p == body || p == loop {
			return analyzer.NoNode
		}
	}
	return analyzer.NoNode
}

// exits reports whether statement s is a call that ends the process.
func exits(m *analyzer.Model, s analyzer.NodeID) bool {
	f := m.File
	c := f.Unparen(f.FirstChild(s))
	return f.Kind(s) == analyzer.KindExpressionStatement && f.Kind(c) == analyzer.KindCall && exitCall(m, c)
}

// exitCall reports whether call ends the process (`sys.exit()`, `exit()`).
func exitCall(m *analyzer.Model, c analyzer.NodeID) bool {
	f := m.File
	switch fn := f.Unparen(f.Field(c, analyzer.FieldFunction)); m.CallName(c) {
	case "sys.exit", "os._exit":
		return true
	case "", "exit", "quit":
		// The site module's `exit()` and `quit()`, where nothing of the
		// file binds the name.
		return f.Kind(fn) == analyzer.KindIdentifier && (f.TextIs(fn, "exit") || f.TextIs(fn, "quit")) && m.Resolve(fn) == nil
	}
	return false
}

// insertAfterFix inserts code on a line of its own after the statement
// that holds id, at that statement's indentation; nil when the statement
// shares a line with another or is not in a block.
func insertAfterFix(f *analyzer.File, id analyzer.NodeID, code, message string) *analyzer.Fix {
	stmt := statementOf(f, id)
	if k := f.Kind(f.Parent(stmt)); k != analyzer.KindBlock && k != analyzer.KindModule {
		return nil
	}
	start, end := f.N(stmt).Start, f.N(stmt).End
	lineStart := start
	for lineStart > 0 && f.Src[lineStart-1] != '\n' {
		lineStart--
	}
	indent := string(f.Src[lineStart:start])
	if strings.TrimLeft(indent, " \t") != "" {
		return nil
	}
	lineEnd := end
	for lineEnd < uint32(len(f.Src)) && f.Src[lineEnd] != '\n' {
		lineEnd++
	}
	if rest := strings.TrimSpace(string(f.Src[end:lineEnd])); rest != "" && !strings.HasPrefix(rest, "#") {
		return nil
	}
	if lineEnd == uint32(len(f.Src)) {
		return nil
	}
	return &analyzer.Fix{
		Message:       message,
		Applicability: analyzer.Unsafe,
		Edits:         []analyzer.Edit{analyzer.Insert(lineEnd+1, indent+code+"\n")},
	}
}

// insertFirstFix inserts code on a line of its own before the first
// statement of a loop's body.
func insertFirstFix(f *analyzer.File, loop analyzer.NodeID, code, message string) *analyzer.Fix {
	body := f.Field(loop, analyzer.FieldBody)
	if f.Kind(body) != analyzer.KindBlock {
		return nil
	}
	for _, s := range f.ChildList(body) {
		if f.Kind(s) == analyzer.KindComment {
			continue
		}
		start := f.N(s).Start
		lineStart := f.LineStart(start)
		indent := string(f.Src[lineStart:start])
		if strings.TrimLeft(indent, " \t") != "" {
			return nil // the body starts on the loop's line
		}
		return &analyzer.Fix{
			Message:       message,
			Applicability: analyzer.Unsafe,
			Edits:         []analyzer.Edit{analyzer.Insert(lineStart, indent+code+"\n")},
		}
	}
	return nil
}
