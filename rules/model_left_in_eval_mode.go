package rules

import (
	"fmt"
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
	Tags:      []string{"correctness"},
	Fixable:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkModelLeftInEval,
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
- a model the loop does not train (an EMA copy, a teacher, a target
  network): the module switched must be one the loop runs forward or
  hands to the function that back-propagates;
- a switch followed by ` + "`break`" + ` or ` + "`return`" + `, after which no step runs.

## Fix safety
The fix inserts ` + "`model.train()`" + ` after the statement that switches to
evaluation mode. It is unsafe: a model that holds parts meant to stay in
evaluation mode (a frozen backbone with batch norm) needs those switched
back to ` + "`eval()`" + ` after it.

## Known problems
Which module an evaluation function switches is matched by the name it is
passed under or by the attribute of ` + "`self`" + ` it uses, so a model reached
through a container (` + "`models[\"student\"]`" + `) is not followed. An evaluation
function that both switches to ` + "`eval()`" + ` and calls ` + "`train()`" + ` anywhere is
taken to restore the mode.

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
	if eval, _ := m.ModeSwitch(call); eval {
		target = compact(f.Text(f.Unparen(m.Receiver(call))))
	} else {
		h := m.Steps(call)
		if h == nil || h.Eval == nil || h.Train != nil {
			return
		}
		target = h.Eval.Text[:max(0, strings.LastIndexByte(h.Eval.Text, '.'))]
		how = fmt.Sprintf(" (`%s`, %s:%d)", h.Eval.Text, h.Eval.Path, h.Eval.Line)
	}
	loop, t := trainingLoop(m, call)
	if loop == analyzer.NoNode || t.switchesToTrain || leavesAfter(f, call, loop) {
		return
	}
	model := trainedTarget(m, call, target, t.models)
	if model == "" {
		return
	}
	msg := fmt.Sprintf("%s switches `%s` to evaluation mode%s and nothing in this training loop switches it back, "+
		"so every later step trains in evaluation mode: dropout stops dropping and batch norm uses, and stops updating, its running statistics; "+
		"call `%s.train()` after it, or at the top of each iteration", code(m, call, 40, "this call"), model, how, model)
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

// compact drops the spaces of an expression's text, to compare it with
// another's.
func compact(s string) string { return strings.Join(strings.Fields(s), "") }

// loopTraining is what an iteration of a loop does to train a model.
type loopTraining struct {
	trains          bool            // it back-propagates or steps an optimizer
	firstStep       uint32          // where it first does
	switchesToTrain bool            // it calls .train(), itself or through a function
	models          map[string]bool // the modules it runs forward or hands to functions
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
		t := loopTraining{models: map[string]bool{}, firstStep: f.N(loop).End}
		step := func(id analyzer.NodeID) {
			t.trains = true
			t.firstStep = min(t.firstStep, f.N(id).Start)
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
			if m.IsForwardCall(id) {
				fn := f.Unparen(f.Field(id, analyzer.FieldFunction))
				if f.Kind(fn) == analyzer.KindAttribute && f.TextIs(f.Field(fn, analyzer.FieldAttribute), "forward") {
					fn = f.Field(fn, analyzer.FieldObject)
				}
				t.models[compact(f.Text(fn))] = true
			}
			h := m.Steps(id)
			if h != nil && h.Train != nil {
				t.switchesToTrain = true
			}
			// The modules handed to a function that back-propagates, or
			// that runs them forward for the step (`compute_loss(model,
			// batch)`), are trained; those handed to an evaluation are not.
			backprops := h != nil && h.Backward != nil
			forwards := !backprops && (h == nil || h.Eval == nil)
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
					t.models[compact(f.Text(a))] = true
				}
			}
		})
		return t
	}).(loopTraining)
}

// trainedTarget returns the name of the module a switch to evaluation
// mode reaches that the loop trains: the switch's own receiver, or for
// an evaluation function, the attribute of self it switches or an
// argument it is passed. "" when none is.
func trainedTarget(m *analyzer.Model, call analyzer.NodeID, target string, models map[string]bool) string {
	f := m.File
	target = strings.TrimSuffix(target, ".module")
	if _, eval := m.ModeSwitch(call); eval {
		if models[target] {
			return target
		}
		return ""
	}
	// An evaluation function switches an attribute of self when it is a
	// method called through self, a global when it takes no arguments,
	// and otherwise what it is passed.
	args := argValues(f, call)
	method := strings.HasPrefix(compact(f.Text(f.Field(call, analyzer.FieldFunction))), "self.")
	if models[target] && (method && strings.HasPrefix(target, "self.") || len(args) == 0 && !strings.Contains(target, ".")) {
		return target
	}
	for _, a := range args {
		if t := compact(f.Text(a)); models[t] {
			return t
		}
	}
	return ""
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

// leavesAfter reports whether the statements after call's, in its block
// within loop, leave the loop: a break or return, so that no training
// step follows the switch.
func leavesAfter(f *analyzer.File, call, loop analyzer.NodeID) bool {
	stmt := statementOf(f, call)
	after := false
	for _, s := range f.ChildList(f.Parent(stmt)) {
		switch {
		case s == stmt:
			after = true
		case !after:
		case f.Kind(s) == analyzer.KindBreakStatement, f.Kind(s) == analyzer.KindReturnStatement,
			f.Kind(s) == analyzer.KindRaiseStatement:
			return f.Contains(loop, s)
		}
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
