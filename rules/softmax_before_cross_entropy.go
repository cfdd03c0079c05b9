package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// SoftmaxBeforeCrossEntropy is TL504.
var SoftmaxBeforeCrossEntropy = &analyzer.Rule{
	Code:      "TL504",
	Name:      "softmax-before-cross-entropy",
	Summary:   "Probabilities fed to a loss that expects logits: softmax before cross_entropy, sigmoid before BCEWithLogitsLoss",
	Severity:  analyzer.SeverityError,
	Precision: "high",
	Tags:      []string{"correctness"},
	Kinds:     []analyzer.Kind{analyzer.KindCall},
	Check:     checkSoftmaxBeforeCrossEntropy,
	Doc: `## What it does
Checks for a loss that applies its own output layer and is handed the
output of one:

- ` + "`F.cross_entropy`" + ` or ` + "`nn.CrossEntropyLoss`" + ` given the output of a ` + "`softmax`" + `
  (or of a ` + "`log_softmax`" + `, which is redundant there);
- ` + "`F.binary_cross_entropy_with_logits`" + ` or ` + "`nn.BCEWithLogitsLoss`" + ` given the
  output of a ` + "`sigmoid`" + `;
- ` + "`F.nll_loss`" + ` or ` + "`nn.NLLLoss`" + ` given the output of a ` + "`softmax`" + `, where it
  expects log-probabilities.

The value is followed through names assigned in the function, reshapes
and casts (` + "`.view`" + `, ` + "`.float()`" + `), functions of this file or another
file of the project that return it, ` + "`nn.Softmax`" + ` modules (alone or as
the last layer of an ` + "`nn.Sequential`" + `, moved or cast with ` + "`.to(device)`" + `,
` + "`.cuda()`" + ` or the like), and a model whose ` + "`forward`" + ` returns it, wherever
its class is defined, including a model calling itself (` + "`self(x)`" + `,
` + "`self.__call__(x)`" + `). It is also followed into one element of a tuple
that a function of this file or a model's ` + "`forward`" + ` returns
(` + "`logits, probs = self.policy(s)`" + `, ` + "`out[1]`" + `), and to the ` + "`.probs`" + ` of a
distribution built from logits: ` + "`Categorical(logits=z).probs`" + ` is a softmax,
` + "`Bernoulli(logits=z).probs`" + ` a sigmoid.

A model or a loss module handed in as a parameter
(` + "`def fit(model, criterion)`" + `, ` + "`self.criterion = criterion`" + ` in ` + "`__init__`" + `
or a setter) is known by what every call of its function, or of its
class, in the same file passes for it, or by the parameter's default; a
loss parameter also by its annotation (` + "`criterion: nn.CrossEntropyLoss`" + `).

## Why is this bad?
` + "`cross_entropy`" + ` computes ` + "`log_softmax`" + ` of its input itself. Given
probabilities, it computes the softmax of a softmax: the outputs squashed
into [0, 1] differ by at most 1, so the predicted distribution can never
be confident, the loss cannot fall near zero, and the gradients shrink
by up to the number of classes. Training slows or stalls, with no error
raised. The same holds for a sigmoid before a ` + "`*_with_logits`" + ` loss.
` + "`nll_loss`" + ` given probabilities instead of log-probabilities computes the
negative probability of the target, not its log: its gradient vanishes on
the samples whose target the model gives a probability near zero, the
ones it gets most wrong, so it stops learning from them. Under ` + "`no_grad`" + `
(a validation loss) the loss is only measured: the figure reported is not
the model's cross-entropy, and the finding says that alone.
A ` + "`log_softmax`" + ` before ` + "`cross_entropy`" + ` changes nothing (it is idempotent),
but runs twice and keeps a second activation for the backward, unless it
runs over dim 0, the batch (` + "`F.log_softmax(x, dim=0)`" + `): the loss then mixes
the samples of each batch, and the message says so.

Measured: on an NVIDIA H200 with PyTorch 2.11.0, 5 seeds each ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL504.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl504_softmax.py)):
a small CNN trained on a synthetic ten-class image task with a fifth of
its training labels wrong started slower from probabilities: after the
first epoch it reached 68.3 % held-out accuracy against 91.7 % from
logits under SGD, and 75.6 % against 92.4 % under Adam; its training
loss ended at 1.66 (0.96 from logits). It did not stall, and after 15
epochs it was the better model: 94.7 % (94.5 to 94.8 over the seeds)
against 91.3 % (83.2 to 92.8) under SGD, 94.4 % (93.9 to 94.8) against
89.8 % (79.4 to 92.6) under Adam; a second run measured 94.7 % against
90.6 % and 94.4 % against 88.9 %. Trained from logits, the model fitted
the wrong labels and lost accuracy after its best epoch (94.1 % under
SGD); the loss computed from probabilities is bounded, and the wrong
labels pulled on it less. Where labels are noisy, then, the harm
measured is the slow start and a loss whose value no longer measures
the model's cross-entropy, not a worse model; clean labels were not
measured.

## Example
` + "```python" + `
class Classifier(nn.Module):
    def forward(self, x):
        return F.softmax(self.fc(x), dim=1)

loss = F.cross_entropy(model(x), y)
` + "```" + `

## Use instead
` + "```python" + `
class Classifier(nn.Module):
    def forward(self, x):
        return self.fc(x)  # logits

loss = F.cross_entropy(model(x), y)
probs = F.softmax(model(x), dim=1)  # where probabilities are needed
` + "```" + `
Or keep ` + "`log_softmax`" + ` in the model and use ` + "`F.nll_loss`" + `, which is not
reported.

## Known problems
A loss object is recognised where it is constructed in the same function,
assigned once to an attribute of ` + "`self`" + `, or handed in as a parameter
whose values this file shows; one built by a factory function is not
followed. A parameter is not known by the calls of another file, nor
where the calls of this file disagree, pass it unpacked (` + "`fit(*args)`" + `)
or hand the function on as a callback. A tuple returned by a function
of another file is not followed into its elements. A softmax applied on
some paths only (` + "`if softmax: x = self.softmax(x)`" + `
before ` + "`return x`" + `) is not taken as the model's output: which path a call
takes is not followed.

## References
- [torch.nn.CrossEntropyLoss](https://pytorch.org/docs/stable/generated/torch.nn.CrossEntropyLoss.html)
- [torch.nn.BCEWithLogitsLoss](https://pytorch.org/docs/stable/generated/torch.nn.BCEWithLogitsLoss.html)
- [torch.nn.NLLLoss](https://pytorch.org/docs/stable/generated/torch.nn.NLLLoss.html)
`,
}

// logitLoss is what a loss expects of its input and which activation it
// must not be given.
type logitLoss struct {
	name string
	bad  map[analyzer.Activation]bool
}

var (
	crossEntropy = logitLoss{"cross_entropy", map[analyzer.Activation]bool{analyzer.Softmax: true, analyzer.LogSoftmax: true}}
	bceLogits    = logitLoss{"binary_cross_entropy_with_logits", map[analyzer.Activation]bool{analyzer.Sigmoid: true}}
	nllLoss      = logitLoss{"nll_loss", map[analyzer.Activation]bool{analyzer.Softmax: true}}
)

var logitLossFuncs = map[string]logitLoss{
	"torch.nn.functional.cross_entropy":                    crossEntropy,
	"torch.nn.functional.binary_cross_entropy_with_logits": bceLogits,
	"torch.binary_cross_entropy_with_logits":               bceLogits,
	"torch.nn.functional.nll_loss":                         nllLoss,
}

var logitLossModules = map[string]logitLoss{
	"torch.nn.CrossEntropyLoss":  crossEntropy,
	"torch.nn.BCEWithLogitsLoss": bceLogits,
	"torch.nn.NLLLoss":           nllLoss,
}

func checkSoftmaxBeforeCrossEntropy(p *analyzer.Pass, call analyzer.NodeID) {
	m, f := p.Model, p.File
	loss, ok := lossOf(m, call)
	if !ok {
		return
	}
	input := m.Keyword(call, "input")
	if args := m.Args(call); len(args) > 0 {
		input = args[0]
	}
	if input == analyzer.NoNode {
		return
	}
	a, at := m.ActivationOf(input)
	if !loss.bad[a] {
		return
	}
	where := ""
	if at != nil && at.Path != "" {
		where = fmt.Sprintf(" (`%s`, %s:%d)", at.Text, at.Path, at.Line)
	} else if at != nil && at.Line != f.Position(f.N(input).Start).Line {
		where = fmt.Sprintf(" (`%s`, line %d)", at.Text, at.Line)
	}
	in := code(m, input, 30, "the loss's input")
	// Under no_grad the loss is only measured (a validation loss): what
	// it costs there is a wrong figure, not slower training.
	measured := m.GradModeAt(call) == analyzer.GradDisabled
	var msg string
	switch {
	case loss.name == nllLoss.name && measured:
		msg = fmt.Sprintf("%s is the output of a softmax%s, but `nll_loss` expects log-probabilities: "+
			"it computes the negative probability of the target, not its log, so the loss measured here is not the "+
			"model's; use `log_softmax`, or pass the logits to `cross_entropy`", in, where)
	case loss.name == nllLoss.name:
		msg = fmt.Sprintf("%s is the output of a softmax%s, but `nll_loss` expects log-probabilities: "+
			"it computes the negative probability of the target, not its log, whose gradient vanishes on the samples "+
			"the model gets most wrong; use `log_softmax`, "+
			"or pass the logits to `cross_entropy`", in, where)
	case a == analyzer.LogSoftmax && at != nil && overBatch(at.Text):
		msg = fmt.Sprintf("%s is the output of a log_softmax over dim 0%s, the batch, and `cross_entropy` applies "+
			"its own over the classes: the loss mixes the samples of each batch; pass the logits", in, where)
	case a == analyzer.LogSoftmax:
		msg = fmt.Sprintf("%s is the output of a log_softmax%s, which `cross_entropy` applies again: "+
			"the loss is the same, but computed twice; pass the logits, or use `nll_loss` on log-probabilities", in, where)
	case measured:
		msg = fmt.Sprintf("%s is the output of a %s%s, but `%s` applies one itself: it computes the %s of "+
			"probabilities, so the loss measured here can never approach zero and is not the model's cross-entropy; "+
			"pass the logits", in, a, where, loss.name, a)
	default:
		msg = fmt.Sprintf("%s is the output of a %s%s, but `%s` applies one itself: it computes the %s of "+
			"probabilities, so the loss can never approach zero, no longer measures the model's cross-entropy, and its "+
			"gradients shrink, which slows training; pass the logits", in, a, where, loss.name, a)
	}
	p.Report(input, msg)
}

// overBatch reports whether the text of a softmax call takes it over
// dim 0 (`F.log_softmax(x, dim=0)`, `x.log_softmax(0)`): the batch, for
// the logits a classification loss is given.
func overBatch(call string) bool {
	c := strings.Join(strings.Fields(call), "")
	return strings.Contains(c, "dim=0)") || strings.Contains(c, "dim=0,") ||
		strings.HasSuffix(c, ",0)") || strings.HasSuffix(c, "softmax(0)")
}

// lossOf reports whether a call computes a loss that expects logits: a
// functional one, or a loss module constructed in place, bound to a name
// once, assigned once to an attribute of self, or handed in as a
// parameter (see lossClass).
func lossOf(m *analyzer.Model, call analyzer.NodeID) (logitLoss, bool) {
	f := m.File
	if l, ok := logitLossFuncs[m.CallName(call)]; ok {
		return l, true
	}
	l, ok := logitLossModules[lossClass(m, f.Unparen(f.Field(call, analyzer.FieldFunction)), 0)]
	return l, ok
}

// lossClass is constructor for a loss module, which also follows a
// parameter: one annotated with a loss class, or given an instance of
// one class by every call of its function in the file (`self.criterion
// = criterion` in `__init__`, with `Trainer(net, nn.CrossEntropyLoss())`).
func lossClass(m *analyzer.Model, callee analyzer.NodeID, depth int) string {
	f := m.File
	v := f.Unparen(callee)
	if k := f.Kind(v); k == analyzer.KindIdentifier || k == analyzer.KindAttribute {
		if b := m.BoundValue(v); b != analyzer.NoNode {
			v = f.Unparen(b)
		}
	}
	if f.Kind(v) != analyzer.KindIdentifier || depth >= 4 {
		return constructor(m, v)
	}
	if t := m.ParamAnnotation(v); t != analyzer.NoNode {
		if q := m.QualifiedName(t); logitLossModules[q].name != "" {
			return q
		}
	}
	vals, ok := m.ParamValues(v)
	if !ok {
		return ""
	}
	class := ""
	for _, a := range vals {
		c := lossClass(m, a, depth+1)
		if c == "" || class != "" && c != class {
			return ""
		}
		class = c
	}
	return class
}

// constructor returns the qualified name of the class that made a
// callee: `nn.CrossEntropyLoss` for `nn.CrossEntropyLoss()(x, y)`, or for
// a name or attribute of self bound once to `nn.CrossEntropyLoss()`; ""
// when not known.
func constructor(m *analyzer.Model, callee analyzer.NodeID) string {
	f := m.File
	v := callee
	if k := f.Kind(callee); k == analyzer.KindIdentifier || k == analyzer.KindAttribute {
		v = m.BoundValue(callee)
	}
	if v == analyzer.NoNode || f.Kind(v) != analyzer.KindCall {
		return ""
	}
	return m.CallName(v)
}
