package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// EvalWithoutNoGrad is TL201.
var EvalWithoutNoGrad = &analyzer.Rule{
	Code:      "TL201",
	Name:      "eval-without-no-grad",
	Summary:   "Evaluation or inference code runs a model forward pass with grad enabled",
	Severity:  analyzer.SeverityWarning,
	Precision: "high",
	// Read on code none of us wrote, its findings of high or medium
	// confidence were right (or right but minor) 94.7% of the time, its
	// low ones 87%, mostly minor: shown from medium, the default.
	Tags:    []string{"memory", "autograd", "performance"},
	Fixable: true,
	Kinds:   []analyzer.Kind{analyzer.KindCall},
	Check:   checkEvalWithoutNoGrad,
	Doc: `## What it does
Checks for evaluation and inference code that runs a model forward pass
while grad is enabled and never back-propagates. Evaluation is known by
what the code does:
- an evaluation region of a model, from its switch to evaluation mode
  (` + "`model.eval()`" + `, ` + "`model.train(False)`" + `, ` + "`model = Net(...).eval()`" + `, a loop or
  comprehension switching each model of a literal list or tuple,
  ` + "`for net in (G, D): net.eval()`" + `, a call of a
  function that returns a model it switched to evaluation mode) to its
  next switch back to training mode (` + "`model.train()`" + `, or a call of a
  function that trains), holding the forward passes of that model (its
  submodules, its methods, the helpers it is passed to);
- a function named for evaluation or inference (` + "`evaluate`" + `, ` + "`validate`" + `,
  ` + "`test`" + `, ` + "`predict`" + `, ` + "`infer`" + `, ` + "`generate`" + `, ` + "`eval_step`" + `, ...): other words in
  the name cancel nothing; where its class's constructor switches the
  model it runs to evaluation mode (` + "`self.net.eval()`" + ` in ` + "`__init__`" + `), or where
  the module switches the model it binds and the function runs to
  evaluation mode and never back (` + "`encoder.eval()`" + ` after loading it),
  that switch is the finding's evidence, not the name alone;
- a model that its class switches to evaluation mode and never back;
- a forward pass whose outputs only reach the host (` + "`.item()`" + `, ` + "`.numpy()`" + `,
  ` + "`.tolist()`" + `, ` + "`argmax`" + ` or a comparison (indices or a mask, which carry no graph,
  also where they stay on the GPU: the finding then says so), ` + "`torch.multinomial`" + `, ` + "`print`" + `, plotting, saving, or a loss
  read there at once: ` + "`crit(out, y).item()`" + `, a test loss logged each epoch)
  and never a loss that is back-propagated, summed or handed on, a
  backward or code the file cannot see, whatever its function is called
  (` + "`select_action`" + `, ` + "`detect`" + `, ` + "`sample`" + `): followed through the names a
  tuple is unpacked into (` + "`_, adv = q_net(s)`" + `, ` + "`p, cls = probs.topk(1)`" + `),
  torch functions that reduce or join tensors (` + "`torch.norm`" + `, ` + "`torch.cat`" + `,
  ` + "`torch.mm`" + `), the distribution a policy returns (` + "`dist.mean`" + `,
  ` + "`dist.sample()`" + `) or one made of its outputs (` + "`Normal(mu, std).sample()`" + `,
  ` + "`torch.normal(mu, std)`" + `), a name summed in place (` + "`act += noise`" + `) and a tensor,
  array or list the function makes and stores them into (` + "`actions[i] = act`" + `);
  a helper, of this file or another, whose forward passes only reach what
  it returns (a loss of them too, ` + "`return crit(self(x), y)`" + `, in a module's own
  method) or the host is judged by where the call's result goes; a function of the project,
  in any file, that returns nothing a graph can reach (the indices of the
  best scores, a draw) and keeps nothing it is given ends the way there;
- in a function that neither back-propagates in its own body nor returns
  a graph, or in module-level code (a script's rollout, a GAN's training
  loop whose discriminator loss is printed but never back-propagated;
  not a script in a tests folder, which runs the model to see that it
  runs), a forward pass whose outputs
  reach no backward: every way they go ends their graph, on the host, in a
  detach or a draw (` + "`probs.multinomial(1)`" + `), or in a function that
  detaches what it is given first (` + "`advantages = advantages.detach()`" + `, a
  rollout's values stored in lists for such an update). Not a pass
  detached at once (` + "`G(z).detach()`" + `), a running total (TL101's), a
  read with ` + "`.numpy()`" + ` and no detach (which a graph would make raise),
  or outputs handed to a module of no known class, whose forward may
  differentiate them. Where the loop appends the outputs to a list bound
  before it (` + "`values.append(value)`" + `), the finding says that the list keeps
  every pass's graph alive until it is dropped.

Each region is judged by the back-propagation inside it, not anywhere
in the function, and gets its own finding, at its first forward pass;
its later passes with grad enabled (up to three) are listed beside it as
related locations (notes in the full text format), since the ` + "`no_grad`" + `
that fixes the first covers them too.
A region that back-propagates another graph (a model trained beside a
frozen encoder, a student beside its teacher) is still reported at a
forward pass of the model it switched whose output is kept in a name or
a list and detached or read on the host before any backward
(` + "`codes.append(encoder(r))`" + `, then ` + "`torch.stack(codes).detach()`" + `); one
detached where it is made (` + "`gen(z).detach()`" + `) frees its graph at once.
A function that trains or evaluates by a flag, with every ` + "`backward()`" + `
under an ` + "`if`" + ` on one of its parameters (` + "`if train:`" + `, ` + "`if not cross_valid:`" + `,
` + "`if mode == \"train\":`" + `), runs no backward where a call passes a literal that
turns the flag off (` + "`run_epoch(model, val_loader, train=False)`" + `,
` + "`run_epoch(val_loader, mode=\"val\")`" + `): in an evaluation region
that call is reported, with the forward passes of the branches the call's
flags select as related locations (not the training branch's). A
function of another file is not judged so.
A backward under a test whose other arm holds the switch to evaluation
(` + "`if phase == \"train\": model.train()`" + ` / ` + "`else: model.eval()`" + `, then
` + "`if phase == \"train\": loss.backward()`" + ` in one iteration of
` + "`for phase in [\"train\", \"val\"]`" + `, or the same on a parameter that the function never
assigns) does not run in the region, where one loop holds both the pass
and that backward (a later loop of a script or notebook is no phase of
a training loop before it): its forward pass is reported, with
` + "`torch.set_grad_enabled(phase == \"train\")`" + ` for the fix. A switch whose mode
that test decides (` + "`model.train(phase == \"train\")`" + `, ` + "`model.train(training)`" + `)
is a switch to evaluation mode where the test does not hold, when a
backward after it runs only under ` + "`if`" + ` on the same test. A ` + "`with`" + ` on a context
chosen by a test (` + "`torch.enable_grad() if training else torch.no_grad()`" + `,
also through a name bound to it) sets no known mode unless both arms set
the same one: its body is not reported. A
region opened in a loop that switches the model back to training earlier
in its body ends with the body: the next iteration trains again.
Module-level scripts and ` + "`if __name__ == \"__main__\":`" + ` blocks are code like
any other.

## Why is this bad?
` + "`model.eval()`" + ` only switches layers such as dropout and batch norm to their
inference behaviour; it does not turn autograd off. With grad enabled,
every forward pass records a graph and keeps the activations that a
backward pass would need for as long as its outputs are alive. Evaluation
then needs much more memory than it should (often the difference between
fitting a batch and ` + "`CUDA out of memory`" + `), and any output kept across
batches (a list of predictions, a summed loss) keeps every batch's
activations on the GPU. It is hardly slower: recording the graph costs
little next to the kernels.

A pass on one sample that the host hands in per call, made a tensor and
a batch of one on the spot (an agent's ` + "`q(torch.FloatTensor(state).unsqueeze(0))`" + `),
whose outputs only reach the host, costs one sample's graph, freed with
its outputs: where nothing is seen to run it again and again, its
finding says so and is of low confidence. Where a loop is (a loop
around it, or a call of its function, or of a function that calls it,
on every iteration of a loop anywhere in the project: an agent's
` + "`get_action(state)`" + ` on every environment step), it is the pattern of every
step, and the finding names that call; its confidence is what the rest
of the evidence makes it. A batch, or an
image through a transform, is not taken as small; a NumPy observation
reshaped to a batch of one (` + "`obs.reshape((1,) + obs.shape)`" + `) is, and so are
` + "`np.array([state])`" + `, ` + "`obs[np.newaxis, :]`" + ` and a converter handed a list of one observation
(` + "`preprocessor([obs])`" + `). So is what the caller hands in (a parameter, or a tensor made
of one on the spot) where the output is read as one value: ` + "`.item()`" + `,
` + "`.argmax()`" + ` over all of it, a draw from the distribution it parametrizes
(` + "`q(torch.FloatTensor(state)).argmax()`" + `, ` + "`Categorical(F.softmax(logits, dim=0)).sample().item()`" + `).
So is a tensor made on the spot of a parameter named for one
observation (` + "`torch.FloatTensor(state)`" + `, of ` + "`state`" + `, ` + "`obs`" + ` or ` + "`observation`" + `)
whose outputs only reach the host: the name is the evidence, and the
finding says so. The same holds through a helper of the file: one whose
passes' outputs it only returns, read as one value
(` + "`get_policy(obs).sample().item()`" + `), or one each of whose forward passes runs
on a batch of one it makes (an agent's ` + "`get_action(state)`" + `).
A pass that a
loop of steps runs every few iterations only (` + "`if step % 100 == 0:`" + `, a
generator's periodic sample) costs one graph every few steps: its finding
says so and is one level lower. A pass outside any loop of module-level
code, or of a function that module-level code calls once (` + "`main()`" + ` under
` + "`if __name__ == \"__main__\":`" + `), runs once per run of the script and keeps one
graph: its finding says so and is of low confidence. So does one in a loop
over a few values the code writes out (a literal list or tuple; a range of
at most five literal values, or enumerate or zip of such values, where the
body reads the loop's target and trains nothing: three samples plotted
for a figure, not an epoch loop), with no loop over data after it running
the same model.
In a notebook, the value of a cell's last expression is displayed and
kept in IPython's output cache (` + "`Out[n]`" + `), one more each time the cell
runs, until ` + "`Out`" + ` is cleared or the kernel restarts: outputs shown so
(` + "`model(x_test)`" + ` or ` + "`preds`" + ` as a cell's last line, without the ` + "`;`" + ` that
hides it) reach the host, and their finding says that the cache keeps
their graph. In a notebook's module-level code, the first pass in a loop
of each cell whose outputs only reach the host gets a finding of its own:
the ` + "`no_grad`" + ` block that fixes one cell cannot span the next.

A module whose own forward ends the graph of everything it returns
(` + "`return self.model(**x).detach().squeeze()`" + `, a vocoder's) hands out no
graph, but each of its passes still records one and holds its activations
until the pass ends: its finding says so (the forward's class, of this
file or of the project), and nothing of the graph outlives the pass.

Measured: on an NVIDIA H200 with PyTorch 2.11.0, median of 5 repetitions ([plot](https://github.com/torchlint/torchlint/blob/main/docs/evidence/TL201.png), [program](https://github.com/torchlint/torchlint/blob/main/evidence/tl201_tl202_eval.py)):
a loop evaluating a randomly initialised ResNet-50 at a fixed batch with
grad enabled peaks at 10460 MiB above the weights, against 637.2 MiB
under ` + "`torch.no_grad()`" + ` or ` + "`torch.inference_mode()`" + ` (16.42 times as much);
a transformer of GPT-2 small's shape (124.4M parameters) peaks at 12470
MiB against 3189 MiB (3.91 times). The peak holds two batches' graphs: the
previous batch's output is still alive while the next forward pass runs.
A loop that drops each output at once (` + "`model(x).argmax(-1)`" + `) still peaks
at 5232 and 6233 MiB (8.211 and 1.955 times the peak under
` + "`no_grad`" + `): every pass holds its own graph's activations until it returns.
Latency does not change: 9.551 against 9.566 ms and 51.84 against 51.66 ms
per forward pass, and ` + "`inference_mode`" + ` measured the same as ` + "`no_grad`" + `
(9.546 and 51.64 ms).

## Example
` + "```python" + `
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return correct
` + "```" + `

## Use instead
` + "```python" + `
@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return correct
` + "```" + `
` + "`torch.inference_mode()`" + ` is stricter, and can be slightly faster, when the
outputs never re-enter autograd.

## Fix safety
When the finding is in a function named for evaluation, the fix decorates
that function with ` + "`@torch.no_grad()`" + ` (adding ` + "`import torch`" + ` when the name
is unbound). It is unsafe: a caller that back-propagates through the
function's results would stop getting gradients.

## Known problems
A function runs with grad disabled when its decorators say so (the
innermost switch wins; a decorator of the project's own counts when it
returns ` + "`torch.no_grad()(fn)`" + ` or a wrapper that calls ` + "`fn`" + ` under a switch,
wherever it is defined, whatever its name; so does a function of the
project whose every return is a switch, entered with ` + "`with`" + `), when it is
a method of a class whose constructor turns grad off for the process
on every call (` + "`torch.set_grad_enabled(False)`" + ` in ` + "`__init__`" + `; not a
static or class method, which runs with no instance built), or when
every call of it in the project, in any file (through a star import,
` + "`from utils import *`" + `, too), runs under ` + "`no_grad`" + ` (a
method nothing calls by its own name runs where the calls of its name on
objects of no known class do, ` + "`optimizer.step()`" + ` aside where the function
clears that optimizer's gradients, and calls on what a library's class
made (` + "`torch.optim.lr_scheduler.StepLR`" + `); where another class of the project has a
method of that name, the finding says it assumed that; a call in a file
that imports another deep-learning framework and nothing of torch
(chainer's ` + "`model.recognize(feat)`" + `) runs that framework's objects and sets
no mode; Lightning's
` + "`training_step`" + ` and training hooks run with grad enabled, whatever else
calls a method of their name; a function handed to a new process or
thread as what it runs, ` + "`mp.Process(target=evaluate, ...)`" + `, runs with
grad enabled, as every new thread starts, and so does one a command-line
library runs as the program from module-level code, ` + "`fire.Fire(infer)`" + `,
once; a hook of a torchnet ` + "`Engine`" + ` (` + "`engine.hooks['on_end_epoch'] = f`" + `)
runs in the grad mode of the file's calls of ` + "`engine.train(...)`" + ` and
` + "`engine.test(...)`" + `, which disable none); an
evaluation helper called only under ` + "`no_grad`" + ` is therefore not reported;
neither is one whose result the file back-propagates (a policy's
` + "`evaluate`" + ` that returns a sampled action's log-probability, a renderer's
nested ` + "`inference`" + ` whose output reaches a loss through an entry of the dict
its caller returns), nor a function that lets its caller pick the grad
mode by a parameter (` + "`if no_grad:`" + ` around a ` + "`torch.no_grad()`" + ` arm, grad on in
the other), for a pass whose outputs it may hand back; such a function's
calls that leave the parameter at its default, or pass a literal, that
takes the ` + "`no_grad`" + ` arm are not reported where they call it either, nor a model
whose parameters the file freezes (` + "`requires_grad_(False)`" + `; its caller, before
handing it over, in this file or another, in the branch that builds it where it
is None elsewhere; a helper of the file that freezes its parameter, for
what each call hands it; a function of the file that builds it and
freezes it before returning it, on the path the call's arguments take,
` + "`create_model(ema=True)`" + ` with the freeze under ` + "`if ema:`" + `) and does not give a new layer or thaw in part
before the pass (transfer learning's ` + "`model.fc = nn.Linear(512, 10)`" + ` after
the freeze is reported, unless the slot is filled again with a layer
without parameters, ` + "`model.fc = nn.Identity()`" + `), nor an instance of a module class, in any file of the
project, whose constructor freezes every parameter it holds when given
its default arguments (an FID network's ` + "`requires_grad=False`" + `) or the
arguments the call passes (` + "`VGG16(requires_grad=False)`" + `), whose ` + "`forward`" + `
returns what it computes under ` + "`no_grad`" + `, itself or through a method of its
own that it returns (` + "`return self.sample(mels)`" + `) (for every input, or for the mode
string the call passes: ` + "`model(data, mode='inference')`" + ` where the forward's
` + "`elif mode == 'inference':`" + ` arm computes under ` + "`no_grad`" + ` what it returns and
nothing before it runs a model in the caller's mode), or that holds no parameters,
itself and its bases (buffers registered by name, torch's losses, which keep
their weights as buffers, tensors it computes and
reads with a tensor's methods, none made to require grad, pooling layers picked
from a table, containers of such modules, instances of custom autograd
operations or of classes that compute nothing with torch, in its file or
another; a transform of torchaudio's or
torchvision's, or a subclass of one holding transforms; a layer whose
weight the constructor freezes and that has no bias; not a base whose
` + "`forward`" + ` is left to its subclasses), nor an instance of
a class that is no module (no base, or ` + "`object`" + `) whose ` + "`__call__`" + ` runs only
modules its constructor freezes, and what holds no model (a text encoder
that wraps a frozen model and its tokenizer); a function's parameter counts
as such an instance when every call of the function in its file passes
one (calls from other files are not seen). A custom autograd operation
(a subclass of ` + "`torch.autograd.Function`" + `, even called through ` + "`.forward`" + `)
holds no parameter; a parameter annotated ` + "`nn.Module`" + ` whose name says it is a
loss (` + "`loss_function: nn.Module`" + `) is a loss; what ` + "`torch.hub.load`" + ` returns
is judged by what the code does with it, as any value of unseen code (a
hub entry point may return a plain object, or a wrapper that runs its
model under its own ` + "`no_grad`" + `); a callable whose back-propagated output
came from an input made to require grad (` + "`z.requires_grad_()`" + `, an
activation function plotted with its slope) is not thereby a module. A forward pass on a branch that
a flag of its function leaves untaken by default (the ` + "`else`" + ` of ` + "`if no_grad:`" + `
for ` + "`no_grad=True`" + `, a collector that runs its policy under its own
` + "`no_grad`" + ` unless asked to keep the graph) is not reported, nor counted for
its callers, unless a call in its file sets the flag otherwise; a call
from another file that does is not seen. A forward pass
that reaches the host through a function of another file is taken as
inference by its outputs only where that function, as the project shows
it, calls nothing it cannot see whole, keeps nothing it is given and
returns nothing a graph can reach.
An evaluation region that calls a project helper running a forward pass
in its caller's grad mode is reported at that call, with the helper's
forward pass as a related location, unless the helper of the same file
is reported in its own body. A helper nested in the evaluating function
and called only in its evaluation region is reported at its forward
pass, where ` + "`@torch.no_grad()`" + ` goes (the fix decorates it), with the call as
a related location. So is a function, of any file, every call of
which in the project hands the same parameter a model that its caller
switched to evaluation mode before the call (` + "`model.eval()`" + ` then
` + "`hit_rate(model, loader)`" + `), with grad enabled: it is evaluation code whatever
its name, that parameter is a module (only a module has ` + "`.eval()`" + `), and
the calls are related locations. A function that back-propagates is not
(test-time training), nor one that any other call, a use as a value, or
a call of its method name on an object of no known class may reach. A
method is followed when it is called
through a name bound to an instance of a class of the project
(` + "`net = GPT(); net.generate(x)`" + `, also through ` + "`m = net.to(device)`" + `) or annotated
with one (` + "`net: GPT`" + `), or through an attribute of ` + "`self`" + ` assigned in its class
(` + "`self.model = GPT().to(device)`" + `, or ` + "`None`" + ` first and the model later). A
method called on a model of no known class (` + "`model.predict(x)`" + `, model a
parameter, or ` + "`self.policy.act(obs)`" + `, the policy handed to the constructor) is
taken to be one of the project's methods of that name where
every one of them, at most four, is a method of a module class that runs a
forward pass; the finding says it assumed so. A method whose grad mode
only such calls of its name set (its own file never calls it) is judged
in theirs, and the finding says so; where some of them disable grad and
others do not (a script's ` + "`model.recognize(x)`" + ` under ` + "`no_grad`" + `, beside a
scorer's ` + "`self.dec.recognize(h)`" + ` during training, with two classes of the
project defining ` + "`recognize`" + `), which call reaches which class is not
seen: a second assumption, and the disabling call is a related location.
Where every call in other files that sets a function's mode runs in its
caller's mode, and nothing of the project sets the caller's own (a
detector's ` + "`forward_test`" + ` calling ` + "`self.head.inference_model(x)`" + `, run from
the module's ` + "`forward`" + `, which a framework's test loop calls, often under
` + "`no_grad`" + `), that mode is assumed too, as for the callers in its own file.
A function named for evaluation whose forward pass's outputs only reach the
host takes nothing on trust from its name: such a pass is reported whatever
the function is called. Where a function of another file runs its forward
passes with outputs that only reach the host in its body, and calls of the
project set its grad mode, the finding is in its body, where the fix goes,
and not again at each call, as for a helper of the same file.
In
a method, a helper's forward pass is reported only inside a region the
method opens itself (also a method named for evaluation, after its own
switch to evaluation mode), not for its name alone: the callers of methods are
often a script or a framework's loop under ` + "`no_grad`" + `, which the project does
not show. A model's own methods (an ` + "`nn.Module`" + `'s ` + "`generate`" + `) are judged as
evaluation only where they switch to evaluation mode themselves, or where
the outputs of their forward passes only reach the host (an ` + "`act`" + ` that
returns ` + "`q.argmax().item()`" + `, a ` + "`test`" + ` that fills a numpy array).

A model is recognised by what the code does with it (` + "`.eval()`" + `,
` + "`.parameters()`" + `, being wrapped in DDP, being back-propagated through, a
` + "`torch.load`" + ` result that is called, a class that derives from ` + "`nn.Module`" + `
in any file of the project, a parameter that every call of its function in
the project passes a module the caller's own code shows to be one (` + "`self`" + ` in a
module's method, a name bound to a module's construction or used as one; the
first such call is a related location), an element of a list the file fills with module
instances, as in ` + "`self.actors[i](obs)`" + `, and ` + "`self.__call__(x)`" + ` in a module
class) before its name; in a file that imports another deep learning
framework (Keras, JAX, Paddle, or TensorFlow for more than its summaries
and file I/O), its name alone does not make it one (` + "`tf_model(inputs, training=False)`" + ` beside the PyTorch model it is
compared with), nor, in any file, a name that starts with another framework's
(` + "`tf_model`" + `, ` + "`flax_model`" + `); a call in the branch of an if that tests a
framework setting for another framework (` + "`if self.framework == \"tf\":`" + `) is
that framework's. A layer without parameters
(` + "`nn.ReplicationPad2d`" + `, ` + "`nn.CosineSimilarity`" + `, also held in a name), a parameter that every
call of its function in the file passes an instance of a plain class of
the file (a network written in NumPy), a class taken from a table of classes (or, from
a table another module defines, bound to a name written as a class's:
` + "`Detector = detector_factory[task]`" + `), a function
taken from a table of functions, a parameter annotated as a ` + "`Callable`" + ` that
returns a plain value (` + "`Callable[[list[int]], str]`" + `) or defaulting to a
function of the file, a tensor
type, a call given only literals (` + "`make_noise(4, 8)`" + `) and a class held in a
variable and constructed (its result used as a module, also after the
moves that return the module, as in ` + "`net = Model(envs).to(device)`" + `, or
returned by a ` + "`get_model`" + `) are not forward passes; a call, with an input, of a
module-level function of the file that computes with module-level
tensors that require grad (made with ` + "`requires_grad=True`" + `, ` + "`.requires_grad_()`" + `
or ` + "`nn.Parameter`" + `, also by a function of the file) is one: a model written
over raw tensors. A module whose ` + "`forward`" + ` back-propagates
and steps an optimizer itself runs a training step. A dry run on a
constant input, or on a random input after ` + "`.eval()`" + ` (` + "`torch.randn`" + `, or a
fresh tensor filled by ` + "`.normal_()`" + `), checks that the model runs, counts its
operations or draws one sample from noise: where nothing else of its
region is reported, it is, at low confidence, as one graph; in a loop,
fresh noise samples a generator every few steps, and is reported as any
pass is, but for a loop over a literal range of at most 100 iterations
whose pass is read for its shape alone (` + "`for i in range(10): print(model(x).size())`" + `),
which repeats a dry run; so is a model fed its own
samples in a loop from a constant first token
(` + "`tok = torch.multinomial(model(tok).softmax(-1), 1)`" + `). Code after a
` + "`return`" + ` or ` + "`raise`" + ` of its block never runs and is not judged, nor does a
function replaced by a later definition of its name in the same block
with nothing between that could call it (an older version left above
the new one; calls in other functions' bodies run later, and reach the
new one). Code that needs gradients during evaluation (saliency maps,
adversarial examples, test-time training) is recognised by its
` + "`backward()`" + `, ` + "`torch.autograd.grad`" + ` or ` + "`requires_grad_()`" + ` calls, or a loss it hands
with its model to a function of another library (` + "`gradient_update_parameters(model, loss)`" + `,
a meta-learning library's inner step), its own or
those of the functions it calls, and is not reported; so is a call of a
module whose forward, in whatever file of the project, asks for gradients
itself (a meta-learner that adapts a copy of its weights to the support
set with ` + "`torch.autograd.grad`" + ` before it scores the query). So is a call of a
module of a class the file does not show that is handed the model itself
(` + "`method(x_s, x_q, model=model)`" + `, after ` + "`model.eval()`" + `): an algorithm that runs the
model in a mode of its own choosing, not one forward pass. A method named
` + "`backward`" + ` that a class of the file defines and that back-propagates nothing
itself (a normalizing flow's inverse pass, ` + "`flow.backward(z)`" + `) is no
back-propagation; called on an object whose class the file does not show,
it is taken for one. Test code is
recognised as pytest and unittest recognise it (a module that imports
pytest, a conftest.py, a ` + "`unittest.TestCase`" + `, a test_*.py module that
defines test functions it does not call itself with arguments: a script
named test_*.py whose main calls ` + "`test(loader, model)`" + ` is no pytest module), never by a file name
alone; in a function named
as a test, a model fed only random or constant tensors is a shape check.
Lightning's ` + "`validation_step`" + `, ` + "`test_step`" + ` and ` + "`predict_step`" + ` on a
` + "`LightningModule`" + `, and the hooks of the validation, test and predict loops (their
start, end, epoch and batch hooks, ` + "`on_test_start`" + ` too) of a ` + "`LightningModule`" + ` or a
Lightning ` + "`Callback`" + `, run under ` + "`no_grad`" + ` and are not reported. A method that
overrides one of a base class, in any file of the project, runs where the base class
calls it. A module class with no parameters and no submodules (an
augmentation written as a module, a positional encoding, a mel
spectrogram whose filter bank a host library such as librosa computes and
it keeps as a buffer, also one whose
bases of the same file hold none), a C function reached through ` + "`ctypes`" + `, and
a function that returns a distribution's ` + "`log_prob`" + ` or ` + "`entropy`" + ` (PPO's
` + "`evaluate(states, actions)`" + `, the terms of its loss) are not evaluation.
A switch back to training under an ` + "`if`" + ` does not end a region: the ` + "`if`" + ` may
not run.

A finding in a function that marks inputs ` + "`volatile=True`" + `, in a file that
uses neither ` + "`torch.no_grad`" + ` nor ` + "`.item()`" + `, says it assumed grad
enabled: that code was written for PyTorch 0.3 or older, where a volatile
input recorded no graph (since 0.4 it records one; see TL202).

A forward pass whose output reaches ` + "`.numpy()`" + ` with its history kept
(through ` + "`.cpu()`" + `, ` + "`.float()`" + `, a tensor index such as ` + "`out[0, :, :]`" + `, a name,
or a parameter of a function of the file), and every other forward pass of that model there, is not
reported: PyTorch raises on ` + "`.numpy()`" + ` of a tensor that requires grad,
so code that runs it shows that the model records no graph (a frozen
TorchScript feature network, or a caller's ` + "`no_grad`" + `). ` + "`.detach()`" + `,
` + "`.data`" + `, ` + "`.item()`" + `, ` + "`argmax`" + ` and an entry of the outputs
(` + "`outputs[0][\"labels\"]`" + `, which may hold integers) show nothing.

A forward pass whose outputs are returned, stored or handed to a
function the file cannot see is not taken as inference by its outputs
alone: a caller may back-propagate through them. One whose output is
handed as it is to ` + "`np.array`" + `, ` + "`np.asarray`" + `, ` + "`np.argmax`" + ` or ` + "`np.argmin`" + ` is not
reported: NumPy reads it through ` + "`numpy()`" + `, which raises for a tensor that
requires grad (checked with PyTorch 2.11.0), so wherever that line runs
the pass recorded no graph, or is no torch model's.

Where a reported forward pass's outputs go is followed through what the
function does with them (names, tuples, lists, tensors they are copied
into, arithmetic, losses, other models, the project's own functions by
what their summaries say they do with an argument). Outputs seen to reach
a ` + "`backward()`" + ` or ` + "`torch.autograd.grad`" + ` are trained through, in whatever
mode the model is, and are not reported (a class that keeps its model in
evaluation mode for guided back-propagation). So is a pass whose module
keeps part of its result on itself where a later backward of the function
reads it (` + "`loss = net.loss; loss.backward()`" + ` after ` + "`net(x, y)`" + `, whose forward
sets ` + "`self.loss_mse`" + `). Outputs handed to code
whose use of them is not seen (a library's function, an attribute, a
method of an object of no known class) make the finding say so, one
level lower.

A model's layers called one by one (` + "`decoder.embedding(words)`" + `,
` + "`decoder.lstm(x, h)`" + `, ` + "`decoder.fc(h)`" + ` in a beam search) are forward passes of that
model, where the attribute is named for a layer (fc, linear, embedding,
lstm, gru, rnn, conv, attention, attn, proj, projection, mlp) and neither a
class of the file nor a method of the project has that name; the finding
says the name is what it rests on. A function of the project whose every
return is ` + "`torch.no_grad()`" + ` but one under a test of a library's version
(` + "`if torch.__version__ >= \"0.4\": return torch.no_grad()`" + `, then
` + "`return contextlib.suppress()`" + `) disables grad where it is entered.

## References
- [torch.no_grad](https://pytorch.org/docs/stable/generated/torch.no_grad.html)
- [torch.inference_mode](https://pytorch.org/docs/stable/generated/torch.inference_mode.html)
- [Autograd mechanics: locally disabling gradient computation](https://pytorch.org/docs/stable/notes/autograd.html#locally-disabling-gradient-computation)
`,
}

// evalWords are the words of function names that mean evaluation or
// inference.
var evalWords = map[string]bool{
	"evaluate": true, "evaluation": true, "eval": true, "validate": true, "validation": true,
	"val": true, "valid": true, "test": true, "testing": true, "predict": true, "prediction": true,
	"infer": true, "inference": true, "generate": true, "generation": true,
}

// trainWords mark a function that trains as well.
var trainWords = map[string]bool{"train": true, "training": true, "fit": true, "finetune": true, "step": true}

func checkEvalWithoutNoGrad(p *analyzer.Pass, call analyzer.NodeID) {
	m, f := p.Model, p.File
	fn := m.ScopeNode(call)
	if testCode(m, fn) {
		return // evalForwards judges none of it
	}
	// The cheap tests first: most calls are neither forward passes nor
	// helpers that run one, and the function's findings say which are.
	// The grad mode as this file sets it comes first; as the function's
	// callers in other files set it, last (see GradModeKnown).
	if g, known := m.GradModeKnown(call); known && g != analyzer.GradEnabled {
		return
	}
	direct := m.IsForwardCall(call)
	if !direct && m.Helper(call) == nil && m.FlaggedHelper(call) == nil {
		return
	}
	if gradChosenByParam(m, fn) && (!direct || !outputsOnlyToHost(m, call)) {
		return // the caller picks the mode: grad on where it asks for what the pass gives
	}
	found := m.Memo(evalKey{fn}, func() any { return evalForwards(m, fn) }).([]evalFinding)
	// evalForwards keeps only passes run with grad enabled, the mode the
	// callers set asked last.
	i := slices.IndexFunc(found, func(e evalFinding) bool { return e.call == call })
	if i < 0 {
		return
	}
	if direct && rawToNumpy(m, call) {
		return // it would raise there with a graph: none is recorded, or it is no model
	}
	var helper *analyzer.Object
	goes, unseen := fateNo, analyzer.NoNode
	if direct {
		// Outputs seen to reach a backward() are trained through,
		// whatever mode the model is in.
		if goes, unseen = fateApart(m, call, found[i].sw); goes == fateYes {
			return
		}
	} else if helper = helperForward(m, call); helper == nil {
		return
	}
	where := found[i].why
	var fix *analyzer.Fix
	if found[i].named || found[i].callers != nil {
		fix = noGradDecoratorFix(m, fn)
	}
	cost := ": autograd records the graph and keeps its activations alive for as long as its outputs are held, " +
		"although nothing back-propagates; wrap the evaluation in `with torch.no_grad():` (or `torch.inference_mode()`)"
	fwdEnd, owner := "", ""
	if direct {
		fwdEnd, owner = m.ForwardEndsReturns(call)
	}
	if fwdEnd != "" {
		// The module's own forward detaches what it returns: the graph
		// lives for the pass alone.
		cost = fmt.Sprintf(": autograd records the graph and saves the activations a backward would need, although nothing "+
			"back-propagates; `%s.forward` returns `.%s` of what it computes, which frees them as the pass ends, but each "+
			"pass still holds them all at its peak; wrap the evaluation in `with torch.no_grad():` (or `torch.inference_mode()`)", owner, fwdEnd)
	} else if end := droppedAtOnce(m, call); found[i].detached && direct && end != "" {
		cost = fmt.Sprintf(": autograd records the graph and saves the activations a backward would need, although "+
			"nothing back-propagates through it; %s, but each pass still holds them all at its peak; run this model "+
			"under `with torch.no_grad():`", end)
	} else if found[i].detached {
		cost = ": autograd records the graph and keeps its activations alive while the outputs are held, although " +
			"they are detached or read on the host before any backward; run this model under `with torch.no_grad():`"
	} else if a := found[i].apart; found[i].split {
		// A loop over phases that trains in one and evaluates in another
		// (`for phase in ["train", "val"]`) with the same pass.
		test := analyzer.Snippet(f.Text(a), 60)
		mode, when := test, "does not hold"
		switch k := f.Kind(a); {
		case !found[i].needs && (k == analyzer.KindIdentifier || k == analyzer.KindAttribute):
			mode, when = "not "+test, "holds"
		case !found[i].needs:
			mode, when = "not ("+test+")", "holds"
		case k == analyzer.KindIdentifier || k == analyzer.KindAttribute:
			// set_grad_enabled takes a bool: `if optimizer:` tests an object.
			mode = "bool(" + test + ")"
		}
		where += fmt.Sprintf(", where `%s` %s and the backward() that it guards does not run", test, when)
		cost = ": autograd records the graph and keeps its activations alive for as long as its outputs are held, although " +
			"nothing back-propagates; run the pass " +
			"under `with torch.set_grad_enabled(" + mode + "):`"
	} else if end := droppedAtOnce(m, call); direct && end != "" {
		cost = fmt.Sprintf(": autograd records the graph and saves the activations a backward would need, although nothing "+
			"back-propagates; %s, but each pass still holds them all at its "+
			"peak; wrap the evaluation in `with torch.no_grad():` (or `torch.inference_mode()`)", end)
	} else if direct && (found[i].host || fn != analyzer.Root && outputsOnlyToHost(m, call) || cellShown(m, fn, call) != "") &&
		!fedBack(m, call) {
		// Its outputs end on the host (a sample turned into an array, a
		// score printed): the graph goes with them, whatever region the
		// pass is in; at module level (a script, a notebook) a name that
		// holds one lives on.
		cost = hostCost(m, fn, call)
	}
	site := code(m, call, 40, "this call")
	if at, def := nestedForward(m, fn, call, helper, found[i]); at != analyzer.NoNode {
		// Reported where the no_grad goes: in the helper that only this
		// evaluation calls.
		p.ReportRelated(at, fmt.Sprintf("%s runs a forward pass with grad enabled in `%s`, which `%s` calls only %s (line %d)%s",
			code(m, at, 40, "this call"), m.FunctionName(def), m.FunctionName(fn), where, f.Position(f.N(call).Start).Line, cost),
			p.RelatedNode(call, "the call of `"+m.FunctionName(def)+"` in the evaluation"))
		p.Fix(noGradDecoratorFix(m, def))
	} else if direct {
		p.ReportFix(call, fmt.Sprintf("%s runs a forward pass with grad enabled %s%s", site, where, cost), fix)
	} else {
		// The place is the pass's, which may be in a function that the
		// helper calls in turn.
		runs := fmt.Sprintf("which runs `%s` (%s)", helper.Forward.Text, helper.Forward.Where())
		related := []analyzer.Related{analyzer.RelatedSite(helper.Forward, "the forward pass `"+helper.Site.Text+"` runs")}
		if flag, ok := m.SkippingFlag(call); ok {
			runs = fmt.Sprintf("which runs `%s` (%s) and, with `%s`, no backward()", helper.Forward.Text, helper.Forward.Where(), flag)
			if at := m.ArmForwards(call, maxMore+1); len(at) > 0 {
				// The passes of the branches the flag selects, not the
				// first of the body (the training branch's).
				if line := f.Position(f.N(at[0]).Start).Line; helper.Forward.Abs != f.Path || helper.Forward.Line != line {
					runs = fmt.Sprintf("which, with `%s`, runs `%s` (line %d) and no backward()", flag, analyzer.Snippet(f.Text(at[0]), 40), line)
				}
				related = related[:0]
				for _, a := range at {
					related = append(related, p.RelatedNode(a, "a forward pass `"+helper.Site.Text+"` runs with `"+flag+"`"))
				}
			}
		}
		if end := detachesReturns(m, m.LocalCallee(call), call); end != "" && !found[i].detached && !found[i].split {
			cost = fmt.Sprintf(": autograd records the graph and saves the activations a backward would need, although nothing "+
				"back-propagates; `%s` returns `.%s` of what it computes, which frees them, but each pass still holds them all "+
				"at its peak; wrap the evaluation in `with torch.no_grad():` (or `torch.inference_mode()`)", helper.Site.Text, end)
		} else if found[i].host && !found[i].detached && !found[i].split {
			cost = hostCost(m, fn, call)
		}
		p.ReportRelated(call, fmt.Sprintf("%s runs a forward pass with grad enabled %s, through `%s`, %s%s",
			site, where, helper.Site.Text, runs, cost), related...)
		p.Fix(fix)
	}
	evalEvidence(p, fn, call, helper, found[i])
	if helper != nil && helper.ByMethodName {
		callee := f.Unparen(f.Field(call, analyzer.FieldFunction))
		which := "the only class of the project with a method"
		if len(helper.Classes) > 1 {
			which = "the only classes of the project with a method"
		}
		p.Assume(fmt.Sprintf("`%s` is an instance of %s, %s `%s`: known by that name alone",
			compactText(f, f.Field(callee, analyzer.FieldObject)), classList(helper.Classes), which, f.Text(f.Field(callee, analyzer.FieldAttribute))))
	}
	if goes == fateUnknown {
		p.Assume(fmt.Sprintf("nothing back-propagates the outputs: `%s` hands them to code whose use of them is not seen",
			analyzer.Snippet(compactText(f, unseen), 40)))
	}
}

// hostCost is what a pass whose outputs all end on the host costs: the
// graph goes with them, unless module-level names hold them.
func hostCost(m *analyzer.Model, fn, call analyzer.NodeID) string {
	kept := "they are freed with the outputs, none of which is kept, but each pass still holds them all at its peak"
	if list := loopKeptList(m, fn, call); list != "" {
		kept = fmt.Sprintf("`%s` keeps the outputs of every pass, and the graph of each with them, until it is dropped: "+
			"the activations of all the passes stay alive together", list)
	} else if name := loopHeldName(m, fn, call); name != "" {
		kept = fmt.Sprintf("`%s` holds the outputs, and the graph with them, until the next pass binds it again: each pass "+
			"runs while the last one's activations are still alive, and the last pass's stay alive after the loop", name)
	}
	if names := keptGlobals(m, fn, call); names != nil {
		held := "`" + names[0] + "`, a module-level name, keeps"
		if len(names) > 1 {
			held = "`" + strings.Join(names[:len(names)-1], "`, `") + "` and `" + names[len(names)-1] + "`, module-level names, keep"
		}
		kept = held + " the last outputs and their graph alive until bound again or deleted, and each pass holds them all at its peak"
	}
	if shown := cellShown(m, fn, call); shown != "" {
		kept = shown + ", and IPython keeps the value of a cell's last expression in `Out`: the outputs and their graph " +
			"stay alive after the cell, one more set each time it runs, until `Out` is cleared or the kernel restarts"
	}
	return ": autograd records the graph and saves the activations a backward would need, although nothing " +
		"back-propagates; " + kept + "; wrap the evaluation in `with torch.no_grad():` (or `torch.inference_mode()`)"
}

// loopKeptList returns the name of a list, bound outside the loop of
// function fn that runs a forward call, to which the loop appends one of
// the names the call binds (`logits, value = policy(s)`, then
// `values.append(value)`): the list keeps every pass's outputs, and
// their graphs, past the pass. "" for none.
func loopKeptList(m *analyzer.Model, fn, call analyzer.NodeID) string {
	f := m.File
	loop, names := loopBound(m, fn, call)
	if len(names) == 0 {
		return ""
	}
	list := ""
	appendedOutputs(m, loop, names, func(app analyzer.NodeID, bound []*analyzer.Binding) bool {
		recv := f.Unparen(m.Receiver(app))
		if m.ScopeNode(app) != fn || f.Kind(recv) != analyzer.KindIdentifier {
			return true
		}
		if b := m.Resolve(recv); b != nil && b.Kind == analyzer.BindAssign && m.ScopeNode(b.Name) == fn && !f.Contains(loop, b.Name) {
			list = f.Text(recv)
			return false
		}
		return true
	})
	return list
}

// appendedOutputs calls each, in loop's order until it returns false,
// for every `xs.append(name)` in loop whose argument holds, on every way
// to it, what a forward call bound to one of names (assignedNames), with
// the bindings that reach the argument.
func appendedOutputs(m *analyzer.Model, loop analyzer.NodeID, names []analyzer.NodeID, each func(app analyzer.NodeID, bound []*analyzer.Binding) bool) {
	f, more := m.File, true
	f.Walk(loop, func(id analyzer.NodeID) {
		if !more || f.Kind(id) != analyzer.KindCall || m.MethodName(id) != "append" {
			return
		}
		args := m.Args(id)
		if len(args) != 1 || f.Kind(f.Unparen(args[0])) != analyzer.KindIdentifier {
			return
		}
		bound := m.ReachingBindings(f.Unparen(args[0]))
		if len(bound) > 0 && !slices.ContainsFunc(bound, func(b *analyzer.Binding) bool { return !slices.Contains(names, b.Name) }) {
			more = each(id, bound)
		}
	})
}

// loopBound returns the loop of function fn (not module-level code) that
// runs a forward call, and the names the call's outputs are bound to
// there (assignedNames); no names where there is no such loop.
func loopBound(m *analyzer.Model, fn, call analyzer.NodeID) (loop analyzer.NodeID, names []analyzer.NodeID) {
	loop = m.EnclosingLoop(call)
	if fn == analyzer.Root || loop == analyzer.NoNode || m.ScopeNode(loop) != fn {
		return loop, nil
	}
	names = assignedNames(m.File, call)
	if len(names) == 0 {
		return loop, names
	}
	// `action, log_prob = policy.act(s)`, where act returns
	// `action.item()` first: a number holds no graph.
	f := m.File
	if left := f.Parent(names[0]); f.Kind(left) == analyzer.KindPatternList || f.Kind(left) == analyzer.KindTuplePattern {
		if host := hostTargetElems(m, left); len(host) > 0 {
			elems := f.ChildList(left)
			names = slices.DeleteFunc(names, func(id analyzer.NodeID) bool {
				i := slices.Index(elems, id)
				return i >= 0 && slices.Contains(host, i)
			})
		}
	}
	return loop, names
}

// loopHeldName returns the name a forward call in a loop of function fn
// binds its outputs to (`out = model(x)`, `out, h = rnn(x, h)`: the
// first), where nothing else in the loop deletes it or binds it to a
// value without a graph: the name keeps one pass's outputs, and their
// graph, alive while the next pass runs, and the last after the loop.
// "" otherwise.
func loopHeldName(m *analyzer.Model, fn, call analyzer.NodeID) string {
	f := m.File
	loop, names := loopBound(m, fn, call)
	if len(names) == 0 {
		return ""
	}
	target := names[0]
	name := f.Text(target)
	other := false
	f.Walk(loop, func(id analyzer.NodeID) {
		if other || m.ScopeNode(id) != fn || f.Kind(id) != analyzer.KindIdentifier || id == target || !f.TextIs(id, name) {
			return
		}
		switch up := f.Parent(id); f.Kind(up) {
		case analyzer.KindDeleteStatement, analyzer.KindExpressionList, analyzer.KindPatternList, analyzer.KindTuplePattern:
			other = f.Kind(up) == analyzer.KindDeleteStatement || f.Kind(f.Parent(up)) == analyzer.KindDeleteStatement ||
				f.Kind(f.Parent(up)) == analyzer.KindAssignment && f.Field(f.Parent(up), analyzer.FieldLeft) == up
		case analyzer.KindAssignment:
			// `out = out.contiguous()` still holds the graph; `out =
			// out.argmax(1)` or `out = None` lets it go.
			other = f.Field(up, analyzer.FieldLeft) == id && !m.CarriesGraph(f.Field(up, analyzer.FieldRight))
		case analyzer.KindAugmentedAssignment:
			other = f.Field(up, analyzer.FieldLeft) == id
		case analyzer.KindForStatement:
			other = f.Field(up, analyzer.FieldLeft) == id
		}
	})
	if other {
		return ""
	}
	return name
}

// cellShown says how the outputs of a forward call in a notebook's
// top-level code come to be displayed at the end of a cell with their
// graph (`model(x)` or `model(x)[:4]` as the cell's last line, or a
// name bound to them shown so in a later cell), or "" where they are
// not: IPython's output cache keeps whatever a cell displays.
func cellShown(m *analyzer.Model, fn, call analyzer.NodeID) string {
	f := m.File
	if fn != analyzer.Root || !analyzer.IsNotebook(f.Path) {
		return ""
	}
	stmt := call
	for stmt != analyzer.NoNode && f.Kind(f.Parent(stmt)) != analyzer.KindModule {
		stmt = f.Parent(stmt)
	}
	if f.CellDisplays(stmt) && m.CarriesGraph(f.FirstChild(stmt)) {
		return "the cell displays them"
	}
	for _, name := range keptGlobalTargets(m, fn, call) {
		for _, use := range m.ReachedUsesOf(name) {
			if st := f.Parent(use); f.CellDisplays(st) && f.FirstChild(st) == use && m.CarriesGraph(use) {
				return fmt.Sprintf("a cell displays `%s` (line %d)", f.Text(use), f.Position(f.N(use).Start).Line)
			}
		}
	}
	return ""
}

// keptGlobals returns, for a call in module-level code (fn is Root),
// the names an assignment binds to what it returns (`out = model(x)`,
// `out, hidden = lm(x, hidden)`; `_` aside), or nil: a name of a
// script or a notebook lives on after the statement, and its value with
// it.
func keptGlobals(m *analyzer.Model, fn, call analyzer.NodeID) []string {
	var names []string
	for _, id := range keptGlobalTargets(m, fn, call) {
		names = append(names, m.File.Text(id))
	}
	return names
}

// keptGlobalTargets is keptGlobals, the names as the assignment's
// targets.
func keptGlobalTargets(m *analyzer.Model, fn, call analyzer.NodeID) []analyzer.NodeID {
	if fn != analyzer.Root {
		return nil
	}
	return assignedNames(m.File, call)
}

// assignedNames returns the names, but `_`, that an assignment of value e
// binds (`out = model(x)`, `out, h = rnn(x, h)`), in order.
func assignedNames(f *analyzer.File, e analyzer.NodeID) []analyzer.NodeID {
	x := e
	for f.Kind(f.Parent(x)) == analyzer.KindParenthesizedExpression {
		x = f.Parent(x)
	}
	p := f.Parent(x)
	if f.Kind(p) != analyzer.KindAssignment || f.Field(p, analyzer.FieldRight) != x {
		return nil
	}
	var names []analyzer.NodeID
	add := func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindIdentifier && !f.TextIs(id, "_") {
			names = append(names, id)
		}
	}
	switch left := f.Field(p, analyzer.FieldLeft); f.Kind(left) {
	case analyzer.KindIdentifier:
		add(left)
	case analyzer.KindPatternList, analyzer.KindTuplePattern:
		f.Children(left, func(c analyzer.NodeID) bool {
			add(c)
			return true
		})
	}
	return names
}

type gradChoiceKey struct{ fn analyzer.NodeID }

// gradChosenByParam reports whether fn lets its caller pick the grad
// mode by one of its parameters: a test of the parameter (`if no_grad:`,
// `if not train:`) one arm of which runs under `torch.no_grad()`. What
// it runs with grad enabled, outside that arm, runs so where a caller
// asks for it (a training step that back-propagates what `generate(...,
// no_grad=False)` returns), unless its outputs only reach the host.
func gradChosenByParam(m *analyzer.Model, fn analyzer.NodeID) bool {
	if fn == analyzer.Root {
		return false
	}
	return m.Memo(gradChoiceKey{fn}, func() any {
		f := m.File
		found := false
		f.Walk(f.Field(fn, analyzer.FieldBody), func(id analyzer.NodeID) {
			if found || f.Kind(id) != analyzer.KindIfStatement || m.ScopeNode(id) != fn {
				return
			}
			cond := f.Unparen(f.Field(id, analyzer.FieldCondition))
			if f.Kind(cond) == analyzer.KindNotOperator {
				cond = f.Unparen(f.Field(cond, analyzer.FieldArgument))
			}
			if b := m.Resolve(cond); f.Kind(cond) != analyzer.KindIdentifier || b == nil || b.Kind != analyzer.BindParam {
				return
			}
			f.Walk(id, func(c analyzer.NodeID) {
				if !found && f.Kind(c) == analyzer.KindWithStatement && m.ScopeNode(c) == fn {
					body := f.Field(c, analyzer.FieldBody)
					found = f.FirstChild(body) != analyzer.NoNode && m.GradModeAt(f.FirstChild(body)) == analyzer.GradDisabled
				}
			})
		})
		return found
	}).(bool)
}

// classList names classes for a message: "`A`", "`A` or `B`".
func classList(classes []string) string {
	q := make([]string, len(classes))
	for i, c := range classes {
		q[i] = "`" + c + "`"
	}
	if len(q) <= 1 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// atSite reports whether node id starts where site, of this file, is.
func atSite(f *analyzer.File, id analyzer.NodeID, site *analyzer.Site) bool {
	p := f.Position(f.N(id).Start)
	return p.Line == site.Line && p.Column == site.Column
}

// nestedForward returns the forward pass a helper nested in fn runs
// (helper's), and the helper, when every call of the helper is in the
// evaluation region of finding e: `get_pred` defined in
// `inception_score` and called only after its model's `.eval()`. NoNode
// for any other call.
func nestedForward(m *analyzer.Model, fn, call analyzer.NodeID, helper *analyzer.Object, e evalFinding) (at, def analyzer.NodeID) {
	f := m.File
	def = m.LocalCallee(call)
	if helper == nil || helper.Forward == nil || fn == analyzer.Root || def == analyzer.NoNode || def == fn || !f.Contains(fn, def) ||
		f.Kind(def) != analyzer.KindFunctionDefinition || e.detached {
		return analyzer.NoNode, analyzer.NoNode
	}
	start := f.N(fn).Start
	switch {
	case e.sw != analyzer.NoNode:
		start = f.N(e.sw).Start
	case !e.named:
		return analyzer.NoNode, analyzer.NoNode
	}
	calls, ok := m.CallsOf(def)
	if !ok {
		return analyzer.NoNode, analyzer.NoNode
	}
	for _, c := range calls {
		if at := f.N(c).Start; at < start || at >= e.end || m.ScopeNode(c) != fn {
			return analyzer.NoNode, analyzer.NoNode
		}
	}
	at = analyzer.NoNode
	f.Walk(def, func(id analyzer.NodeID) {
		if at != analyzer.NoNode || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != def {
			return
		}
		if atSite(f, id, helper.Forward) {
			at = id
		}
	})
	return at, def
}

// constructorSwitch returns the switch to evaluation mode of the model a
// method runs, `self.net(x)`, made in its class's `__init__`
// (`self.net.eval()`, `self.net = Net().eval()`): an inference wrapper
// that switches its model once, for all its methods. NoNode where there
// is none.
func constructorSwitch(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	f := m.File
	callee := f.Unparen(f.Field(call, analyzer.FieldFunction))
	if f.Kind(callee) != analyzer.KindAttribute || !f.TextIs(f.Field(callee, analyzer.FieldObject), "self") {
		return analyzer.NoNode
	}
	class := m.EnclosingClass(call)
	if class == analyzer.NoNode {
		return analyzer.NoNode
	}
	init := m.MethodOf(class, "__init__")
	if init == analyzer.NoNode {
		return analyzer.NoNode
	}
	key := compactText(f, callee)
	found := analyzer.NoNode
	f.Walk(f.Field(init, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found != analyzer.NoNode || f.Kind(id) != analyzer.KindCall {
			return
		}
		if eval, _ := m.ModeSwitch(id); !eval {
			return
		}
		recv := f.Unparen(m.Receiver(id))
		switch {
		case compactText(f, recv) == key:
			found = id // `self.net.eval()`
		case f.Kind(f.Parent(id)) == analyzer.KindAssignment && compactText(f, f.Field(f.Parent(id), analyzer.FieldLeft)) == key:
			found = id // `self.net = Net().eval()`
		}
	})
	return found
}

// evalEvidence tells how sure a TL201 finding is: what it rests on that
// the project shows (the switch to evaluation mode, as a related
// location) and what it takes on trust.
func evalEvidence(p *analyzer.Pass, fn, call analyzer.NodeID, helper *analyzer.Object, e evalFinding) {
	m, f := p.Model, p.File
	direct := helper == nil // else the call runs helper's forward pass
	if e.sw != analyzer.NoNode {
		p.Evidence(p.RelatedNode(e.sw, "the switch to evaluation mode"))
	}
	if by := m.EnabledBy(fn); fn != analyzer.Root && by != nil {
		// Where every call of this file disables grad, say which one
		// does not.
		p.Evidence(analyzer.RelatedSite(by, "a call that runs `"+m.FunctionName(fn)+"` with grad enabled; every call of it in "+
			filepath.Base(f.Path)+" disables grad"))
	}
	for _, id := range e.more {
		if e.host {
			of := "of `" + m.FunctionName(fn) + "`"
			if fn == analyzer.Root {
				of = "at module level"
			}
			p.Evidence(p.RelatedNode(id, "another forward pass "+of+" with grad enabled whose outputs only reach the host"))
			continue
		}
		p.Evidence(p.RelatedNode(id, "another forward pass of the region with grad enabled, which the same no_grad covers"))
	}
	for _, c := range e.callers {
		p.Evidence(analyzer.RelatedSite(c.Site, "a call on a model switched to evaluation mode"))
	}
	if e.named && e.sw == analyzer.NoNode {
		if sw := constructorSwitch(m, call); sw != analyzer.NoNode {
			p.Evidence(p.RelatedNode(sw, "the switch to evaluation mode, in the constructor"))
		} else if sw := moduleSwitch(m, call); sw != analyzer.NoNode {
			p.Evidence(p.RelatedNode(sw, "the switch to evaluation mode of the module's model, never switched back"))
		} else if pc := m.EvalParamCall(modelExpr(m, call)); pc != nil && pc.Site != nil {
			p.Evidence(analyzer.RelatedSite(pc.Site, "a call that hands it a model switched to evaluation mode, as every call does"))
		} else if direct && !smokeTest(m, call) && !gradientUse(m, call) && outputsOnlyToHost(m, call) {
			// Its outputs only reach the host: nothing differentiates
			// them, whatever the function is called, as for a pass of a
			// function of any other name.
		} else if _, skips := m.SkippingFlag(call); !direct && skips {
			// The call turns off every backward() of what it runs: the
			// message names the flag.
		} else {
			p.Assume(fmt.Sprintf("the code is evaluation: known by the name of `%s` alone, which switches no model to evaluation mode itself", m.FunctionName(fn)))
		}
	}
	// The model switched to evaluation mode, or a submodule of it, is a
	// module: only a module has `.eval()`.
	if direct && !switchedModel(m, call, e.key) {
		callee := compactText(f, f.Unparen(f.Field(call, analyzer.FieldFunction)))
		switch {
		case !m.WithoutNames(func() bool { return m.IsForwardCall(call) }):
			p.Assume(fmt.Sprintf("`%s` is a model: known by its name alone", analyzer.Snippet(callee, 30)))
		case m.EvalParamCall(modelExpr(m, call)) == nil:
			if pc := m.ModuleParamCall(modelExpr(m, call)); pc != nil && pc.Site != nil {
				p.Evidence(analyzer.RelatedSite(pc.Site, "a call that hands `"+analyzer.Snippet(callee, 30)+"` a module, as every call in the project does"))
			}
		}
	}
	gradAssumption(p, call)
	oneSample := sampleNote(m, fn, call, direct)
	repeated := false
	if oneSample != "" {
		// One sample a call, which a loop is seen to run again and again
		// (an agent's action on every environment step): a small graph
		// each time, but the pattern of every step, not a one-off.
		if loop, c, site := sampleRepeats(m, fn, call); loop != analyzer.NoNode {
			repeated = true
			p.Evidence(p.RelatedNode(loop, "the loop that runs this pass on every iteration, on one sample each time"))
		} else if c != analyzer.NoNode {
			repeated = true
			p.Evidence(p.RelatedNode(c, repeatedText(m.FunctionName(fn), analyzer.Snippet(compactText(f, f.Unparen(f.Field(c, analyzer.FieldFunction))), 40))))
		} else if site != nil {
			repeated = true
			p.Evidence(analyzer.RelatedSite(site, repeatedText(m.FunctionName(fn), site.Text)))
		}
	}
	switch {
	case e.dry:
		p.Once("its inputs are random or constant tensors alone: a dry run of the model, or one sample drawn from noise")
	case runsOnce(m, fn, call, e.end) && (direct || !loopsInside(m, m.LocalCallee(call), helper.Forward)):
		where := "outside any loop"
		for l := m.EnclosingLoop(call); l != analyzer.NoNode; l = m.EnclosingLoop(l) {
			if m.BreaksAfterFirst(l) {
				where = fmt.Sprintf("in the loop at line %d, which breaks after its first iteration,", f.Position(f.N(l).Start).Line)
				break
			}
			// runsOnce let it through: a loop over a few fixed values.
			where = fmt.Sprintf("in the loop at line %d, over a few fixed values,", f.Position(f.N(l).Start).Line)
		}
		if fn == analyzer.Root {
			p.Once(fmt.Sprintf("a forward pass of module-level code %s keeps one graph, not one per batch", where))
		} else {
			p.Once(fmt.Sprintf("`%s` runs once, from module-level code, and this pass %s keeps one graph, not one per batch",
				m.FunctionName(fn), where))
		}
	case oneSample != "" && !repeated:
		p.Once(oneSample)
	default:
		if loop := m.EnclosingLoop(call); loop != analyzer.NoNode && m.ScopeNode(loop) == fn && m.Loop(loop).PerStep() && m.OnSomeIterations(loop, call) {
			if test := periodicTest(f, loop, call); test != analyzer.NoNode {
				p.Seldom(fmt.Sprintf("it runs every few iterations of the loop at line %d only (`%s`): one graph every few steps, not one per step",
					f.Position(f.N(loop).Start).Line, analyzer.Snippet(compactText(f, test), 30)))
			}
		}
	}
}

// sampleNote returns, for a forward pass of fn run on one sample whose outputs
// only reach the host (or are read as one value), what says so: its
// input is a batch of one made on the spot, a helper's passes all are,
// a tensor made of one observation by its name, or its output is read
// as one value of what the caller hands in. "" for any other pass.
func sampleNote(m *analyzer.Model, fn, call analyzer.NodeID, direct bool) string {
	f := m.File
	in, param := handedIn(m, fn, call)
	helperOne := analyzer.NoNode // the batch of one a helper makes for its passes
	if !direct {
		helperOne = helperOneSample(m, call)
	}
	switch {
	case direct && batchOfOne(m, call) != analyzer.NoNode && outputsOnlyToHost(m, call):
		return fmt.Sprintf("its input is one sample (`%s`) and its outputs only reach the host: each call records one sample's graph, freed with them",
			analyzer.Snippet(compactText(f, batchOfOne(m, call)), 40))
	case !direct && helperOne != analyzer.NoNode && outputsOnlyToHost(m, call):
		return fmt.Sprintf("`%s` runs each of its forward passes on one sample (`%s`) and the outputs only reach the host: each call "+
			"records one sample's graph, freed with them", m.FunctionName(m.LocalCallee(call)), analyzer.Snippet(compactText(f, helperOne), 40))
	case direct && observationTensor(f, in, param) != "" && outputsOnlyToHost(m, call):
		return fmt.Sprintf("its input is a tensor made on the spot of `%s`, one observation by its name, and its outputs only "+
			"reach the host: each call records one sample's graph, freed with them", observationTensor(f, in, param))
	case (direct || cleanHelper(m, call)) && in != analyzer.NoNode && oneValue(m, call, 0) != analyzer.NoNode:
		// Through a helper of the file whose passes' outputs it only
		// returns (`get_policy(obs).sample().item()`), the same.
		return fmt.Sprintf("its output is read as one value (`%s`) of what the caller hands in (`%s`): one sample, whose graph "+
			"each call records and frees with it", analyzer.Snippet(compactText(f, oneValue(m, call, 0)), 40),
			analyzer.Snippet(compactText(f, in), 40))
	}
	return ""
}

// repeatedText says that a call of callee on every iteration of a loop
// runs fn, the function of a pass on one sample.
func repeatedText(fn, callee string) string {
	if callee == fn || strings.HasSuffix(callee, "."+fn) {
		return fmt.Sprintf("a call of `%s` on every iteration of its loop, on one sample each time", callee)
	}
	return fmt.Sprintf("a call of `%s` on every iteration of its loop, which runs `%s`, on one sample each time", callee, fn)
}

// sampleRepeats tells what runs a forward pass on one sample again and
// again: a loop of its own function around it (loop), or a call of that
// function on every iteration of a loop (Model.Repeated: c in this file,
// site in another). All NoNode and nil where nothing is seen to.
func sampleRepeats(m *analyzer.Model, fn, call analyzer.NodeID) (loop, c analyzer.NodeID, site *analyzer.Site) {
	if l := m.RepeatingLoop(call); l != analyzer.NoNode {
		return l, analyzer.NoNode, nil
	}
	if fn == analyzer.Root {
		return analyzer.NoNode, analyzer.NoNode, nil
	}
	c, site = m.Repeated(fn)
	return analyzer.NoNode, c, site
}

// periodicTest returns the condition, between call and loop, that runs it
// every few iterations (`step % 100 == 0`, `not step % 100`); NoNode where
// there is none. `step % 100 != 0` runs it on all but every hundredth.
func periodicTest(f *analyzer.File, loop, call analyzer.NodeID) analyzer.NodeID {
	for x := call; x != loop && x != analyzer.NoNode; x = f.Parent(x) {
		p := f.Parent(x)
		if k := f.Kind(p); (k == analyzer.KindIfStatement || k == analyzer.KindElifClause) && f.Field(p, analyzer.FieldConsequence) == x {
			cond := f.Field(p, analyzer.FieldCondition)
			if everyFew(f, cond) {
				return cond
			}
		}
	}
	return analyzer.NoNode
}

// everyFew reports whether cond holds on every few values of a counter
// only: it is, or `and`s with, `n % k == c` or `not n % k`.
func everyFew(f *analyzer.File, cond analyzer.NodeID) bool {
	modulo := func(e analyzer.NodeID) bool {
		e = f.Unparen(e)
		return f.Kind(e) == analyzer.KindBinaryOperator && f.TextIs(f.Field(e, analyzer.FieldOperator), "%")
	}
	cond = f.Unparen(cond)
	switch f.Kind(cond) {
	case analyzer.KindNotOperator:
		return modulo(f.Field(cond, analyzer.FieldArgument))
	case analyzer.KindBooleanOperator:
		l, r := f.Field(cond, analyzer.FieldLeft), f.Field(cond, analyzer.FieldRight)
		if f.TextIs(f.Field(cond, analyzer.FieldOperator), "and") {
			return everyFew(f, l) || everyFew(f, r)
		}
		// `step % k == 0 or step == last`: every few, and once more.
		return everyFew(f, l) && (everyFew(f, r) || equality(f, r)) || equality(f, l) && everyFew(f, r)
	case analyzer.KindComparisonOperator:
		operands := equalityOperands(f, cond)
		return len(operands) == 2 && (modulo(operands[0]) || modulo(operands[1]))
	}
	return false
}

// equality reports whether cond is `a == b`: true on one value of a
// counter.
func equality(f *analyzer.File, cond analyzer.NodeID) bool {
	cond = f.Unparen(cond)
	return f.Kind(cond) == analyzer.KindComparisonOperator && len(equalityOperands(f, cond)) == 2
}

// equalityOperands returns the two operands of `a == b`; nil for any
// other comparison (`!=`, a chain).
func equalityOperands(f *analyzer.File, cond analyzer.NodeID) []analyzer.NodeID {
	var operands []analyzer.NodeID
	f.Children(cond, func(c analyzer.NodeID) bool {
		if f.N(c).Field != analyzer.FieldOperators {
			operands = append(operands, c)
		}
		return true
	})
	if len(operands) != 2 || strings.TrimSpace(string(f.Src[f.N(operands[0]).End:f.N(operands[1]).Start])) != "==" {
		return nil
	}
	return operands
}

// runsOnce reports whether a forward pass runs once per run of the
// program: in module-level code (a script, an `if __name__ ==
// "__main__":` block, a notebook), or in a function that only such code
// calls, once (`main()`), outside any loop but one over a few literal
// values, with no loop after it and before end (where its region ends)
// that calls the same model with grad enabled again and again (not a few
// fixed times).
func runsOnce(m *analyzer.Model, fn, call analyzer.NodeID, end uint32) bool {
	f := m.File
	if fn != analyzer.Root && !m.CalledOnceAtTop(fn) {
		return false
	}
	if m.RepeatingLoop(call) != analyzer.NoNode {
		return false // a loop over data; a few literal passes (`for cfg in (a, b):`) still run once each
	}
	callee := compactText(f, f.Unparen(f.Field(call, analyzer.FieldFunction)))
	at, again := f.N(call).End, false
	f.Walk(fn, func(id analyzer.NodeID) {
		if again || f.Kind(id) != analyzer.KindCall || f.N(id).Start < at || f.N(id).Start >= end || m.ScopeNode(id) != fn ||
			m.RepeatingLoop(id) == analyzer.NoNode {
			return
		}
		if compactText(f, f.Unparen(f.Field(id, analyzer.FieldFunction))) == callee && m.GradModeAt(id) != analyzer.GradDisabled {
			// The same model run again in a loop with grad enabled, unless
			// to train it (`print(model(x))` before the training loop, or
			// before a validation loop under no_grad).
			goes, _ := fateApart(m, id, analyzer.NoNode)
			again = goes != fateYes
		}
	})
	return !again
}

// loopsInside reports whether def, a function of this file, runs the
// forward pass at fwd in a loop of its own (`for minibatch in batches:
// translate(minibatch)`, translate running the model): a call of def run
// once still runs that pass once per iteration.
func loopsInside(m *analyzer.Model, def analyzer.NodeID, fwd *analyzer.Site) bool {
	f := m.File
	if def == analyzer.NoNode || f.Kind(def) != analyzer.KindFunctionDefinition || fwd == nil || fwd.Abs != "" && fwd.Abs != f.Path {
		return false
	}
	runs := func(c analyzer.NodeID) bool {
		if atSite(f, c, fwd) {
			return true
		}
		h := m.Helper(c)
		return h != nil && h.Forward != nil && h.Forward.Line == fwd.Line && h.Forward.Column == fwd.Column
	}
	found := false
	f.Walk(f.Field(def, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found || m.ScopeNode(id) != def {
			return
		}
		body := analyzer.NoNode
		switch f.Kind(id) {
		case analyzer.KindForStatement, analyzer.KindWhileStatement:
			if m.Repeats(id) {
				body = f.Field(id, analyzer.FieldBody)
			}
		case analyzer.KindListComprehension, analyzer.KindSetComprehension, analyzer.KindDictionaryComprehension, analyzer.KindGeneratorExpression:
			body = id
		}
		if body == analyzer.NoNode {
			return
		}
		f.Walk(body, func(c analyzer.NodeID) {
			found = found || f.Kind(c) == analyzer.KindCall && runs(c)
		})
	})
	return found
}

// helperForward returns the project function a call runs when
// that function runs a forward pass in its caller's grad mode, itself or
// through what it calls; nil otherwise. A helper named as evaluation is
// reported in its own body instead.
func helperForward(m *analyzer.Model, call analyzer.NodeID) *analyzer.Object {
	if m.SkipsForwards(call) {
		return nil
	}
	o := m.Helper(call)
	if o == nil {
		// A function that trains or evaluates by a flag, called with the
		// flag off (`run_epoch(model, val_loader, train=False)`).
		if o = m.FlaggedHelper(call); o == nil {
			return nil
		}
	}
	if o.Forward == nil {
		// A helper that calls what it is passed runs a forward pass when
		// it is passed a model.
		site := m.ParamForward(o, call)
		if site == nil {
			return nil
		}
		c := *o
		c.Forward = site
		o = &c
	}
	if o = unfrozenHelperForward(m, call, o); o == nil {
		return nil
	}
	// A method of an instance that records no graph (`cs.firstlayer(x)`,
	// cs of a class that freezes all it holds): its passes run frozen
	// modules.
	f := m.File
	if fn := f.Unparen(f.Field(call, analyzer.FieldFunction)); f.Kind(fn) == analyzer.KindAttribute {
		if recv := f.Unparen(f.Field(fn, analyzer.FieldObject)); f.Kind(recv) == analyzer.KindIdentifier && !f.TextIs(recv, "self") && m.NoGraphValue(recv) {
			return nil
		}
	}
	// A function named as evaluation is reported in its own body; a
	// method ("Class.name", called through an object) is not, and is
	// reported where it is called.
	if dot := strings.LastIndexByte(o.Site.Text, '.'); dot < 0 && namesEvaluation(o.Site.Text) {
		return nil
	}
	// So is one every call of which hands it a model switched to
	// evaluation mode.
	if m.CalleeEvalCalls(call) != nil {
		return nil
	}
	return o
}

// unfrozenHelperForward checks the forward pass o says a helper of this
// file runs, where it is in the helper's own body: a pass of a model the
// file freezes (`self.vit(x)` after `self.fix_network(self.vit)` in the
// constructor) records no graph, and the helper's first other pass with
// grad is reported instead; none left, nil.
func unfrozenHelperForward(m *analyzer.Model, call analyzer.NodeID, o *analyzer.Object) *analyzer.Object {
	f := m.File
	def := m.LocalCallee(call)
	if def == analyzer.NoNode || o.Forward == nil || o.Forward.Abs != "" && o.Forward.Abs != f.Path {
		return o
	}
	at := analyzer.NoNode
	var passes []analyzer.NodeID
	f.Walk(f.Field(def, analyzer.FieldBody), func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != def {
			return
		}
		if atSite(f, id, o.Forward) {
			at = id
		}
		if m.IsForwardCall(id) {
			passes = append(passes, id)
		}
	})
	if at == analyzer.NoNode || !frozen(m, at) {
		return o
	}
	for _, c := range passes {
		if c != at && !frozen(m, c) && m.GradModeAt(c) == analyzer.GradEnabled {
			p := f.Position(f.N(c).Start)
			c2 := *o
			c2.Forward = &analyzer.Site{Path: o.Forward.Path, Abs: o.Forward.Abs, Line: p.Line, Column: p.Column, Text: analyzer.Snippet(f.Text(c), 40)}
			return &c2
		}
	}
	return nil
}

// noGradDecoratorFix decorates an evaluation function with
// `@torch.no_grad()`, on the line just above its `def` so that it wraps
// the function itself rather than a staticmethod or property object. It
// returns nil for an `async def` (no_grad does not wrap coroutines) and
// for a `def` that does not start its line.
func noGradDecoratorFix(m *analyzer.Model, fn analyzer.NodeID) *analyzer.Fix {
	f := m.File
	if f.Kind(fn) != analyzer.KindFunctionDefinition {
		return nil
	}
	start := f.N(fn).Start
	indent := f.Indent(start)
	if f.LineStart(start)+uint32(len(indent)) != start || !strings.HasPrefix(f.Text(fn), "def") {
		return nil
	}
	imp, ok := torchName(m, fn)
	if !ok {
		return nil
	}
	var edits []analyzer.Edit
	if imp != nil {
		edits = append(edits, *imp)
	}
	edits = append(edits, analyzer.Insert(start, "@torch.no_grad()"+f.Newline()+indent))
	return &analyzer.Fix{Message: "Decorate `" + m.FunctionName(fn) + "` with `@torch.no_grad()`", Applicability: analyzer.Unsafe, Edits: edits}
}

type evalKey struct{ fn analyzer.NodeID }

// evalFinding is a forward pass to report, and why it is evaluation.
type evalFinding struct {
	call  analyzer.NodeID
	why   string
	named bool // in a function named for evaluation
	// callers: in a function every call of which hands it a model
	// switched to evaluation mode (analyzer.Model.EvalCalls).
	callers []analyzer.ParamCall
	sw      analyzer.NodeID // the switch to evaluation mode that opened its region, or NoNode
	key     string          // the model that switch switched
	end     uint32          // where its region ends
	// detached: the region back-propagates other graphs, and this pass's
	// outputs are detached or read on the host before any of it.
	detached bool
	// dry: its inputs are random or constant tensors alone.
	dry bool
	// split: the region's backward() never runs where its switch did;
	// apart is the test whose arm holds it (`if phase == "train":`), and
	// needs the arm that runs it.
	split bool
	apart analyzer.NodeID
	needs bool
	// host: found by its outputs alone, which only reach the host: none
	// is kept, and the graph goes with the last of them.
	host bool
	// more: later forward passes of the region, also with grad enabled,
	// that the one finding covers (the no_grad goes around them all).
	more []analyzer.NodeID
}

// maxMore is how many further passes of a region a finding lists.
const maxMore = 3

// evalRegion is a stretch of one function that evaluates: from a switch
// to evaluation mode to the next switch back to training mode, or a
// whole function named for evaluation.
type evalRegion struct {
	start, end uint32
	// explicit is true for a region the code opened by switching a model
	// to evaluation mode, rather than by its function's name.
	explicit bool
	key      string          // the model an explicit region switched (`model`, `self.net`)
	sw       analyzer.NodeID // the switch that opened an explicit region; in a function named for evaluation, its first switch
	first    analyzer.NodeID // its first grad-enabled forward pass
	// dead is its first grad-enabled forward pass of the model it
	// switched whose graph ends before any of it can be back-propagated
	// (detached, or read on the host): a side pass of a frozen network,
	// whatever else the region back-propagates.
	dead analyzer.NodeID
	why  string // what makes it evaluation, for the message
	// smoke is true for a function named as a test (`test`,
	// `test_shapes`), where a model fed only random or constant tensors
	// is a shape or speed check rather than an evaluation.
	smoke bool
	// dry is, in an explicit region, its first forward pass on random or
	// constant inputs alone, taken when no other pass is found.
	dry analyzer.NodeID
	// tested: opened by a switch whose mode a test decides
	// (`model.train(phase == "train")`); a plain switch to evaluation
	// mode after it opens a region of its own.
	tested bool
	// more: its later grad-enabled forward passes on other lines, at
	// most maxMore, which its one finding covers.
	more []analyzer.NodeID
}

// evalForwards returns the forward calls of function fn (not of its
// nested functions) to report: the first grad-enabled forward pass of
// each evaluation region that neither back-propagates nor asks for
// gradients (itself or through a function it calls), and the first
// forward pass outside those regions whose outputs only reach the host.
//
// An evaluation region runs from a switch to evaluation mode
// (`model.eval()`, `model.train(False)`, `Net(...).eval()`, a call of a
// function that returns a model it switched to evaluation mode) to the
// next switch back to training mode (`model.train()`, or a call of a
// function that does it); a function named for evaluation is one region
// from its start; a forward pass of a model that its class switches to
// evaluation mode and never back opens one over its method.
func evalForwards(m *analyzer.Model, fn analyzer.NodeID) []evalFinding {
	f := m.File
	if testCode(m, fn) {
		return nil
	}
	// A model's own methods run in their callers' grad mode: they are
	// judged only where they switch to evaluation mode themselves.
	class := m.EnclosingClass(fn)
	moduleMethod := fn != analyzer.Root && class != analyzer.NoNode && m.IsModuleClass(class)
	if moduleMethod && (m.FunctionName(fn) == "forward" || m.FunctionName(fn) == "__call__") {
		return nil // called through the module, in whatever grad mode its caller has
	}
	// A function named for evaluation that back-propagates or asks for
	// gradients needs them (saliency, test-time training): only the
	// regions it switches to evaluation mode are judged.
	// So does one whose result a caller back-propagates (a policy's
	// `evaluate` that returns the log-probability of a sampled action).
	trains := fn == analyzer.Root || moduleMethod || usesGradients(m, fn, f.N(fn).Start) || m.ResultBackpropagated(fn) || returnsPolicyTerms(m, fn)
	named := !trains && namesEvaluation(m.FunctionName(fn))
	// So is one every call of which, in the project, hands it a model
	// switched to evaluation mode, whatever its name: it is reported here,
	// where `@torch.no_grad()` goes, rather than at its calls.
	var callers []analyzer.ParamCall
	if !trains && !named {
		callers = m.EvalCalls(fn)
	}
	// A method's callers are often out of the project's sight (a script
	// or a framework's loop, under no_grad): there, a helper's forward
	// pass counts only in a region the method opened itself.
	method := fn != analyzer.Root && class != analyzer.NoNode
	evalAttrs := classEvalAttrs(m, class)
	end := f.N(fn).End

	var regions []*evalRegion
	var byName, attrRegion *evalRegion
	open := map[string]*evalRegion{} // explicit regions by the model they switched
	if named {
		byName = &evalRegion{first: analyzer.NoNode, dead: analyzer.NoNode, sw: analyzer.NoNode, start: f.N(fn).Start, end: end, why: fmt.Sprintf("in `%s`", m.FunctionName(fn)),
			smoke: namesTest(m.FunctionName(fn))}
		regions = append(regions, byName)
	} else if callers != nil {
		c := callers[0].Site
		byName = &evalRegion{first: analyzer.NoNode, dead: analyzer.NoNode, sw: analyzer.NoNode, start: f.N(fn).Start, end: end,
			why: fmt.Sprintf("in `%s`, which every caller hands a model it switched to evaluation mode (%s)", m.FunctionName(fn), c.Where())}
		regions = append(regions, byName)
	}
	hostOnly, keptHost, flagCall := analyzer.NoNode, analyzer.NoNode, analyzer.NoNode
	var hostMore []analyzer.NodeID // later passes of fn whose outputs only reach the host
	hostReached := true            // hostOnly's outputs reach the host, not only ends of other kinds
	// The first such pass in a loop of each later cell of a notebook's
	// module-level code, whose no_grad goes in that cell: a finding of
	// its own (a cell's one demo pass costs one graph).
	var cellHost []evalFinding
	// endsAnyWay: fn neither back-propagates in its own body nor returns
	// a graph (a training step's target passes are detached for its
	// loss; a rollout's update may be a helper's). Asked once, of the
	// first pass that needs it.
	var endsAnyWay *bool
	// endsUnused reports whether the graph of a pass's outputs ends
	// before any differentiation: they only reach the host (endedOnHost
	// then says so), or, where endsAnyWay, every way they go in fn ends
	// their graph (a rollout's values stored for an update that detaches
	// them), other than at once (`G(z).detach()`, which frees them there).
	endedOnHost := false
	endsUnused := func(id analyzer.NodeID, direct bool) bool {
		if endedOnHost = outputsOnlyToHost(m, id); endedOnHost {
			return true
		}
		if !direct || droppedAtOnce(m, id) != "" {
			return false
		}
		if endsAnyWay == nil {
			// Module-level code too (a script's or a notebook's rollout, a
			// GAN's training loop), outside a tests folder (a script that
			// runs the model to see that it runs).
			v := !moduleMethod && !m.Backpropagates(fn) && !m.ResultBackpropagated(fn) &&
				!returnsPolicyTerms(m, fn) && !m.ReturnsGraph(fn) &&
				(fn != analyzer.Root || !inTestsFolder(f.Path))
			endsAnyWay = &v
		}
		return *endsAnyWay && graphEndsHere(m, id)
	}
	// openSwitch opens the explicit region of a switch to evaluation mode
	// of the model key, up to stop.
	openSwitch := func(sw analyzer.NodeID, key string, stop uint32, tested bool) {
		quoted, n := sw, 40
		if p := f.Parent(sw); f.Kind(p) == analyzer.KindConditionalExpression {
			quoted, n = p, 60 // `model.train() if training else model.eval()`
		}
		r := &evalRegion{first: analyzer.NoNode, dead: analyzer.NoNode, dry: analyzer.NoNode, start: f.N(sw).Start, end: stop, explicit: true, key: key, sw: sw,
			tested: tested, why: "after " + code(m, quoted, n, "the switch to evaluation mode")}
		open[key] = r
		regions = append(regions, r)
	}
	var gradUses []analyzer.NodeID
	f.Walk(fn, func(id analyzer.NodeID) {
		k := f.Kind(id)
		if k == analyzer.KindCall {
			// `for net in (G, D): net.eval()`, `[m.eval() for m in
			// (enc, dec)]`: a switch of each model the loop names, from
			// here to the end of the function.
			if eval, names := loopedSwitch(m, id); names != nil && (m.ScopeNode(id) == fn || m.EnclosingFunction(id) == m.EnclosingFunction(fn)) {
				for _, key := range names {
					switch r := open[key]; {
					case eval && r == nil && (byName == nil || byName.end != end):
						openSwitch(id, key, end, false)
					case !eval && r != nil:
						r.end = f.N(id).Start // `for m in (enc, dec): m.train()`
						delete(open, key)
					}
				}
				return
			}
		}
		if k != analyzer.KindCall && k != analyzer.KindAssignment || m.ScopeNode(id) != fn {
			return
		}
		at := f.N(id).Start
		for k, r := range open {
			if r.end <= at {
				delete(open, k) // a region that ended with its loop's iteration
			}
		}
		if gradientUse(m, id) {
			gradUses = append(gradUses, id)
		}
		if k != analyzer.KindCall {
			closeRebound(m, id, open, at)
			return
		}
		switch sw, key := modeSwitchOf(m, id); sw {
		case switchEval:
			if p := f.Parent(id); f.Kind(p) == analyzer.KindConditionalExpression {
				if arms := f.ChildList(p); len(arms) == 3 && arms[2] == id && switchTest(m, f.Unparen(arms[0])) != analyzer.NoNode {
					return // `model.train() if training else model.eval()`: the tested switch its first arm opened
				}
			}
			if byName != nil && byName.end == end && byName.sw == analyzer.NoNode {
				byName.sw, byName.key = id, key // the function named for evaluation switches to it too
			}
			if prev := open[key]; prev != nil && prev.tested {
				prev.end = at
				delete(open, key)
			}
			if prev := open[key]; (prev == nil || analyzer.ExclusiveBranches(f, prev.sw, id)) && (byName == nil || byName.end != end) {
				openSwitch(id, key, loopRegionEnd(m, id, key, end), false)
			}
			return
		case switchTrain:
			for k, r := range open {
				if (key == "" || k == key) && !conditionalSince(m, id, r.start) {
					// A switch back under an if opened after the region may
					// not run: the region goes on past it.
					r.end = at
					delete(open, k)
				}
			}
			if byName != nil && byName.end == end {
				byName.end = at
			}
			if testedSwitch(m, fn, id) {
				// `self.net.train(phase == "train")`, the backward under
				// `if phase == "train":`: evaluation mode where the test
				// does not hold, and the passes there a region of their own,
				// up to the end of the loop that runs the switch each time.
				stop := end
				if loop := m.EnclosingLoop(id); loop != analyzer.NoNode && m.ScopeNode(loop) == fn {
					stop = f.N(loop).End
				}
				openSwitch(id, key, stop, true)
			}
			return
		}
		if g, known := m.GradModeKnown(id); known && g != analyzer.GradEnabled || unreachable(m, id) || m.OffByDefault(fn, id) {
			return
		}
		direct := m.IsForwardCall(id) && !notForward(m, id)
		if !direct && helperForward(m, id) == nil || frozen(m, id) {
			return
		}
		cur := openRegion(m, id, open)
		if cur == nil && byName != nil && byName.end == end {
			cur = byName
		}
		inClass := !moduleMethod && evalAttrs[receiverText(m, id)]
		kept := inClass || keptInEval(m, id)
		// A region the method opened itself: by a switch to evaluation
		// mode, also in a method named for evaluation (its switch, before
		// this call).
		opened := cur != nil && (cur.explicit || !method || cur.sw != analyzer.NoNode && f.N(cur.sw).Start < at) || kept
		// A call that turns off every backward() of the helper it runs
		// (`self.iteration(epoch, data, train=False)`) says the passes
		// train nothing: in a method named for evaluation (`test`), it
		// opens the region; where no region holds it (`run_epoch(model,
		// val_loader, train=False)` in a script's main), it is judged
		// alone, if what it returns is dropped or read on the host.
		flagged := false
		if !direct && (cur == nil || !opened) {
			if _, skips := m.SkippingFlag(id); skips && cur != nil {
				opened = true
			} else if skips {
				flagged = discarded(m, id) || outputsOnlyToHost(m, id)
			}
		}
		// A helper whose forward passes only reach its return value
		// (cleanHelper) is judged by where the call's result goes, in a
		// method too.
		if !direct && (method && !opened && !cleanHelper(m, id) && !flagged || reportedInBody(m, id)) {
			return
		}
		// The grad mode last, where the rest holds (see GradModeKnown).
		if m.GradModeAt(id) != analyzer.GradEnabled {
			return
		}
		switch {
		case cur != nil:
			switch {
			case cur.first != analyzer.NoNode || !direct && !opened:
				if cur.first != analyzer.NoNode && direct && len(cur.more) < maxMore && !smokeTest(m, id) &&
					!returnedForBackward(m, fn, id) && f.Position(f.N(id).Start).Line != f.Position(f.N(cur.first).Start).Line &&
					f.SameCell(f.N(cur.first).End, f.N(id).Start) {
					// In a notebook, a no_grad block does not span cells.
					cur.more = append(cur.more, id)
				}
			case (!cur.smoke || !smokeTest(m, id)) && (!cur.explicit || !dummyInput(m, id) && !returnedForBackward(m, fn, id)) &&
				(!smokeTest(m, id) || !discarded(m, id) && !shapeOnly(m, id, 0)):
				cur.first = id
			case cur.explicit && cur.dry == analyzer.NoNode && direct && !returnedForBackward(m, fn, id) && smokeTest(m, id):
				// A pass on random or constant inputs after the switch: a
				// dry run, or a sample drawn from noise. One graph, kept
				// in case nothing else in the region runs.
				cur.dry = id
			}
			if cur.explicit && direct && cur.dead == analyzer.NoNode && !dummyInput(m, id) && switchedModel(m, id, cur.key) && rawKept(m, id) &&
				!gradientUse(m, id) && graphEndsApart(m, id, cur.sw) {
				cur.dead = id
			}
		case kept:
			// Judged as host-only too, should the method back-propagate
			// another graph (a periodic sample of a generator its class
			// switches to evaluation mode elsewhere).
			if keptHost == analyzer.NoNode && !moduleMethod && !smokeTest(m, id) && direct && !gradientUse(m, id) && outputsOnlyToHost(m, id) {
				keptHost = id
			}
			if attrRegion == nil {
				why := fmt.Sprintf("on `%s`, which its class switches to evaluation mode and never back", receiverText(m, id))
				if !inClass {
					why = fmt.Sprintf("on `%s`, which this module switches to evaluation mode and never back", f.Text(modelExpr(m, id)))
				}
				attrRegion = &evalRegion{dead: analyzer.NoNode, start: f.N(fn).Start, end: end, first: id, why: why}
				regions = append(regions, attrRegion)
			}
		case flagged:
			if flagCall == analyzer.NoNode {
				flagCall = id
			}
		case !smokeTest(m, id) && (direct || cleanHelper(m, id)) && !gradientUse(m, id) && !backpropsOwnState(m, id) && endsUnused(id, direct):
			last := hostOnly // the pass of the latest finding
			if len(cellHost) > 0 {
				last = cellHost[len(cellHost)-1].call
			}
			switch {
			case hostOnly == analyzer.NoNode:
				hostOnly, hostReached = id, endedOnHost
			case !f.SameCell(f.N(last).End, f.N(id).Start):
				if direct && fn == analyzer.Root && endedOnHost && m.EnclosingLoop(id) != analyzer.NoNode {
					cellHost = append(cellHost, evalFinding{call: id, why: "whose outputs only reach the host", sw: analyzer.NoNode, end: end, host: true})
				}
			case direct && last == hostOnly && len(hostMore) < maxMore && f.Position(f.N(id).Start).Line != f.Position(f.N(hostOnly).Start).Line:
				hostMore = append(hostMore, id)
			}
		}
	})
	var out []evalFinding
	for _, r := range regions {
		first, trained := r.first, anyWithin(f, gradUses, r.start, r.end)
		apart, skipped, needs := analyzer.NoNode, analyzer.NoNode, false
		if trained && r.explicit && r.sw != analyzer.NoNode {
			// A backward that never runs where the switch did (`if phase
			// == "train": loss.backward()`, the switch in the else of the
			// same test) trains nothing here.
			trained = false
			for _, g := range gradUses {
				if at := f.N(g).Start; at < r.start || at >= r.end {
					continue
				}
				if !exclusiveArms(m, r.sw, g) {
					trained = true
					break
				}
				if apart == analyzer.NoNode && m.IsBackwardCall(g) {
					if test, holds, ok := exclusiveTest(m, r.sw, g); ok {
						apart, needs = f.Unparen(test), holds
					} else {
						var test analyzer.NodeID
						test, needs = enclosingArm(f, g)
						apart = f.Unparen(f.Field(test, analyzer.FieldCondition))
					}
					skipped = g
				}
			}
			if !trained && paramTest(m, fn, apart) {
				// A test on the function's parameters: the evaluating arm
				// runs with grad only where a call that takes it does
				// (`run_epoch(model, val, train=False)` outside no_grad).
				if found, ok := m.ArmWithGrad(fn, apart, !needs); ok && !found {
					continue
				}
			}
		}
		dry := first == analyzer.NoNode && r.explicit && r.dry != analyzer.NoNode && !trained
		if dry {
			first = r.dry
		}
		if trained {
			first = r.dead
			if r == attrRegion && hostOnly == analyzer.NoNode {
				hostOnly = keptHost
			}
		}
		if first != analyzer.NoNode {
			e := evalFinding{call: first, why: r.why, named: r == byName && callers == nil, sw: analyzer.NoNode, end: r.end, detached: trained, dry: dry}
			if !trained && apart != analyzer.NoNode && !exclusiveArms(m, first, skipped) && inOneLoop(m, first, skipped) {
				// The pass runs in both arms: a phase that trains and one
				// that evaluates share it.
				e.split, e.apart, e.needs = true, apart, needs
			}
			if r == byName {
				e.callers = callers
			}
			if !trained && !dry {
				e.more = r.more
			}
			if r.explicit || r == byName && r.sw != analyzer.NoNode && f.N(r.sw).Start < f.N(first).Start {
				e.sw, e.key = r.sw, r.key
			}
			out = append(out, e)
		}
	}
	if flagCall != analyzer.NoNode && !slices.ContainsFunc(out, func(e evalFinding) bool { return e.call == flagCall }) {
		why := "in `" + m.FunctionName(fn) + "`"
		if fn == analyzer.Root {
			why = "at module level"
		}
		out = append(out, evalFinding{call: flagCall, why: why, sw: analyzer.NoNode, end: end})
	}
	if hostOnly != analyzer.NoNode {
		why := "whose outputs only reach the host"
		if !hostReached {
			why = "whose outputs reach no backward(): every way they go ends their graph first"
		}
		if at, what := indicesOnDevice(m, hostOnly); at != analyzer.NoNode {
			carry := "carry"
			if what == "a mask" {
				carry = "carries"
			}
			why = fmt.Sprintf("whose outputs only become %s (`%s`), which %s no graph", what, analyzer.Snippet(compactText(f, at), 40), carry)
		}
		out = append(out, evalFinding{call: hostOnly, why: why, sw: analyzer.NoNode, end: end, host: true, more: hostMore})
		out = append(out, cellHost...)
	}
	return out
}

// loopRegionEnd returns where a region opened by switch call sw on model
// key ends when no later switch ends it: at the end of the body of the
// innermost loop around it that switches the model back to training
// before it (`for epoch: model.train(); ...; model.eval(); validate`),
// since the next iteration trains again; else at end.
func loopRegionEnd(m *analyzer.Model, sw analyzer.NodeID, key string, end uint32) uint32 {
	f := m.File
	loop := m.EnclosingLoop(sw)
	if loop == analyzer.NoNode || m.ScopeNode(loop) != m.ScopeNode(sw) {
		return end
	}
	trains := false
	f.Walk(loop, func(id analyzer.NodeID) {
		if !trains && f.Kind(id) == analyzer.KindCall && f.N(id).Start < f.N(sw).Start {
			if s, k := modeSwitchOf(m, id); s == switchTrain && (k == key || k == "") {
				trains = true
			}
		}
	})
	if !trains {
		return end
	}
	return f.N(loop).End
}

// openRegion returns the open evaluation region of the model a call
// runs: the region opened by `model.eval()` holds `model(x)`,
// `model.module(x)`, `model.generate(x)` and `evaluate(model, x)`, not a
// forward pass of another model; the region opened by `self.eval()` in a
// model's method holds its submodules. Nil when none is open.
func openRegion(m *analyzer.Model, call analyzer.NodeID, open map[string]*evalRegion) *evalRegion {
	if len(open) == 0 {
		return nil
	}
	f := m.File
	var best *evalRegion
	try := func(e analyzer.NodeID) {
		text := compactText(f, f.Unparen(e))
		for key, r := range open {
			if exclusiveArms(m, r.sw, call) {
				continue // `if frozen: m.eval() ... else: m(x)`: the else arm trains
			}
			if text == key || strings.HasPrefix(text, key+".") || key == "self" && strings.HasPrefix(text, "self") {
				if best == nil || r.start < best.start {
					best = r
				}
			}
		}
	}
	fn := f.Unparen(f.Field(call, analyzer.FieldFunction))
	try(fn)
	if f.Kind(fn) == analyzer.KindAttribute {
		try(f.Field(fn, analyzer.FieldObject))
	}
	if v := f.Unparen(m.AssignedValue(fn)); best == nil && f.Kind(v) == analyzer.KindAttribute {
		try(v) // `encoder = self.vae.encode`: a submodule of the model switched
	}
	// A model given to a function (`evaluate(model, x)`) is run by it;
	// a value given to another model's forward pass is its input.
	if !m.IsForwardCall(call) {
		for _, a := range m.Args(call) {
			if f.Kind(a) == analyzer.KindKeywordArgument {
				a = f.Field(a, analyzer.FieldValue)
			}
			try(a)
		}
	}
	if best == nil {
		// A helper nested in this function runs the model it closes over;
		// a method of the same class called on self, the models of self.
		if def := m.LocalCallee(call); def != analyzer.NoNode && (f.Contains(m.ScopeNode(call), def) || selfMethodCall(m, call, def)) {
			if h := helperForward(m, call); h != nil && h.Forward != nil {
				if callee, _, ok := strings.Cut(h.Forward.Text, "("); ok {
					for key, r := range open {
						if callee == key || strings.HasPrefix(callee, key+".") {
							best = r
						}
					}
				}
			}
		}
	}
	if best == nil {
		// A function of the module that runs a model of the module by its
		// global name (`model.emit_one(d)` in `retrieve`, called after
		// `model.eval()`), as a nested helper runs the model it closes over.
		if def := m.LocalCallee(call); def != analyzer.NoNode && m.ScopeNode(def) == analyzer.Root && helperForward(m, call) != nil {
			for key, r := range open {
				if (best == nil || r.start < best.start) && !exclusiveArms(m, r.sw, call) && globalModel(m, r.sw) && runsGlobal(m, def, key) {
					best = r
				}
			}
		}
	}
	if r := open[""]; best == nil && r != nil && !exclusiveArms(m, r.sw, call) {
		// A switch of modules the call does not name (`net_mode(train=False)`,
		// which switches what it loops over): any model's pass.
		best = r
	}
	return best
}

// globalModel reports whether sw, a switch to evaluation mode, switches
// a model the module binds (`model.eval()`, model a global name) and
// does not freeze.
func globalModel(m *analyzer.Model, sw analyzer.NodeID) bool {
	recv := m.File.Unparen(m.Receiver(sw))
	return m.File.Kind(recv) == analyzer.KindIdentifier && globalRef(m, recv) && !frozenModels(m).frozenAt(m, recv, sw)
}

// globalRef reports whether id, a name, refers to a binding of the
// module: none of its function's.
func globalRef(m *analyzer.Model, id analyzer.NodeID) bool {
	b := m.Resolve(id)
	return b != nil && m.ScopeNode(b.Stmt) == analyzer.Root
}

// runsGlobal reports whether def calls the model the module binds to
// name, or a method of it (`model(d)`, `model.emit_one(d)`).
func runsGlobal(m *analyzer.Model, def analyzer.NodeID, name string) bool {
	f := m.File
	found := false
	f.Walk(f.Field(def, analyzer.FieldBody), func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != def {
			return
		}
		callee := f.Unparen(f.Field(id, analyzer.FieldFunction))
		if f.Kind(callee) == analyzer.KindAttribute {
			callee = f.Unparen(f.Field(callee, analyzer.FieldObject))
		}
		found = f.Kind(callee) == analyzer.KindIdentifier && f.TextIs(callee, name) && globalRef(m, callee)
	})
	return found
}

// exclusiveArms reports whether a and b never both run: they sit in
// two arms of one if, or in opposite arms of two ifs that test the same
// name, which the function never assigns (`if cross_valid: model.eval()`
// then, later, `if cross_valid: ... else: model(x)`).
func exclusiveArms(m *analyzer.Model, a, b analyzer.NodeID) bool {
	if analyzer.ExclusiveBranches(m.File, a, b) {
		return true
	}
	_, _, ok := exclusiveTest(m, a, b)
	return ok
}

// exclusiveTest returns the test whose value keeps a and b apart, and
// whether it holds where b runs: `if phase == "train":` around one and
// its else around the other, or `if not is_validate and fp16:` around
// one and `if is_validate:` around the other, the test keeping its
// value between them (constantTest). A switch `model.train(test)` at a
// is to evaluation mode where test does not hold.
func exclusiveTest(m *analyzer.Model, a, b analyzer.NodeID) (test analyzer.NodeID, holds, ok bool) {
	f := m.File
	ib, tb := armTests(f, b)
	if ib == analyzer.NoNode {
		return analyzer.NoNode, false, false
	}
	if t := switchTest(m, a); t != analyzer.NoNode {
		for _, y := range tb {
			if y.holds && compactText(f, y.test) == compactText(f, t) && constantTest(m, m.ScopeNode(a), t, a, ib) {
				return y.test, true, true
			}
		}
		return analyzer.NoNode, false, false
	}
	ia, ta := armTests(f, a)
	if ia == analyzer.NoNode {
		return analyzer.NoNode, false, false
	}
	fn := m.ScopeNode(ia)
	if fn != m.ScopeNode(ib) {
		return analyzer.NoNode, false, false
	}
	for _, x := range ta {
		for _, y := range tb {
			if x.holds != y.holds && compactText(f, x.test) == compactText(f, y.test) &&
				(ia == ib || constantTest(m, fn, f.Unparen(x.test), ia, ib)) {
				return y.test, y.holds, true
			}
		}
	}
	return analyzer.NoNode, false, false
}

// armTest is a test that holds, or does not, wherever an arm runs.
type armTest struct {
	test  analyzer.NodeID
	holds bool
}

// armTests returns the nearest if statement around id, in the function
// of id, and the tests whose value running id implies: the condition of
// the arm it is in, those of the arms before it, not holding, and the
// parts of each that `and`, `or` and `not` imply (`if not val and fp16:`
// implies that val does not hold).
func armTests(f *analyzer.File, id analyzer.NodeID) (analyzer.NodeID, []armTest) {
	for c, p := id, f.Parent(id); p != analyzer.NoNode; c, p = p, f.Parent(p) {
		switch f.Kind(p) {
		case analyzer.KindFunctionDefinition, analyzer.KindLambda, analyzer.KindClassDefinition:
			return analyzer.NoNode, nil
		case analyzer.KindIfStatement:
			var out []armTest
			before := []analyzer.NodeID{f.Field(p, analyzer.FieldCondition)}
			switch {
			case f.Field(p, analyzer.FieldConsequence) == c:
				return p, impliedTests(f, before[0], true, out)
			case f.Kind(c) == analyzer.KindElifClause:
				if f.Contains(f.Field(c, analyzer.FieldCondition), id) {
					return analyzer.NoNode, nil
				}
				for _, e := range f.ChildList(p) {
					if e == c {
						break
					}
					if f.Kind(e) == analyzer.KindElifClause {
						before = append(before, f.Field(e, analyzer.FieldCondition))
					}
				}
				out = impliedTests(f, f.Field(c, analyzer.FieldCondition), true, out)
			case f.Kind(c) == analyzer.KindElseClause:
				for _, e := range f.ChildList(p) {
					if f.Kind(e) == analyzer.KindElifClause {
						before = append(before, f.Field(e, analyzer.FieldCondition))
					}
				}
			default:
				return analyzer.NoNode, nil // its condition
			}
			for _, t := range before {
				out = impliedTests(f, t, false, out)
			}
			return p, out
		}
	}
	return analyzer.NoNode, nil
}

// impliedTests appends to out the tests that cond holding (or not, by
// holds) implies: cond itself, or the parts of `a and b` that hold, of
// `a or b` that do not, of `not a` the opposite.
func impliedTests(f *analyzer.File, cond analyzer.NodeID, holds bool, out []armTest) []armTest {
	cond = f.Unparen(cond)
	switch f.Kind(cond) {
	case analyzer.KindNotOperator:
		return impliedTests(f, f.Field(cond, analyzer.FieldArgument), !holds, out)
	case analyzer.KindBooleanOperator:
		if op := f.Field(cond, analyzer.FieldOperator); holds && f.TextIs(op, "and") || !holds && f.TextIs(op, "or") {
			out = impliedTests(f, f.Field(cond, analyzer.FieldLeft), holds, out)
			return impliedTests(f, f.Field(cond, analyzer.FieldRight), holds, out)
		}
	}
	return append(out, armTest{test: cond, holds: holds})
}

// constantTest reports whether test, read at ia and at ib in fn, has the
// same value at both: a name fn never assigns, or a comparison of such
// names and literals (`if phase == "train":` twice in one iteration of
// `for phase in ["train", "val"]`).
func constantTest(m *analyzer.Model, fn, test, ia, ib analyzer.NodeID) bool {
	f := m.File
	if fn != m.ScopeNode(ib) {
		return false
	}
	switch f.Kind(test) {
	case analyzer.KindIdentifier, analyzer.KindAttribute:
		vals := m.AssignmentsIn(fn)[compactText(f, test)]
		if len(vals) == 1 && f.Kind(test) == analyzer.KindIdentifier && vals[0] != analyzer.NoNode {
			// `train = (phase == "train")`, once, before both and in no
			// loop of fn that does not hold both: the value of its own
			// test, which must be constant in turn.
			v := f.Unparen(vals[0])
			loop := m.EnclosingLoop(v)
			return v != test && f.N(v).End <= f.N(ia).Start && f.N(v).End <= f.N(ib).Start &&
				(loop == analyzer.NoNode || !f.Contains(fn, loop) || f.Contains(loop, ia) && f.Contains(loop, ib)) &&
				f.Kind(v) != analyzer.KindIdentifier && constantTest(m, fn, v, ia, ib)
		}
		return len(vals) == 0
	case analyzer.KindComparisonOperator:
		return loopConstant(m, fn, test, ia, ib)
	}
	return false
}

// switchTest returns the test of `model.train(test)`, a switch whose
// mode a test decides (not a literal), or NoNode for any other call.
func switchTest(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	f := m.File
	if f.Kind(call) != analyzer.KindCall {
		return analyzer.NoNode
	}
	if _, train := m.ModeSwitch(call); !train || m.MethodName(call) != "train" {
		return analyzer.NoNode
	}
	args := m.Args(call)
	if p := f.Parent(call); len(args) == 0 && f.Kind(p) == analyzer.KindConditionalExpression {
		// `model.train() if training else model.eval()`: `model.train(training)`.
		if arms := f.ChildList(p); len(arms) == 3 && arms[0] == call && m.MethodName(f.Unparen(arms[2])) == "eval" &&
			compactText(f, m.Receiver(f.Unparen(arms[2]))) == compactText(f, m.Receiver(call)) {
			return f.Unparen(arms[1])
		}
		return analyzer.NoNode
	}
	if len(args) != 1 || f.Kind(args[0]) == analyzer.KindKeywordArgument {
		return analyzer.NoNode
	}
	switch test := f.Unparen(args[0]); f.Kind(test) {
	case analyzer.KindIdentifier, analyzer.KindAttribute, analyzer.KindComparisonOperator:
		return test
	}
	return analyzer.NoNode
}

// testedSwitch reports whether call, `model.train(test)` in function fn,
// switches to evaluation mode where its test does not hold, and fn runs
// a backward only under `if test:` after it (the same test, of the same
// value): a phase that trains and one that evaluates.
func testedSwitch(m *analyzer.Model, fn, call analyzer.NodeID) bool {
	f := m.File
	test := switchTest(m, call)
	if test == analyzer.NoNode {
		return false
	}
	if paramTest(m, fn, test) {
		// `model.train(training)`: not evaluation where every call of
		// the file, all of them seen, keeps the flag on or disables grad.
		if found, ok := m.ArmWithGrad(fn, test, false); ok && !found {
			return false
		}
	}
	guarded := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if guarded || f.Kind(id) != analyzer.KindCall || f.N(id).Start < f.N(call).End || m.ScopeNode(id) != fn || !m.IsBackwardCall(id) {
			return
		}
		guarded = exclusiveArms(m, call, id)
	})
	return guarded
}

// paramTest reports whether the test cond reads a parameter of fn.
func paramTest(m *analyzer.Model, fn, cond analyzer.NodeID) bool {
	f := m.File
	if cond == analyzer.NoNode || fn == analyzer.Root {
		return false
	}
	found := false
	f.Walk(cond, func(id analyzer.NodeID) {
		if b := m.Resolve(id); !found && f.Kind(id) == analyzer.KindIdentifier && b != nil && b.Kind == analyzer.BindParam && m.ScopeNode(id) == fn {
			found = true
		}
	})
	return found
}

// loopConstant reports whether cond, a comparison, compares only
// literals and names that keep their value between the ifs ia and ib:
// names fn never assigns, each the target of a for loop around both
// or bound nowhere in fn.
func loopConstant(m *analyzer.Model, fn, cond, ia, ib analyzer.NodeID) bool {
	f := m.File
	names := 0
	ok := true
	f.Children(cond, func(c analyzer.NodeID) bool {
		switch c = f.Unparen(c); f.Kind(c) {
		case analyzer.KindString, analyzer.KindInteger, analyzer.KindTrue, analyzer.KindFalse, analyzer.KindNone:
		case analyzer.KindIdentifier:
			names++
			ok = len(m.AssignmentsIn(fn)[f.Text(c)]) == 0 && !loopTargetElsewhere(m, fn, f.Text(c), ia, ib)
		default:
			ok = f.Kind(c) == analyzer.KindComparisonOperator
		}
		return ok
	})
	return ok && names > 0
}

// loopTargetElsewhere reports whether name is the target of a for loop
// of fn that does not hold both ia and ib: a value that may change
// between them.
func loopTargetElsewhere(m *analyzer.Model, fn analyzer.NodeID, name string, ia, ib analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindForStatement || m.ScopeNode(id) != fn {
			return
		}
		t := f.Field(id, analyzer.FieldLeft)
		binds := false
		f.Walk(t, func(c analyzer.NodeID) {
			binds = binds || f.Kind(c) == analyzer.KindIdentifier && f.Text(c) == name
		})
		if body := f.Field(id, analyzer.FieldBody); binds && (!f.Contains(body, ia) || !f.Contains(body, ib)) {
			found = true
		}
	})
	return found
}

// enclosingArm returns the nearest if statement without elif around id,
// and whether id is in its consequence (true) or its else (false).
func enclosingArm(f *analyzer.File, id analyzer.NodeID) (analyzer.NodeID, bool) {
	for c, p := id, f.Parent(id); p != analyzer.NoNode; c, p = p, f.Parent(p) {
		switch f.Kind(p) {
		case analyzer.KindFunctionDefinition, analyzer.KindLambda, analyzer.KindClassDefinition:
			return analyzer.NoNode, false
		case analyzer.KindIfStatement:
			if slices.ContainsFunc(f.ChildList(p), func(n analyzer.NodeID) bool { return f.Kind(n) == analyzer.KindElifClause }) {
				return analyzer.NoNode, false
			}
			switch {
			case f.Field(p, analyzer.FieldConsequence) == c:
				return p, true
			case f.Kind(c) == analyzer.KindElseClause:
				return p, false
			}
			return analyzer.NoNode, false // its condition
		}
	}
	return analyzer.NoNode, false
}

// switchedModel reports whether a forward call runs the model a switch
// to evaluation mode switched (key), or a submodule of it.
func switchedModel(m *analyzer.Model, call analyzer.NodeID, key string) bool {
	f := m.File
	callee := compactText(f, f.Unparen(f.Field(call, analyzer.FieldFunction)))
	return key != "" && (callee == key || strings.HasPrefix(callee, key+"."))
}

// droppedAtOnce says what ends a forward call's output in its own
// statement, keeping none of its graph: the method (`model(x).argmax(1)`,
// `net(x).detach()`, also at the end of a chain of tensor methods and
// indexing, `target(s).max(1)[0].detach()`) or the attribute
// (`G(z).data`) that takes it off, or nothing holding it (`model(x)` as a
// statement of its own, a warm-up); "" where the output is kept.
func droppedAtOnce(m *analyzer.Model, call analyzer.NodeID) string {
	f := m.File
	call = throughPassThrough(m, call)
	if p := f.Parent(call); f.Kind(p) == analyzer.KindExpressionStatement && !f.CellDisplays(p) {
		return "nothing holds the output, which frees them at once"
	}
	if next := detachedNext(m, call); next != analyzer.NoNode {
		return "the next statement, `" + analyzer.Snippet(f.Text(next), 60) + "`, drops the output's graph, which frees them"
	}
	for depth := 0; depth < 8; depth++ {
		attr := f.Parent(call)
		if f.Kind(attr) == analyzer.KindSubscript && f.Field(attr, analyzer.FieldValue) == call {
			call = attr // `out.max(1)[0]`: a part of it, still a temporary
			continue
		}
		if f.Kind(attr) != analyzer.KindAttribute || f.Field(attr, analyzer.FieldObject) != call {
			return ""
		}
		name := f.Text(f.Field(attr, analyzer.FieldAttribute))
		if f.Kind(f.Parent(attr)) != analyzer.KindCall || f.Field(f.Parent(attr), analyzer.FieldFunction) != attr {
			if name == "data" {
				return "`.data` drops the output at once, which frees them" // `G(z).data`: the tensor without its history
			}
			return ""
		}
		switch name {
		case "detach", "item", "tolist", "argmax", "argmin":
			return "`." + name + "()` drops the output at once, which frees them"
		}
		if !analyzer.TensorMethod(name) && !passThroughMethods[name] {
			return ""
		}
		call = f.Parent(attr) // `.max(1)`, `.gather(1, a)`: a temporary made of it
	}
	return ""
}

// detachedNext returns the statement right after `out = call` that
// rebinds out to itself without its history (`out = out.detach()`,
// `out = out.cpu().detach()`, `out = out.data`), or NoNode.
func detachedNext(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	f := m.File
	a := f.Parent(call)
	if f.Kind(a) != analyzer.KindAssignment || f.Field(a, analyzer.FieldRight) != call || f.Kind(f.Parent(a)) != analyzer.KindExpressionStatement {
		return analyzer.NoNode
	}
	name := f.Field(a, analyzer.FieldLeft)
	if f.Kind(name) != analyzer.KindIdentifier {
		return analyzer.NoNode
	}
	next := f.NextStatement(f.Parent(a))
	b := f.FirstChild(next)
	if f.Kind(next) != analyzer.KindExpressionStatement || f.Kind(b) != analyzer.KindAssignment || !f.TextIs(f.Field(b, analyzer.FieldLeft), f.Text(name)) {
		return analyzer.NoNode
	}
	// The right side: a chain of tensor methods and `.data` on the name,
	// one of which drops the history.
	dropped := false
	for e := f.Unparen(f.Field(b, analyzer.FieldRight)); ; {
		switch f.Kind(e) {
		case analyzer.KindIdentifier:
			if dropped && f.TextIs(e, f.Text(name)) {
				return next
			}
			return analyzer.NoNode
		case analyzer.KindCall:
			e = f.Unparen(f.Field(e, analyzer.FieldFunction))
			if f.Kind(e) != analyzer.KindAttribute {
				return analyzer.NoNode
			}
			method := f.Text(f.Field(e, analyzer.FieldAttribute))
			if method != "detach" && method != "numpy" && method != "item" && method != "tolist" && !passThroughMethods[method] {
				return analyzer.NoNode
			}
			// `.numpy()` raises on a tensor that requires grad: valid
			// only after what dropped it, as `.item()` and `.tolist()`
			// leave no tensor at all.
			dropped = dropped || method == "detach" || method == "item" || method == "tolist"
			e = f.Unparen(f.Field(e, analyzer.FieldObject))
		case analyzer.KindAttribute:
			if !f.TextIs(f.Field(e, analyzer.FieldAttribute), "data") {
				return analyzer.NoNode
			}
			dropped = true
			e = f.Unparen(f.Field(e, analyzer.FieldObject))
		default:
			return analyzer.NoNode
		}
	}
}

// rawToNumpy reports whether what call returns is handed as it is to a
// NumPy function that reads it as an array (numpyReads: `np.argmax(model(x),
// 1)`, or `probas = model(x)` then `np.argmax(probas, 1)` later in the
// same block): `numpy()` raises for a tensor that requires grad
// ("Can't call numpy() on Tensor that requires grad"), so on every run
// that gets there the pass recorded no graph, or is no torch model's. A
// tuple of outputs counts only for a model known by its name alone: one
// element may have been detached inside.
func rawToNumpy(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	numpyArg := func(e analyzer.NodeID) bool {
		args := f.Parent(e)
		return f.Kind(args) == analyzer.KindArgumentList && numpyReads[m.CallName(f.Parent(args))] && m.Args(f.Parent(args))[0] == e
	}
	x := call
	for p := f.Parent(x); f.Kind(p) == analyzer.KindParenthesizedExpression; p = f.Parent(x) {
		x = p
	}
	if numpyArg(x) {
		return true
	}
	a := f.Parent(x)
	if f.Kind(a) != analyzer.KindAssignment || f.Field(a, analyzer.FieldRight) != x || f.Kind(f.Parent(a)) != analyzer.KindExpressionStatement {
		return false
	}
	names := map[string]bool{}
	switch left := f.Field(a, analyzer.FieldLeft); f.Kind(left) {
	case analyzer.KindIdentifier:
		names[f.Text(left)] = true
	case analyzer.KindPatternList, analyzer.KindTuplePattern:
		if m.WithoutNames(func() bool { return m.IsForwardCall(call) }) {
			return false
		}
		for _, c := range f.ChildList(left) {
			if f.Kind(c) == analyzer.KindIdentifier && !f.TextIs(c, "_") {
				names[f.Text(c)] = true
			}
		}
	}
	found := false
	for st := f.N(f.Parent(a)).NextSibling; st != analyzer.NoNode && !found; st = f.N(st).NextSibling {
		stop := false
		f.Walk(st, func(id analyzer.NodeID) {
			switch {
			case found || stop:
			case f.Kind(id) == analyzer.KindIdentifier && names[f.Text(id)] && numpyArg(id):
				found = true
			case f.Kind(id) == analyzer.KindAssignment && f.Kind(f.Field(id, analyzer.FieldLeft)) == analyzer.KindIdentifier &&
				names[f.Text(f.Field(id, analyzer.FieldLeft))]:
				stop = true // bound again: what follows reads another value
			}
		})
		if stop && !found {
			break
		}
	}
	return found
}

// numpyReads are the NumPy functions that read a tensor as an array,
// through its numpy(), whatever else they are given (checked with
// PyTorch 2.11.0); others (np.squeeze, np.transpose) call the tensor's
// own method and keep it a tensor.
var numpyReads = map[string]bool{"numpy.array": true, "numpy.asarray": true, "numpy.argmax": true, "numpy.argmin": true}

// fedBack reports whether call, a forward pass in a loop, is assigned to
// a name it also takes (`out, hidden = model(inp, hidden)`, `x =
// refine(x)`): each iteration's graph hangs on to the last one's.
func fedBack(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	a := f.Parent(call)
	if f.Kind(a) != analyzer.KindAssignment || f.Field(a, analyzer.FieldRight) != call || m.EnclosingLoop(call) == analyzer.NoNode {
		return false
	}
	targets := map[string]bool{}
	f.Walk(f.Field(a, analyzer.FieldLeft), func(id analyzer.NodeID) {
		if f.Kind(id) == analyzer.KindIdentifier {
			targets[f.Text(id)] = true
		}
	})
	found := false
	f.Walk(f.Field(call, analyzer.FieldArguments), func(id analyzer.NodeID) {
		found = found || f.Kind(id) == analyzer.KindIdentifier && targets[f.Text(id)]
	})
	return found
}

// detachesReturns returns how def, a function of this file that call
// calls, ends the graph of every value it returns (EndsReturns): those
// the call's flags select, where they turn its backward() off; "" where
// some return may keep one.
func detachesReturns(m *analyzer.Model, def, call analyzer.NodeID) string {
	var selected func(analyzer.NodeID) bool
	if m.SkipsBackward(call) {
		selected = func(v analyzer.NodeID) bool { return m.RunsWithFlags(call, v) }
	}
	return m.EndsReturns(def, selected)
}

// throughPassThrough climbs from a forward call's output through the
// calls that only reshape, move or map it element by element
// (`torch.sigmoid(model(x))`, `.unsqueeze(1)`, `.cpu()`), to the last of
// them: what drops that one drops the output's graph too.
func throughPassThrough(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	f := m.File
	for depth := 0; depth < 8; depth++ {
		p := f.Parent(call)
		switch {
		case f.Kind(p) == analyzer.KindAttribute && f.Field(p, analyzer.FieldObject) == call &&
			f.Kind(f.Parent(p)) == analyzer.KindCall && f.Field(f.Parent(p), analyzer.FieldFunction) == p &&
			passThroughMethods[f.Text(f.Field(p, analyzer.FieldAttribute))]:
			call = f.Parent(p)
		case f.Kind(p) == analyzer.KindArgumentList && passThroughFunctions[m.CallName(f.Parent(p))] &&
			len(m.Args(f.Parent(p))) > 0 && m.Args(f.Parent(p))[0] == call:
			call = f.Parent(p)
		default:
			return call
		}
	}
	return call
}

var passThroughMethods = map[string]bool{
	"unsqueeze": true, "squeeze": true, "view": true, "reshape": true, "cpu": true, "cuda": true, "to": true,
	"float": true, "double": true, "half": true, "contiguous": true, "permute": true, "transpose": true,
	"sigmoid": true, "softmax": true, "log_softmax": true, "exp": true, "flatten": true,
}

var passThroughFunctions = map[string]bool{
	"torch.sigmoid": true, "torch.softmax": true, "torch.exp": true, "torch.tanh": true, "torch.squeeze": true,
	"torch.unsqueeze": true, "torch.flatten": true, "torch.nn.functional.softmax": true, "torch.nn.functional.sigmoid": true,
	"torch.nn.functional.log_softmax": true,
}

// rawKept reports whether a forward call's output is kept as it is, with
// its graph, beyond its statement: assigned to a name (`t = teacher(x)`)
// or appended to a list (`outs.append(enc(x))`). One detached where it
// is made (`enc(x).detach()`) frees its graph at once.
func rawKept(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	e, p := useOf(f, call)
	switch f.Kind(p) {
	case analyzer.KindAssignment:
		if f.Field(p, analyzer.FieldRight) != e {
			return false
		}
		switch left := f.Field(p, analyzer.FieldLeft); f.Kind(left) {
		case analyzer.KindIdentifier:
			return true
		case analyzer.KindPatternList, analyzer.KindTuplePattern:
			// `_, logits = model(x)`: kept in names too.
			return !slices.ContainsFunc(f.ChildList(left), func(c analyzer.NodeID) bool { return f.Kind(c) != analyzer.KindIdentifier })
		}
		return false
	case analyzer.KindArgumentList:
		name := m.MethodName(f.Parent(p))
		return name == "append" || name == "extend"
	}
	return false
}

// selfMethodCall reports whether a call runs method def of the class
// of the method it is in, through self (`self._run_one_epoch(...)`).
func selfMethodCall(m *analyzer.Model, call, def analyzer.NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, analyzer.FieldFunction))
	if f.Kind(fn) != analyzer.KindAttribute || !f.TextIs(f.Field(fn, analyzer.FieldObject), "self") {
		return false
	}
	class := m.EnclosingClass(m.ScopeNode(call))
	return class != analyzer.NoNode && m.EnclosingClass(def) == class
}

// cleanHelper reports whether a call runs a function of this file whose
// forward passes' outputs only reach the host or its return value, so
// that what the call returns says where they go: a helper that also
// keeps them (`self.log_probs = ...`) is not one.
func cleanHelper(m *analyzer.Model, call analyzer.NodeID) bool {
	def := m.LocalCallee(call)
	if def == analyzer.NoNode {
		// A function of another file, as its summary tells (HandsBack).
		h := m.Helper(call)
		return h != nil && h.HandsBack
	}
	return handsBack(m, def)
}

// The summary of a function tells the files that call it whether it
// hands its forward passes' outputs back (cleanHelper's reading), where
// one at least is not read on the host in its body alone: a function
// whose passes all end there is reported in its own file.
func init() {
	analyzer.HandsBack = func(m *analyzer.Model, def analyzer.NodeID) bool {
		if !handsBack(m, def) {
			return false
		}
		back := false
		forwardPasses(m, def, func(id analyzer.NodeID) bool {
			back = !hostBound(m, id, false, 0)
			return !back
		})
		return back
	}
}

// The summary of a function tells the files that call it whether all
// its forward passes end on the host in its body, where they are
// reported (reportedInBody's reading for a function of another file).
func init() {
	analyzer.HostOnly = func(m *analyzer.Model, def analyzer.NodeID) bool {
		any, home := false, true
		forwardPasses(m, def, func(id analyzer.NodeID) bool {
			any = true
			home = !smokeTest(m, id) && !gradientUse(m, id) && !frozen(m, id) && outputsOnlyToHost(m, id)
			return home
		})
		return any && home
	}
}

// The summary of a call tells the function of another file it runs which
// of its arguments are modules frozen before it (frozen's reading of a
// helper handed the frozen model): where every call of the project hands
// one, that parameter records no graph (frozenParam).
func init() {
	analyzer.FrozenAtCall = func(m *analyzer.Model, call analyzer.NodeID) uint16 {
		f := m.File
		var fs *frozenSet
		return m.ArgBits(call, func(a analyzer.NodeID) bool {
			if fs == nil {
				fs = frozenModels(m)
			}
			return m.NoGraphValue(a) || factoryFrozen(m, fs, a) ||
				f.Kind(a) != analyzer.KindCall && fs.frozenAt(m, a, call) && fs.frozenBefore(m, a, call, ifGuards(f, call))
		})
	}
}

// handsBack is cleanHelper for function def of this file
// (analyzer.HandsBack).
func handsBack(m *analyzer.Model, def analyzer.NodeID) bool {
	return m.Memo(cleanKey{def}, func() any {
		clean, any := true, false
		forwardPasses(m, def, func(id analyzer.NodeID) bool {
			any = true
			clean = hostOrReturned(m, id, 0)
			return clean
		})
		return clean && any
	}).(bool)
}

// forwardPasses calls fn for each forward pass of function def's own
// body (not of the functions nested in it), in order, until fn returns
// false.
func forwardPasses(m *analyzer.Model, def analyzer.NodeID, fn func(call analyzer.NodeID) bool) {
	f, more := m.File, true
	f.Walk(def, func(id analyzer.NodeID) {
		if more && f.Kind(id) == analyzer.KindCall && m.ScopeNode(id) == def && m.IsForwardCall(id) {
			more = fn(id)
		}
	})
}

type cleanKey struct{ def analyzer.NodeID }

// reportedInBody reports whether the function of this file that a
// call runs is reported in its own body, where the finding and its fix
// belong, rather than at each call.
func reportedInBody(m *analyzer.Model, call analyzer.NodeID) bool {
	def := m.LocalCallee(call)
	if def == analyzer.NoNode {
		return m.CalleeHostOnly(call)
	}
	busy := m.Memo(bodyBusyKey{}, func() any { return map[analyzer.NodeID]bool{} }).(map[analyzer.NodeID]bool)
	if busy[def] {
		return false // a recursive call: judged where it started
	}
	busy[def] = true
	defer delete(busy, def)
	if len(m.Memo(evalKey{def}, func() any { return evalForwards(m, def) }).([]evalFinding)) > 0 {
		return true
	}
	// The pass the helper runs through another function of this file
	// (`work3` calls `bert_embed_sents`, which runs the model), reported
	// in that function's body.
	h := m.Helper(call)
	if h == nil || h.Forward == nil || h.Forward.Abs != m.File.Path {
		return false
	}
	f := m.File
	pass := analyzer.NoNode
	f.Walk(analyzer.Root, func(id analyzer.NodeID) {
		if pass == analyzer.NoNode && f.Kind(id) == analyzer.KindCall && atSite(f, id, h.Forward) {
			pass = id
		}
	})
	inner := m.ScopeNode(pass)
	if pass == analyzer.NoNode || inner == def || inner == analyzer.Root || busy[inner] {
		return false
	}
	busy[inner] = true
	defer delete(busy, inner)
	found := m.Memo(evalKey{inner}, func() any { return evalForwards(m, inner) }).([]evalFinding)
	return slices.ContainsFunc(found, func(e evalFinding) bool { return e.call == pass })
}

type bodyBusyKey struct{}

// unreachable reports whether node id sits after a `return`, `raise`,
// `continue` or `break` statement of a block that holds it (`def test():
// return` left at the top of a function whose old body stays below, an
// older attempt left below a `return`), or in a function defined after
// one (an archived module that starts with `raise`).
func unreachable(m *analyzer.Model, id analyzer.NodeID) bool {
	f := m.File
	for child, p := id, f.Parent(id); p != analyzer.NoNode; child, p = p, f.Parent(p) {
		if f.Kind(child) == analyzer.KindFunctionDefinition && replacedDefs(m, p)[child] {
			return true
		}
		if f.Kind(p) != analyzer.KindBlock && f.Kind(p) != analyzer.KindModule {
			continue
		}
		dead := false
		f.Children(p, func(stmt analyzer.NodeID) bool {
			if stmt == child {
				return false
			}
			switch f.Kind(stmt) {
			case analyzer.KindReturnStatement, analyzer.KindRaiseStatement, analyzer.KindContinueStatement, analyzer.KindBreakStatement:
				// At the top level of a notebook, only within its cell.
				dead = f.Kind(p) != analyzer.KindModule || f.SameCell(f.N(stmt).End, f.N(child).Start)
				return !dead
			}
			return true
		})
		if dead {
			return true
		}
	}
	return false
}

// replacedDefs returns the function definitions of block (a block or
// the module) that are not decorated and that a later definition of
// their name in the block replaces, with no mention of the name between
// the two (in a notebook, within one cell) but in the bodies of
// functions, which run later: the later one replaces them before
// anything can call them (an older version left above the new one), so
// their bodies never run. One pass over the block, remembered.
func replacedDefs(m *analyzer.Model, block analyzer.NodeID) map[analyzer.NodeID]bool {
	return m.Memo(replacedKey{block}, func() any {
		f := m.File
		out := map[analyzer.NodeID]bool{}
		if f.Kind(block) != analyzer.KindBlock && f.Kind(block) != analyzer.KindModule {
			return out
		}
		pending := map[string]analyzer.NodeID{} // the last definition of each name, not mentioned since
		f.Children(block, func(stmt analyzer.NodeID) bool {
			own := analyzer.NoNode // a definition's own name mentions nothing
			if f.Kind(stmt) == analyzer.KindFunctionDefinition {
				own = f.Field(stmt, analyzer.FieldName)
			}
			f.Walk(stmt, func(n analyzer.NodeID) {
				if n != own && f.Kind(n) == analyzer.KindIdentifier && !inFunctionBody(f, n, stmt) {
					delete(pending, f.Text(n))
				}
			})
			if f.Kind(stmt) != analyzer.KindFunctionDefinition {
				return true
			}
			name := f.Text(f.Field(stmt, analyzer.FieldName))
			if d, ok := pending[name]; ok && (f.Kind(block) != analyzer.KindModule || f.SameCell(f.N(d).End, f.N(stmt).Start)) {
				out[d] = true
			}
			pending[name] = stmt
			return true
		})
		return out
	}).(map[analyzer.NodeID]bool)
}

type replacedKey struct{ block analyzer.NodeID }

// inFunctionBody reports whether node n, within statement stmt, is in
// the body of a function defined there: code that runs when the function
// is called, after the module (or class body) has run to its end, where
// a name means its last definition.
func inFunctionBody(f *analyzer.File, n, stmt analyzer.NodeID) bool {
	for x := n; x != stmt && x != analyzer.NoNode; x = f.Parent(x) {
		if p := f.Parent(x); f.Kind(p) == analyzer.KindFunctionDefinition && f.Field(p, analyzer.FieldBody) == x {
			return true
		}
	}
	return false
}

// anyWithin reports whether a node of ids starts in [start, end).
func anyWithin(f *analyzer.File, ids []analyzer.NodeID, start, end uint32) bool {
	for _, id := range ids {
		if o := f.N(id).Start; o >= start && o < end {
			return true
		}
	}
	return false
}

type modeSwitch uint8

const (
	switchNone modeSwitch = iota
	switchEval
	switchTrain
)

// modeSwitchOf says whether a call switches a model to evaluation or
// training mode, and which model (its text; "" for one not known):
// `model.eval()`, `model.train(False)`, `model = Net(...).eval()`,
// `model.train()`; a call of a function of the file whose flag picks the
// mode (`net_mode(train=False)`); a call of a function whose result is kept, when the
// function switches a model to evaluation mode and never to training
// (`model = load_model(path)`); a call of a function that switches a
// model to training mode (`train_one_epoch(model, loader)`).
func modeSwitchOf(m *analyzer.Model, call analyzer.NodeID) (modeSwitch, string) {
	f := m.File
	if eval, train := m.ModeSwitch(call); eval || train {
		recv := f.Unparen(m.Receiver(call))
		if !isModelReceiver(m, recv) {
			return switchNone, ""
		}
		key := compactText(f, recv)
		if f.Kind(recv) == analyzer.KindCall {
			key = assignedTo(m, call) // `model = Net().eval()`
		}
		if eval {
			return switchEval, key
		}
		return switchTrain, key
	}
	// A function of the file whose flag picks the mode
	// (`self.net_mode(train=False)`): the mode the call picks.
	if eval, train, ok := m.FlagModeSwitch(call); ok {
		switch {
		case eval && !train:
			return switchEval, ""
		case train && !eval:
			return switchTrain, ""
		}
	}
	s := m.Steps(call)
	if s == nil {
		return switchNone, ""
	}
	if s.Train != nil {
		return switchTrain, ""
	}
	// The outputs of a forward pass are tensors, not a model, even where
	// the module switches a submodule of its own (`self.bn.eval()`).
	if key := assignedTo(m, call); s.Eval != nil && key != "" && !m.IsForwardCall(call) {
		return switchEval, key
	}
	return switchNone, ""
}

// compactText is the text of node id without its whitespace, but for one
// space between two words (`not x`), to compare expressions written with
// different spacing (`model.eval ()`) and to quote them.
func compactText(f *analyzer.File, id analyzer.NodeID) string {
	var b strings.Builder
	for _, w := range strings.Fields(f.Text(id)) {
		// A space stays between two words (`not torch.isfinite(x)`).
		if s := b.String(); s != "" && wordByte(s[len(s)-1]) && wordByte(w[0]) {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// wordByte reports whether c can be part of a Python name or number.
func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// assignedTo returns the text of the target a call's value is assigned
// to (`model` in `model = load_model(p)`), or "".
func assignedTo(m *analyzer.Model, call analyzer.NodeID) string {
	f := m.File
	p := f.Parent(call)
	if f.Kind(p) != analyzer.KindAssignment || f.Field(p, analyzer.FieldRight) != call {
		return ""
	}
	left := f.Field(p, analyzer.FieldLeft)
	if k := f.Kind(left); k != analyzer.KindIdentifier && k != analyzer.KindAttribute {
		return ""
	}
	return compactText(f, left)
}

// returnedForBackward reports whether a forward call's output reaches
// what fn returns, where a caller back-propagates fn's result: a training
// path through a model in evaluation mode (no dropout), not an
// evaluation. The output reaches the return when the call is in a return
// statement, or is stored (`out = model(x)`, `out[i:j] = model(x)`) in a
// name that the returns read, directly or through the names assigned
// from it (`pred = dec(out)`, `return {"loss": F.mse_loss(pred, y)}`).
func returnedForBackward(m *analyzer.Model, fn, call analyzer.NodeID) bool {
	f := m.File
	if fn == analyzer.Root || !m.ResultBackpropagated(fn) {
		return false
	}
	p := f.Parent(call)
	for q := p; q != analyzer.NoNode && q != fn; q = f.Parent(q) {
		if f.Kind(q) == analyzer.KindReturnStatement {
			return true
		}
	}
	if f.Kind(p) != analyzer.KindAssignment || f.Field(p, analyzer.FieldRight) != call {
		return false
	}
	left := f.Field(p, analyzer.FieldLeft)
	if f.Kind(left) == analyzer.KindSubscript {
		left = f.Unparen(f.Field(left, analyzer.FieldValue))
	}
	if f.Kind(left) != analyzer.KindIdentifier {
		return false
	}
	return returnedNames(m, fn)[f.Text(left)]
}

type returnedNamesKey struct{ fn analyzer.NodeID }

// returnedNames returns the names whose values reach what fn returns: the
// names its return values read, and those read by the values assigned to
// them, to a fixed point.
func returnedNames(m *analyzer.Model, fn analyzer.NodeID) map[string]bool {
	return m.Memo(returnedNamesKey{fn}, func() any {
		f := m.File
		names := map[string]bool{}
		// read adds the names e reads, except through a call that drops
		// the graph (`q_next.detach()`).
		var read func(e analyzer.NodeID) bool
		read = func(e analyzer.NodeID) bool {
			grew := false
			switch f.Kind(e) {
			case analyzer.KindIdentifier:
				if !names[f.Text(e)] {
					names[f.Text(e)], grew = true, true
				}
				return grew
			case analyzer.KindCall:
				if analyzer.Detaches(m.MethodName(e)) {
					return false
				}
			}
			f.Children(e, func(c analyzer.NodeID) bool {
				grew = read(c) || grew
				return true
			})
			return grew
		}
		for _, r := range m.ReturnValues(fn) {
			if r != analyzer.NoNode {
				read(r)
			}
		}
		var assigns []analyzer.NodeID
		f.Walk(fn, func(id analyzer.NodeID) {
			if k := f.Kind(id); (k == analyzer.KindAssignment || k == analyzer.KindAugmentedAssignment) && m.ScopeNode(id) == fn {
				assigns = append(assigns, id)
			}
		})
		for grew := true; grew; {
			grew = false
			for _, a := range assigns {
				left := f.Field(a, analyzer.FieldLeft)
				if f.Kind(left) == analyzer.KindSubscript {
					left = f.Unparen(f.Field(left, analyzer.FieldValue))
				}
				if f.Kind(left) == analyzer.KindIdentifier && names[f.Text(left)] && read(f.Field(a, analyzer.FieldRight)) {
					grew = true
				}
			}
		}
		return names
	}).(map[string]bool)
}

// classEvalAttrs returns the attributes of self (`self.model`) that a
// method of class switches to evaluation mode and none switches back to
// training mode: a model the class only evaluates.
func classEvalAttrs(m *analyzer.Model, class analyzer.NodeID) map[string]bool {
	if class == analyzer.NoNode {
		return nil
	}
	return m.Memo(classEvalKey{class}, func() any {
		f := m.File
		attrs := evalOnly(m, class, func(call, recv analyzer.NodeID, eval bool) bool {
			// An eval() under an if leaves the class either way.
			return f.Kind(recv) == analyzer.KindAttribute && f.TextIs(f.Field(recv, analyzer.FieldObject), "self") &&
				(!eval || !m.ConditionalInFunction(call))
		})
		if len(attrs) == 0 {
			return attrs
		}
		// A class that asks for gradients and steps no optimizer (a
		// Grad-CAM whose __call__ runs backward() on its model's output
		// to read the gradients) keeps its model in evaluation mode to
		// explain it, not to evaluate. One that trains (an agent whose
		// target network its update runs with grad enabled) evaluates.
		steps := false
		f.Walk(class, func(id analyzer.NodeID) {
			steps = steps || f.Kind(id) == analyzer.KindCall && m.MethodName(id) == "step"
		})
		grads := false
		f.Walk(class, func(id analyzer.NodeID) {
			k := f.Kind(id)
			grads = grads || !steps && (k == analyzer.KindCall || k == analyzer.KindAssignment) && gradientUse(m, id)
		})
		if grads {
			return map[string]bool(nil)
		}
		return attrs
	}).(map[string]bool)
}

// evalOnly returns the texts of the models that calls within node root
// switch to evaluation mode and never to training mode, counting the
// switches that keep accepts (`recv.eval()`, `recv.train()`).
func evalOnly(m *analyzer.Model, root analyzer.NodeID, keep func(call, recv analyzer.NodeID, eval bool) bool) map[string]bool {
	f := m.File
	eval, train := map[string]bool{}, map[string]bool{}
	f.Walk(root, func(id analyzer.NodeID) {
		if f.Kind(id) != analyzer.KindCall {
			return
		}
		e, t := m.ModeSwitch(id)
		if !e && !t {
			return
		}
		recv := f.Unparen(m.Receiver(id))
		if !keep(id, recv, e) {
			return
		}
		if e {
			eval[f.Text(recv)] = true
		} else {
			train[f.Text(recv)] = true
		}
	})
	for k := range train {
		delete(eval, k)
	}
	return eval
}

type classEvalKey struct{ class analyzer.NodeID }

// frozen reports whether the model a call runs has had every parameter
// taken out of autograd (`model.requires_grad_(False)`, or
// `p.requires_grad = False` for each of its `.parameters()`), in the
// call's class or function, or by its own class's constructor, or holds
// none: given inputs that need no gradient, its forward pass records no
// graph.
func frozen(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	callee := f.Unparen(f.Field(call, analyzer.FieldFunction))
	if f.Kind(callee) == analyzer.KindAttribute && f.TextIs(f.Field(callee, analyzer.FieldAttribute), "forward") {
		callee = f.Unparen(f.Field(callee, analyzer.FieldObject)) // `model.forward(x)`: the module's own call
	}
	if m.NoGraphValue(callee) || m.NoGraphParam(callee) {
		return true // its class freezes what it holds, or holds nothing to train
	}
	if m.FrozenAttr(callee) {
		return true // `rnd_model.target`, frozen by its class's constructor
	}
	if m.NoGraphCall(call) {
		return true // `model(data, mode='inference')`: the arm its forward takes runs under no_grad
	}
	if numpyShowsNoGraph(m)[frozenKeyOf(m, modelExpr(m, call))] {
		return true
	}
	fs := frozenModels(m)
	set := fs.keys
	if len(set) == 0 {
		return false
	}
	frozenChain := func(x analyzer.NodeID) bool {
		for x != analyzer.NoNode {
			if fs.frozenAt(m, x, call) {
				return true
			}
			if f.Kind(x) != analyzer.KindAttribute {
				break
			}
			x = f.Unparen(f.Field(x, analyzer.FieldObject)) // `self.encoder` of a frozen `self`
		}
		return false
	}
	fn := f.Unparen(f.Field(call, analyzer.FieldFunction))
	if frozenChain(fn) || factoryFrozen(m, fs, fn) {
		return true
	}
	// A method that returns what a frozen submodule computes
	// (`def momentum_encoder(self, x): return self.key_model(x)`).
	if f.Kind(fn) == analyzer.KindAttribute {
		if def := m.LocalCallee(call); def != analyzer.NoNode && def != m.ScopeNode(call) {
			vals := m.ReturnValues(def)
			all := len(vals) > 0
			for _, v := range vals {
				v = f.Unparen(v)
				all = all && f.Kind(v) == analyzer.KindCall && m.IsForwardCall(v) &&
					frozenChain(f.Unparen(f.Field(v, analyzer.FieldFunction)))
			}
			if all {
				return true
			}
		}
	}
	// A helper handed the frozen model (`preprocess(extractor, data)`).
	for _, a := range m.Args(call) {
		if k := f.Kind(a); k == analyzer.KindIdentifier || k == analyzer.KindAttribute {
			if fs.frozenAt(m, a, call) {
				return true
			}
		}
	}
	// A parameter that every call of the project gives a model its caller
	// froze before it (`model.requires_grad_(False)`, then
	// `evaluate(data, model)`), all of them in this file, or a parameter
	// of its own that every call of it gives one (`test_mode(model, x)`
	// handing its `model` on to `test(model, x)`).
	return f.Kind(fn) == analyzer.KindIdentifier && frozenParam(m, fs, fn, ifGuards(f, call), 0)
}

// frozenParam reports whether every call of the project hands param, a
// name of a function's parameter, a model frozen before the call
// (frozenModels), built frozen (factoryFrozen), or a parameter of the
// caller's own that every call of it hands one, all of those calls in
// this file. guards are the tests the use of param runs under.
func frozenParam(m *analyzer.Model, fs *frozenSet, param analyzer.NodeID, guards map[string]bool, depth int) bool {
	f := m.File
	if m.CalledElsewhere(m.ScopeNode(param)) {
		// Calls in other files: as their summaries tell (FrozenAtCall).
		return m.FrozenParamCall(param) != nil
	}
	args, ok := m.ParamArgs(param)
	if !ok || depth > 4 {
		return false
	}
	return !slices.ContainsFunc(args, func(a analyzer.NodeID) bool {
		a = f.Unparen(a)
		k := f.Kind(a)
		if factoryFrozen(m, fs, a) {
			return false
		}
		if k == analyzer.KindIdentifier || k == analyzer.KindAttribute {
			if fs.frozenAt(m, a, argCall(f, a)) && fs.frozenBefore(m, a, argCall(f, a), guards) {
				return false
			}
		}
		return k != analyzer.KindIdentifier || !frozenParam(m, fs, a, ifGuards(f, argCall(f, a)), depth+1)
	})
}

// factoryFrozen reports whether e is a call of a function of this file,
// or a name bound to one by every binding that reaches it, where that
// function freezes each model it returns before returning it on the path
// the call's arguments take (`ema_model = create_model(ema=True)`, with
// `if ema:` around the freeze).
func factoryFrozen(m *analyzer.Model, fs *frozenSet, e analyzer.NodeID) bool {
	f := m.File
	if f.Kind(e) == analyzer.KindCall {
		def := m.LocalCallee(e)
		return def != analyzer.NoNode && f.Kind(def) == analyzer.KindFunctionDefinition && returnsFrozen(m, fs, e, def)
	}
	if f.Kind(e) != analyzer.KindIdentifier {
		return false
	}
	bs := m.ReachingBindings(e)
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		if b.Kind != analyzer.BindAssign || b.Unpacked || b.Value == analyzer.NoNode {
			return false
		}
		if v := f.Unparen(b.Value); f.Kind(v) != analyzer.KindCall || !factoryFrozen(m, fs, v) {
			return false
		}
	}
	return true
}

// returnsFrozen reports whether each value def returns is a name that a
// statement of def freezes before it (frozenModels), one that runs when
// call runs def (RunsWith), with nothing of def thawing it.
func returnsFrozen(m *analyzer.Model, fs *frozenSet, call, def analyzer.NodeID) bool {
	f := m.File
	vals := m.ReturnValues(def)
	if len(vals) == 0 {
		return false
	}
	for _, r := range vals {
		r = f.Unparen(r)
		key := frozenKeyOf(m, r)
		if f.Kind(r) != analyzer.KindIdentifier || !fs.keys[key] {
			return false
		}
		inDef := func(s analyzer.NodeID) bool { return m.ScopeNode(s) == def && f.N(s).Start < f.N(r).Start }
		if !slices.ContainsFunc(fs.at[key], func(s analyzer.NodeID) bool { return inDef(s) && m.RunsWith(call, def, s) }) ||
			slices.ContainsFunc(fs.thaws[key], inDef) {
			return false
		}
	}
	return true
}

// frozenModels returns the texts of the models (`model`,
// `self.transformer`, `self`) the file freezes.
func frozenModels(m *analyzer.Model) *frozenSet {
	return m.Memo(frozenKey{}, func() any {
		f := m.File
		out := map[string]bool{}
		// at: the freezing statements of each key, which a later
		// statement of the same scope may undo.
		at, thaws := map[string][]analyzer.NodeID{}, map[string][]analyzer.NodeID{}
		freeze := func(key string, stmt analyzer.NodeID) {
			out[key] = true
			at[key] = append(at[key], stmt)
		}
		// A helper of the file that freezes a parameter of its own on
		// every call (`def freeze(model): for p in model.parameters():
		// p.requires_grad = False`) freezes what each call hands it.
		freezeCallers := func(r, stmt analyzer.NodeID) {
			def := m.ScopeNode(stmt)
			if f.Kind(r) != analyzer.KindIdentifier || def == analyzer.Root || f.Parent(stmt) != f.Field(def, analyzer.FieldBody) {
				return
			}
			args, _ := m.ParamArgs(r)
			for _, a := range args {
				freeze(frozenKeyOf(m, f.Unparen(a)), a)
			}
		}
		for i := range f.Nodes {
			id := analyzer.NodeID(i)
			switch f.Nodes[i].Kind {
			case analyzer.KindCall:
				// `model.requires_grad_(False)`
				if r := m.Freezes(id); r != analyzer.NoNode {
					freeze(frozenKeyOf(m, r), id)
					if st := f.Parent(id); f.Kind(st) == analyzer.KindExpressionStatement {
						freezeCallers(r, st)
					}
					if t := f.BoundTo(id); t != analyzer.NoNode {
						freeze(frozenKeyOf(m, t), id) // `G = load(...).requires_grad_(False).to(dev)`
					}
				}
				// `freeze_model(net)`, a helper of another file that
				// freezes what it is given (this file's: freezeCallers).
				if f.Kind(f.Parent(id)) == analyzer.KindExpressionStatement {
					for _, a := range m.FrozenArgs(id) {
						freeze(frozenKeyOf(m, a), id)
					}
				}
			case analyzer.KindForStatement:
				// `for p in model.parameters(): p.requires_grad = False`, its
				// `named_parameters()` form, and
				// `for q, k in zip(net.parameters(), key_net.parameters()):`
				// with `k.requires_grad = False`.
				iter := parametersIter(m, f.Field(id, analyzer.FieldRight))
				target := f.Field(id, analyzer.FieldLeft)
				if f.Kind(iter) != analyzer.KindCall {
					continue
				}
				models := map[string]analyzer.NodeID{} // loop variable → the model whose parameters it runs over
				switch {
				case m.MethodName(iter) == "parameters" && f.Kind(target) == analyzer.KindIdentifier:
					models[f.Text(target)] = f.Unparen(m.Receiver(iter))
				case m.CallName(iter) == "enumerate":
					// `for i, p in enumerate(net.parameters()): p.requires_grad = False`
					vars, args := f.ChildList(target), m.Args(iter)
					if len(vars) == 2 && len(args) == 1 && f.Kind(vars[1]) == analyzer.KindIdentifier &&
						f.Kind(f.Unparen(args[0])) == analyzer.KindCall && m.MethodName(f.Unparen(args[0])) == "parameters" {
						models[f.Text(vars[1])] = f.Unparen(m.Receiver(f.Unparen(args[0])))
					}
				case m.MethodName(iter) == "named_parameters":
					// `for k, v in model.named_parameters(): v.requires_grad = False`
					if vars := f.ChildList(target); len(vars) == 2 && f.Kind(vars[1]) == analyzer.KindIdentifier {
						models[f.Text(vars[1])] = f.Unparen(m.Receiver(iter))
					}
				case m.CallName(iter) == "zip":
					vars, args := f.ChildList(target), m.Args(iter)
					for i, v := range vars {
						if i < len(args) && f.Kind(v) == analyzer.KindIdentifier && f.Kind(f.Unparen(args[i])) == analyzer.KindCall &&
							m.MethodName(f.Unparen(args[i])) == "parameters" {
							models[f.Text(v)] = f.Unparen(m.Receiver(f.Unparen(args[i])))
						}
					}
				}
				if len(models) == 0 {
					continue
				}
				body := f.Field(id, analyzer.FieldBody)
				f.Walk(body, func(n analyzer.NodeID) {
					if r := m.Freezes(n); r != analyzer.NoNode && f.Kind(r) == analyzer.KindIdentifier && freezesEachIteration(f, body, n) {
						if model, ok := models[f.Text(r)]; ok {
							freeze(frozenKeyOf(m, model), id)
							freezeCallers(model, id)
						}
					}
				})
			}
		}
		// A module frozen, then given a new layer (`model.fc = nn.Linear(512,
		// 10)` in transfer learning) or partly thawed
		// (`model.head.requires_grad_(True)`, `p.requires_grad = True` for
		// each of `model.fc.parameters()`) later in the same scope, and not
		// frozen again after, has parameters to train.
		if len(out) > 0 {
			// thaw records that site makes target, or a part of it,
			// trainable again, where a freeze of what holds it came
			// before and none of it comes after.
			thaw := func(target, site analyzer.NodeID) {
				scope, start := m.ScopeNode(site), f.N(site).Start
				sameScope := func(s analyzer.NodeID) bool { return m.ScopeNode(s) == scope }
				var keys []string
				for x := f.Unparen(target); ; {
					key := frozenKeyOf(m, x)
					if slices.ContainsFunc(at[key], func(s analyzer.NodeID) bool { return sameScope(s) && f.N(s).Start > start }) {
						return // frozen again after (`model.requires_grad_(False)` once more)
					}
					keys = append(keys, key)
					k := f.Kind(x)
					if k != analyzer.KindAttribute && k != analyzer.KindSubscript {
						break
					}
					x = f.Unparen(f.FirstChild(x))
				}
				for _, key := range keys {
					if out[key] {
						thaws[key] = append(thaws[key], site)
					}
				}
			}
			for i := range f.Nodes {
				id := analyzer.NodeID(i)
				switch f.Nodes[i].Kind {
				case analyzer.KindAssignment:
					left, v := f.Unparen(f.Field(id, analyzer.FieldLeft)), f.Unparen(f.Field(id, analyzer.FieldRight))
					if f.Kind(left) == analyzer.KindAttribute && f.TextIs(f.Field(left, analyzer.FieldAttribute), "requires_grad") {
						if f.Kind(v) == analyzer.KindTrue {
							thaw(f.Field(left, analyzer.FieldObject), id) // `model.fc.weight.requires_grad = True`
						}
						continue
					}
					if k := f.Kind(left); (k == analyzer.KindAttribute || k == analyzer.KindSubscript) && newTrainableModule(m, v) &&
						!headDroppedLater(m, left, id) {
						thaw(left, id) // `model.fc = nn.Linear(512, 10)`
					}
				case analyzer.KindCall:
					if m.TurnsGradOn(id) {
						thaw(m.Receiver(id), id) // `model.head.requires_grad_()`
					}
				case analyzer.KindForStatement:
					// `for p in model.fc.parameters(): p.requires_grad = True`
					// (or `p.requires_grad_(True)`)
					iter, target := parametersIter(m, f.Field(id, analyzer.FieldRight)), f.Field(id, analyzer.FieldLeft)
					if vars := f.ChildList(target); m.MethodName(iter) == "named_parameters" && len(vars) == 2 {
						target = vars[1]
					} else if m.MethodName(iter) != "parameters" {
						continue
					}
					f.Walk(f.Field(id, analyzer.FieldBody), func(n analyzer.NodeID) {
						if f.Kind(n) == analyzer.KindCall && m.MethodName(n) == "requires_grad_" &&
							f.Text(f.Unparen(m.Receiver(n))) == f.Text(target) {
							if m.TurnsGradOn(n) { // `p.requires_grad_(True)`, `p.requires_grad_()`
								thaw(m.Receiver(iter), id)
							}
							return
						}
						if f.Kind(n) != analyzer.KindAssignment {
							return
						}
						left := f.Unparen(f.Field(n, analyzer.FieldLeft))
						if f.Kind(left) == analyzer.KindAttribute && f.TextIs(f.Field(left, analyzer.FieldAttribute), "requires_grad") &&
							f.Text(f.Field(left, analyzer.FieldObject)) == f.Text(target) && f.Kind(f.Unparen(f.Field(n, analyzer.FieldRight))) == analyzer.KindTrue {
							thaw(m.Receiver(iter), id)
						}
					})
				}
			}
		}
		return &frozenSet{keys: out, at: at, thaws: thaws}
	}).(*frozenSet)
}

// parametersIter returns what a loop runs over: iter, or the call a name
// iter is bound to once that lists a module's parameters (`params =
// model.parameters()`, then `for p in params:`).
func parametersIter(m *analyzer.Model, iter analyzer.NodeID) analyzer.NodeID {
	f := m.File
	iter = f.Unparen(iter)
	if f.Kind(iter) != analyzer.KindIdentifier {
		return iter
	}
	if v := f.Unparen(m.BoundValue(iter)); f.Kind(v) == analyzer.KindCall {
		if name := m.MethodName(v); name == "parameters" || name == "named_parameters" {
			return v
		}
	}
	return iter
}

type frozenKey struct{}

// frozenSet is what frozenModels finds: the models frozen (keys), and
// the statements that freeze each.
type frozenSet struct {
	keys map[string]bool
	at   map[string][]analyzer.NodeID
	// thaws: the statements that make each frozen model trainable again
	// in part (a new head, `requires_grad_(True)` on a part).
	thaws map[string][]analyzer.NodeID
}

// frozenAt reports whether the model e names is frozen where call runs:
// where call's scope freezes or thaws it before call, by the last of
// them; else, where the file freezes it and no other scope freezes and
// then thaws it (a setup function that gives it a new head). A method
// that only thaws (`def unfreeze(self)`) leaves it as its callers had it.
func (fs *frozenSet) frozenAt(m *analyzer.Model, e, call analyzer.NodeID) bool {
	f := m.File
	key := frozenKeyOf(m, e)
	if !fs.keys[key] {
		return false
	}
	scope, start := m.ScopeNode(call), f.N(call).Start
	lastFreeze, lastThaw := -1, -1
	for _, s := range fs.at[key] {
		if m.ScopeNode(s) == scope && f.N(s).Start < start {
			lastFreeze = max(lastFreeze, int(f.N(s).Start))
		}
	}
	for _, s := range fs.thaws[key] {
		if m.ScopeNode(s) == scope && f.N(s).Start < start {
			lastThaw = max(lastThaw, int(f.N(s).Start))
		}
	}
	if lastFreeze >= 0 || lastThaw >= 0 {
		return lastFreeze > lastThaw
	}
	return !slices.ContainsFunc(fs.thaws[key], func(t analyzer.NodeID) bool {
		return slices.ContainsFunc(fs.at[key], func(s analyzer.NodeID) bool {
			return m.ScopeNode(s) == m.ScopeNode(t) && f.N(s).Start < f.N(t).Start
		})
	})
}

// frozenBefore reports whether the statements that freeze the model e
// names include one that runs before call whenever call runs: in call's
// scope, earlier, under no if, loop or try that does not hold call too.
//
// An if that call is not in counts where its test, of module-level names
// alone, guards the pass too (guards: the tests around it, compacted):
// `if classif_type == "dnn":` around the freeze in the caller and around
// the classifier's pass in the callee.
func (fs *frozenSet) frozenBefore(m *analyzer.Model, e, call analyzer.NodeID, guards map[string]bool) bool {
	f := m.File
	scope := m.ScopeNode(call)
	return slices.ContainsFunc(fs.at[frozenKeyOf(m, e)], func(s analyzer.NodeID) bool {
		if m.ScopeNode(s) != scope || f.N(s).Start >= f.N(call).Start {
			return false
		}
		for p := f.Parent(s); p != analyzer.NoNode && p != scope; p = f.Parent(p) {
			switch f.Kind(p) {
			case analyzer.KindIfStatement:
				cond := f.Field(p, analyzer.FieldCondition)
				if !f.Contains(p, call) && (!guards[compactText(f, cond)] || !globalTest(m, cond)) && !builtWhereFrozen(m, e, s, p) {
					return false
				}
			case analyzer.KindTryStatement, analyzer.KindForStatement, analyzer.KindWhileStatement, analyzer.KindWithStatement:
				if !f.Contains(p, call) {
					return false
				}
			}
		}
		return true
	})
}

// builtWhereFrozen reports whether the model e names at a call exists
// only where it is frozen: the branch of ifStmt that freezes it at s
// binds it first, and every other binding of it that reaches the call
// is None (`if args.hidden: extractor = build(); extractor.requires_grad_(False)`,
// `else: extractor = None`, then `if extractor is not None: preprocess(extractor, ...)`).
func builtWhereFrozen(m *analyzer.Model, e, s, ifStmt analyzer.NodeID) bool {
	f := m.File
	if f.Kind(e) != analyzer.KindIdentifier {
		return false
	}
	branch := s
	for branch != analyzer.NoNode && f.Parent(branch) != ifStmt {
		branch = f.Parent(branch)
	}
	if branch == analyzer.NoNode {
		return false
	}
	built := false
	for _, b := range m.ReachingBindings(e) {
		switch {
		case b.Kind == analyzer.BindAssign && f.Contains(branch, b.Stmt) && f.N(b.Stmt).End <= f.N(s).Start:
			built = true
		case b.Kind == analyzer.BindAssign && b.Value != analyzer.NoNode && f.Kind(f.Unparen(b.Value)) == analyzer.KindNone:
		default:
			return false
		}
	}
	return built
}

// ifGuards returns the tests of the ifs around n whose consequence holds
// it, compacted.
func ifGuards(f *analyzer.File, n analyzer.NodeID) map[string]bool {
	out := map[string]bool{}
	for c, p := n, f.Parent(n); p != analyzer.NoNode; c, p = p, f.Parent(p) {
		if f.Kind(p) == analyzer.KindIfStatement && f.Field(p, analyzer.FieldConsequence) == c {
			out[compactText(f, f.Field(p, analyzer.FieldCondition))] = true
		}
	}
	return out
}

// globalTest reports whether cond reads names of the module alone (and
// literals): its value is the same in the caller and the callee.
func globalTest(m *analyzer.Model, cond analyzer.NodeID) bool {
	f := m.File
	ok, some := true, false
	f.Walk(cond, func(id analyzer.NodeID) {
		if !ok || f.Kind(id) != analyzer.KindIdentifier || f.N(id).Field == analyzer.FieldAttribute {
			return
		}
		b := m.Resolve(id)
		some = true
		ok = b != nil && m.ScopeNode(b.Stmt) == analyzer.Root && b.Kind != analyzer.BindParam
	})
	return ok && some
}

// argCall returns the call that a passes a as an argument.
func argCall(f *analyzer.File, a analyzer.NodeID) analyzer.NodeID {
	p := f.Parent(a)
	if f.Kind(p) == analyzer.KindKeywordArgument {
		p = f.Parent(p)
	}
	return f.Parent(p)
}

// headDroppedLater reports whether the slot that assignment fills with
// a new layer (left, `model.fc`) is filled again later in its scope with
// a module that holds no parameter (`model.fc = nn.Identity()`, to use
// the frozen rest as a feature extractor): the new layer's parameters
// are gone.
func headDroppedLater(m *analyzer.Model, left, assignment analyzer.NodeID) bool {
	f := m.File
	scope := m.ScopeNode(assignment)
	drops := m.Memo(dropsKey{scope}, func() any {
		// Where the assignments of the scope that fill a slot with
		// a module holding no parameter start, by the slot's text.
		at := map[string][]uint32{}
		f.Walk(scope, func(n analyzer.NodeID) {
			if f.Kind(n) != analyzer.KindAssignment || m.ScopeNode(n) != scope {
				return
			}
			l, v := f.Unparen(f.Field(n, analyzer.FieldLeft)), f.Unparen(f.Field(n, analyzer.FieldRight))
			if k := f.Kind(l); (k == analyzer.KindAttribute || k == analyzer.KindSubscript) && f.Kind(v) == analyzer.KindCall && m.BuildsNoParameter(v) {
				at[f.Text(l)] = append(at[f.Text(l)], f.N(n).Start)
			}
		})
		return at
	}).(map[string][]uint32)
	end := f.N(assignment).End
	return slices.ContainsFunc(drops[f.Text(left)], func(start uint32) bool { return start >= end })
}

type dropsKey struct{ scope analyzer.NodeID }

// inOneLoop reports whether a loop holds both a and b: a pass that a
// loop's phases share with the backward one phase guards, not a pass of
// a later cell of a notebook after a training loop.
func inOneLoop(m *analyzer.Model, a, b analyzer.NodeID) bool {
	for l := m.EnclosingLoop(a); l != analyzer.NoNode; l = m.EnclosingLoop(l) {
		if m.File.Contains(l, b) {
			return true
		}
	}
	return false
}

// newTrainableModule reports whether v builds a module whose parameters
// train: a layer of torch.nn with parameters, or a class written as one
// (`Head(512, 10)`), moved or cast maybe (`.to(dev)`), not frozen as it
// is built (`.requires_grad_(False)`); not a tensor, a device or a
// tokenizer.
func newTrainableModule(m *analyzer.Model, v analyzer.NodeID) bool {
	f := m.File
	for f.Kind(v) == analyzer.KindCall && analyzer.SelfReturning[m.MethodName(v)] && m.CallName(v) == "" {
		if m.MethodName(v) == "requires_grad_" {
			if args := m.Args(v); len(args) == 1 && f.Kind(f.Unparen(args[0])) == analyzer.KindFalse {
				return false
			}
		}
		v = f.Unparen(m.Receiver(v))
	}
	if f.Kind(v) != analyzer.KindCall || m.BuildsNoParameter(v) {
		return false
	}
	q := m.CallName(v)
	if q == "torch.nn.Sequential" || q == "torch.nn.ModuleList" {
		// Trainable where one of its modules is.
		some := false
		for _, a := range m.Args(v) {
			some = some || newTrainableModule(m, f.Unparen(a))
		}
		return some
	}
	if rest, ok := strings.CutPrefix(q, "torch.nn."); ok {
		return !strings.HasPrefix(rest, "functional.") && !strings.HasPrefix(rest, "init.") && !strings.HasPrefix(rest, "utils.")
	}
	if strings.HasPrefix(q, "torch.") {
		return false // `torch.device(...)`, `torch.tensor(...)`
	}
	callee := f.Unparen(f.Field(v, analyzer.FieldFunction))
	name := f.Text(callee)
	if f.Kind(callee) == analyzer.KindAttribute {
		name = f.Text(f.Field(callee, analyzer.FieldAttribute))
	}
	return analyzer.ClassName(name)
}

// freezesEachIteration reports whether n, in body (a loop's), runs on every
// iteration: under no if, try or loop of the body's own (not `if
// name.startswith("bert"): p.requires_grad = False`, which freezes a
// part).
func freezesEachIteration(f *analyzer.File, body, n analyzer.NodeID) bool {
	for p := f.Parent(n); p != analyzer.NoNode && p != body; p = f.Parent(p) {
		switch f.Kind(p) {
		case analyzer.KindIfStatement, analyzer.KindTryStatement, analyzer.KindForStatement, analyzer.KindWhileStatement,
			analyzer.KindConditionalExpression, analyzer.KindWithStatement:
			return false
		}
	}
	// `if i < k: continue` before it skips some iterations.
	skips := false
	f.Walk(body, func(id analyzer.NodeID) {
		if k := f.Kind(id); (k == analyzer.KindContinueStatement || k == analyzer.KindBreakStatement) && f.N(id).Start < f.N(n).Start {
			skips = true
		}
	})
	return !skips
}

// frozenKeyOf names a model expression for frozenModels: its text, with
// the class for one rooted at `self` and the scope that binds its first
// name for another.
func frozenKeyOf(m *analyzer.Model, e analyzer.NodeID) string {
	f := m.File
	root := e
	for f.Kind(root) == analyzer.KindAttribute {
		root = f.Unparen(f.Field(root, analyzer.FieldObject))
	}
	if f.TextIs(root, "self") {
		return fmt.Sprintf("c%d:%s", m.EnclosingClass(e), f.Text(e))
	}
	if b := m.Resolve(root); b != nil {
		return fmt.Sprintf("s%d:%s", b.Scope, f.Text(e))
	}
	return f.Text(e)
}

// numpyShowsNoGraph returns the models (keyed as frozenKeyOf keys them)
// an output of whose forward passes, in this file, reaches `.numpy()`
// through methods that keep autograd history: PyTorch raises on
// `.numpy()` of a tensor that requires grad, so code that runs it shows
// that the model records no graph there (its parameters are frozen,
// as a TorchScript feature network's often are, or its caller disabled
// grad). `.detach()`, `.data`, `.item()`, `argmax` and the like prove
// nothing: they work on any output.
func numpyShowsNoGraph(m *analyzer.Model) map[string]bool {
	return m.Memo(numpyKey{}, func() any {
		f := m.File
		out := map[string]bool{}
		// Following every call's output costs a walk of its scope per
		// name it is bound to: only a file that calls `.numpy()` pays it.
		if !callsNumpy(f) {
			return out
		}
		for i := range f.Nodes {
			id := analyzer.NodeID(i)
			// One run with grad disabled (`with torch.no_grad():` in sight,
			// a decorator) shows nothing of the model.
			if f.Nodes[i].Kind == analyzer.KindCall && reachesNumpy(m, id, 0) && m.IsForwardCall(id) && m.GradModeAt(id) != analyzer.GradDisabled {
				out[frozenKeyOf(m, modelExpr(m, id))] = true
			}
		}
		return out
	}).(map[string]bool)
}

type numpyKey struct{}

// callsNumpy reports whether the file calls a method named `numpy`.
func callsNumpy(f *analyzer.File) bool {
	for i := range f.Nodes {
		id := analyzer.NodeID(i)
		if f.Nodes[i].Kind == analyzer.KindAttribute && f.TextIs(f.Field(id, analyzer.FieldAttribute), "numpy") &&
			f.Kind(f.Parent(id)) == analyzer.KindCall && f.Field(f.Parent(id), analyzer.FieldFunction) == id {
			return true
		}
	}
	return false
}

// keepsHistory are tensor methods whose result requires grad when the
// tensor does.
var keepsHistory = map[string]bool{"cpu": true, "cuda": true, "to": true, "float": true, "double": true, "half": true,
	"bfloat16": true, "squeeze": true, "unsqueeze": true, "view": true, "reshape": true, "permute": true,
	"transpose": true, "flatten": true, "contiguous": true, "clone": true}

// keepsHistoryFunc are functions of torch whose result, a tensor,
// requires grad when their first argument does.
var keepsHistoryFunc = map[string]bool{
	"torch.nn.functional.normalize": true, "torch.nn.functional.softmax": true, "torch.nn.functional.log_softmax": true,
	"torch.nn.functional.sigmoid": true, "torch.sigmoid": true, "torch.softmax": true, "torch.log_softmax": true,
	"torch.flatten": true, "torch.squeeze": true, "torch.unsqueeze": true, "torch.exp": true, "torch.tanh": true,
}

// tensorIndex reports whether subscript sub indexes a tensor: with
// several indices (`out[0, 0, :, :]`), a slice or an ellipsis, which a
// tuple or a dict of outputs does not take. Its result keeps the
// tensor's history; a single index (`outputs[0]`) may pick an entry of a
// tuple, which may be an integer tensor.
func tensorIndex(f *analyzer.File, sub analyzer.NodeID) bool {
	value, n, slice := f.Field(sub, analyzer.FieldValue), 0, false
	f.Children(sub, func(c analyzer.NodeID) bool {
		if c == value {
			return true
		}
		n++
		switch f.Kind(c) {
		case analyzer.KindEllipsis:
			slice = true
		case analyzer.KindOther:
			slice = slice || strings.Contains(f.Text(c), ":")
		}
		return true
	})
	return n >= 2 || slice
}

// reachesNumpy reports whether value e reaches `.numpy()` through
// methods that keep autograd history, a name it is bound to, or a
// parameter of a function of this file it is passed to, or a tensor
// index (tensorIndex). Another subscript stops it: an entry of a model's
// outputs may be an integer tensor (`outputs[0]["labels"]`), which has
// no grad to raise on.
func reachesNumpy(m *analyzer.Model, e analyzer.NodeID, depth int) bool {
	return reachesNumpyThrough(m, e, depth, false)
}

// reachesNumpyThrough is reachesNumpy, where, with through, e may also
// reach `.numpy()` as the first argument of a function of torch that
// keeps its history (`F.normalize(x, dim=1).numpy()`). TL201 does not
// follow those: a probability computed from a model's outputs and read
// with `.numpy()` in a function no caller shows is still reported.
func reachesNumpyThrough(m *analyzer.Model, e analyzer.NodeID, depth int, through bool) bool {
	f := m.File
	if depth > 3 {
		return false
	}
	// Every use the value may reach (`x.cpu().numpy()` after an `if`
	// that binds x again on one path: on the other, the value itself is
	// read), unless a binding that may reach it there drops the history
	// (`if x.requires_grad: x = x.detach()`).
	uses := func(name analyzer.NodeID) bool {
		return slices.ContainsFunc(m.ReachedUsesOf(name), func(u analyzer.NodeID) bool {
			return !historyDroppedAt(m, u) && reachesNumpyThrough(m, u, depth+1, through)
		})
	}
	for {
		p := f.Parent(e)
		switch f.Kind(p) {
		case analyzer.KindParenthesizedExpression:
			e = p
			continue
		case analyzer.KindAttribute:
			c := f.Parent(p)
			if f.Field(p, analyzer.FieldObject) != e || f.Kind(c) != analyzer.KindCall || f.Field(c, analyzer.FieldFunction) != p {
				return false
			}
			name := f.Text(f.Field(p, analyzer.FieldAttribute))
			if name == "numpy" {
				return f.FirstChild(f.Field(c, analyzer.FieldArguments)) == analyzer.NoNode // not numpy(force=True)
			}
			if !keepsHistory[name] || !floatCast(f, c) {
				return false
			}
			e = c
			continue
		case analyzer.KindSubscript:
			if f.Field(p, analyzer.FieldValue) != e || !tensorIndex(f, p) {
				return false
			}
			e = p // `out[0, 0, :, :].numpy()`: a view of the tensor, history kept
			continue
		case analyzer.KindAssignment:
			left := f.Field(p, analyzer.FieldLeft)
			if f.Field(p, analyzer.FieldRight) != e || f.Kind(left) != analyzer.KindIdentifier {
				return false
			}
			return uses(left)
		case analyzer.KindAugmentedAssignment:
			// `mu /= n`: the name bound again to what keeps its history.
			if f.Field(p, analyzer.FieldLeft) != e || f.Kind(e) != analyzer.KindIdentifier {
				return false
			}
			return uses(e)
		case analyzer.KindArgumentList:
			if call := f.Parent(p); through && keepsHistoryFunc[m.QualifiedName(f.Field(call, analyzer.FieldFunction))] &&
				f.FirstChild(p) == e && m.Keyword(call, "out") == analyzer.NoNode {
				e = call // `F.normalize(x, dim=1).numpy()`
				continue
			}
			def := m.LocalCallee(f.Parent(p))
			if def == analyzer.NoNode {
				return false
			}
			i, params := slices.Index(m.Args(f.Parent(p)), e), m.PositionalParams(def)
			return i >= 0 && i < len(params) && uses(params[i])
		}
		return false
	}
}

// historyDroppedAt reports whether a binding that may reach use u gives
// the name a value without autograd history: one detached, read on the
// host (`.detach()`, `.data`, `.item()`) or computed under no_grad.
func historyDroppedAt(m *analyzer.Model, u analyzer.NodeID) bool {
	f := m.File
	for _, b := range m.ReachingBindings(u) {
		if b.Kind != analyzer.BindAssign || b.Value == analyzer.NoNode {
			continue
		}
		if m.GradModeAt(b.Value) == analyzer.GradDisabled {
			return true
		}
		dropped := false
		f.Walk(b.Value, func(id analyzer.NodeID) {
			switch {
			case dropped:
			case f.Kind(id) == analyzer.KindCall && analyzer.Detaches(m.MethodName(id)):
				dropped = true
			case f.Kind(id) == analyzer.KindAttribute && f.TextIs(f.Field(id, analyzer.FieldAttribute), "data"):
				dropped = true
			}
		})
		if dropped {
			return true
		}
	}
	return false
}

// floatCast reports whether a move or cast call keeps a floating-point
// tensor's dtype floating: `.to(torch.long)` gives a tensor without
// grad.
func floatCast(f *analyzer.File, call analyzer.NodeID) bool {
	args := f.Text(f.Field(call, analyzer.FieldArguments))
	return !strings.Contains(args, "int") && !strings.Contains(args, "long") && !strings.Contains(args, "bool")
}

// modelExpr is the model a call runs: `model` for `model(x)` and for
// `model.generate(x)`.
func modelExpr(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	f := m.File
	fn := f.Unparen(f.Field(call, analyzer.FieldFunction))
	if f.Kind(fn) == analyzer.KindAttribute {
		fn = f.Unparen(f.Field(fn, analyzer.FieldObject))
	}
	return fn
}

// keptInEval reports whether a call runs a model bound at module level
// that the file switches to evaluation mode and never back (a script
// that loads its model, calls `model.eval()` and defines the functions
// that use it).
func keptInEval(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	fn := modelExpr(m, call)
	if f.Kind(fn) != analyzer.KindIdentifier {
		return false
	}
	b := m.Resolve(fn)
	if b == nil || b.Scope != 0 || !moduleEvalNames(m)[f.Text(fn)] {
		return false
	}
	// A pass of the module's own code runs the value the name holds
	// there: one bound to another module after the switch (`attention =
	// MultiHeadAttention(...)` after `attention.eval()`) is not switched.
	// Module-level code runs in order: a pass before the switch (a
	// warm-up) runs in training mode.
	return m.ScopeNode(call) != analyzer.Root || switchedBinding(m, b, f.N(call).Start)
}

// switchedBinding reports whether a switch to evaluation mode at module
// level, before offset before, runs on the value binding b gives its
// name, or b makes its value from the name (`model = model.to(device)`).
func switchedBinding(m *analyzer.Model, b *analyzer.Binding, before uint32) bool {
	f := m.File
	name := f.Text(b.Name)
	if b.Value != analyzer.NoNode && mentionsKey(f, b.Value, name) {
		return true
	}
	found := false
	f.Walk(analyzer.Root, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall {
			return
		}
		if eval, _ := m.ModeSwitch(id); !eval {
			return
		}
		recv := f.Unparen(m.Receiver(id))
		found = f.Kind(recv) == analyzer.KindIdentifier && f.TextIs(recv, name) && m.Resolve(recv) == b && f.N(id).Start < before
	})
	return found
}

// moduleSwitch returns the first switch to evaluation mode of the model
// bound at module level that a call runs, where the file never switches
// it back (keptInEval: `encoder.eval()` after loading it, then
// `encoder(image)` in `evaluate`); NoNode where there is none.
func moduleSwitch(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	if !keptInEval(m, call) {
		return analyzer.NoNode
	}
	f := m.File
	name := f.Text(modelExpr(m, call))
	found := analyzer.NoNode
	f.Walk(analyzer.Root, func(id analyzer.NodeID) {
		if found != analyzer.NoNode || f.Kind(id) != analyzer.KindCall {
			return
		}
		if eval, _ := m.ModeSwitch(id); !eval {
			return
		}
		recv := f.Unparen(m.Receiver(id))
		if f.Kind(recv) == analyzer.KindIdentifier && f.TextIs(recv, name) {
			if b := m.Resolve(recv); b != nil && b.Scope == 0 {
				found = id
			}
		}
	})
	return found
}

// moduleEvalNames returns the names bound at module level that the file
// switches to evaluation mode and never to training mode.
func moduleEvalNames(m *analyzer.Model) map[string]bool {
	return m.Memo(moduleEvalKey{}, func() any {
		f := m.File
		return evalOnly(m, analyzer.Root, func(_, recv analyzer.NodeID, _ bool) bool {
			if f.Kind(recv) != analyzer.KindIdentifier {
				return false
			}
			b := m.Resolve(recv)
			return b != nil && b.Scope == 0
		})
	}).(map[string]bool)
}

type moduleEvalKey struct{}

// receiverText is the text of the model a call runs: `self.model` for
// `self.model(x)` and for `self.model.generate(x)`.
func receiverText(m *analyzer.Model, call analyzer.NodeID) string {
	f := m.File
	fn := f.Unparen(f.Field(call, analyzer.FieldFunction))
	if f.Kind(fn) != analyzer.KindAttribute {
		return ""
	}
	if obj := f.Unparen(f.Field(fn, analyzer.FieldObject)); f.Kind(obj) == analyzer.KindAttribute && f.TextIs(f.Field(obj, analyzer.FieldObject), "self") {
		return f.Text(obj)
	}
	return f.Text(fn)
}

// notForward reports whether a call of a value the model takes for a
// module cannot be a forward pass of trained weights: every argument is a
// literal (`make_noise(4, 8)`, a constructor's sizes), or the callee is a
// layer without parameters (`nn.ReplicationPad2d(...)`), a class taken
// from a registry (`cls = MODELS[name]`) or a tensor type
// (`Tensor = torch.cuda.FloatTensor`).
func notForward(m *analyzer.Model, call analyzer.NodeID) bool {
	return m.OnlyLiteralArgs(call) || !m.IsModelValue(m.File.Field(call, analyzer.FieldFunction)) || handsModel(m, call)
}

// handsModel reports whether call hands a model to a callee whose class
// the file does not show (`method(x_s, x_q, model=model)`, a few-shot
// method picked from a registry): an algorithm that runs the model it is
// given, in a mode of its own choosing (its own no_grad in evaluation
// mode, or a test-time optimization that needs gradients), not one
// forward pass in its caller's mode.
func handsModel(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	if m.InstanceForward(f.Field(call, analyzer.FieldFunction)) != analyzer.NoNode {
		return false
	}
	var vals []analyzer.NodeID
	f.Children(f.Field(call, analyzer.FieldArguments), func(c analyzer.NodeID) bool {
		if f.Kind(c) == analyzer.KindKeywordArgument {
			c = f.Field(c, analyzer.FieldValue)
		}
		vals = append(vals, f.Unparen(c))
		return true
	})
	scope := m.ScopeNode(call)
	return slices.ContainsFunc(vals, func(v analyzer.NodeID) bool {
		k := f.Kind(v)
		return (k == analyzer.KindIdentifier || k == analyzer.KindAttribute) && m.ClassifyCallee(v) == analyzer.CallableModel &&
			m.CallsMethodOn(scope, f.Text(v), moduleOnlyMethods)
	})
}

// moduleOnlyMethods are methods of nn.Module that a tensor does not have.
var moduleOnlyMethods = map[string]bool{"eval": true, "train": true, "parameters": true, "named_parameters": true,
	"state_dict": true, "load_state_dict": true, "modules": true, "children": true}

// outputsOnlyToHost reports whether all that a forward call's output
// becomes ends on the host (`.item()`, `.numpy()`, `.tolist()`, `print`,
// plotting, saving) or as indices (`argmax`, a comparison), and none of
// it reaches a loss, a backward, a store or code this file cannot see.
func outputsOnlyToHost(m *analyzer.Model, call analyzer.NodeID) bool {
	return returnsHost(m, call) || hostBound(m, call, false, 0)
}

// returnsHost reports whether a forward call runs a method of this file
// every return of which is read on the host (`return probs.data.numpy()`):
// its caller gets no graph, whatever it does with the result.
func returnsHost(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	def := m.InstanceForward(f.Field(call, analyzer.FieldFunction))
	if def == analyzer.NoNode {
		return false
	}
	vals := m.ReturnValues(def)
	for _, v := range vals {
		if v = f.Unparen(v); f.Kind(v) != analyzer.KindCall {
			return false
		}
		switch m.MethodName(v) {
		case "numpy", "item", "tolist":
		default:
			return false
		}
	}
	return len(vals) > 0
}

// hostOrReturned is outputsOnlyToHost, with the function's return value
// as one more place where a value may end.
func hostOrReturned(m *analyzer.Model, call analyzer.NodeID, depth int) bool {
	return hostBound(m, call, true, depth)
}

// hostEndMethods end a tensor's way on the host or as indices, which carry
// no graph; so does a distribution's sample.
var hostEndMethods = map[string]bool{
	"sample": true, "multinomial": true, "bernoulli": true, // draws carry no gradient
	"item": true, "tolist": true, "numpy": true, "argmax": true, "argmin": true, "argsort": true,
	"long": true, "int": true, "bool": true, "byte": true, "eq": true, "ne": true, "gt": true,
	"lt": true, "ge": true, "le": true, "size": true, "dim": true, "numel": true,
	// logging and plotting objects
	"add_scalar": true, "add_scalars": true, "add_image": true, "add_images": true, "add_figure": true,
	"add_histogram": true, "add_video": true, "add_audio": true, "imsave": true, "imwrite": true, "savefig": true,
}

// distributionMethods of a distribution made of outputs, or given a draw
// from it, hand the graph on in what they return (`dist.log_prob(a)`,
// `dist.rsample()`).
var distributionMethods = map[string]bool{"rsample": true, "log_prob": true, "entropy": true, "cdf": true, "icdf": true}

// passMethods keep a tensor a tensor on the way to the host.
var passMethods = map[string]bool{
	"detach": true, "cpu": true, "cuda": true, "to": true, "float": true, "double": true, "half": true,
	"squeeze": true, "unsqueeze": true, "view": true, "reshape": true, "softmax": true, "log_softmax": true,
	"sigmoid": true, "exp": true, "mean": true, "sum": true, "max": true, "min": true, "clamp": true,
	"permute": true, "transpose": true, "contiguous": true, "flatten": true, "clone": true, "t": true,
	"abs": true, "round": true, "mul": true, "div": true, "add": true, "sub": true, "pow": true, "sqrt": true,
	"norm": true, "tanh": true, "clip": true, "type": true, "data": true, "topk": true, "sort": true,
	"view_as": true, "reshape_as": true, "expand": true, "expand_as": true, "type_as": true, "repeat": true, "flip": true,
	"log": true, "neg": true,
}

// hostFunctions take a value to the host: printing, formatting, plotting
// and saving.
var hostFunctions = map[string]bool{
	"print": true, "str": true, "repr": true, "float": true, "int": true, "bool": true, "len": true, "isinstance": true,
	"round": true, "format": true, "torch.save": true, "torch.argmax": true, "torch.argmin": true, "torch.multinomial": true,
	"torchvision.utils.save_image": true, "torchvision.utils.make_grid": true,
}

// hostPrefixes are libraries whose functions take a value to the host.
var hostPrefixes = []string{"numpy.", "matplotlib.", "cv2.", "PIL.", "imageio.", "scipy.", "sklearn.", "wandb.", "logging.", "skimage."}

// passFunctions keep a tensor a tensor on the way to the host.
var passFunctions = map[string]bool{
	"torch.nn.functional.softmax": true, "torch.nn.functional.log_softmax": true, "torch.softmax": true,
	"torch.sigmoid": true, "torch.exp": true, "torch.round": true, "torch.clamp": true, "torch.squeeze": true,
	"torch.nn.functional.sigmoid": true, "torch.tanh": true, "torch.max": true, "torch.topk": true, "torch.sort": true,
	"torch.norm": true, "torch.linalg.norm": true, "torch.nn.functional.normalize": true, "torch.abs": true,
	"torch.mean": true, "torch.sum": true, "torch.log": true, "torch.sqrt": true, "torch.min": true,
	// several tensors in, one out: the output ends where the result does
	"torch.cat": true, "torch.stack": true, "torch.mm": true, "torch.matmul": true, "torch.bmm": true,
	// a draw whose mean and std are outputs: recorded, with a zero gradient
	"torch.normal": true,
	// NumPy's that call the tensor's own method and return a tensor, its
	// graph kept (`np.squeeze(D(x))` calls `.squeeze()`)
	"numpy.squeeze": true, "numpy.reshape": true, "numpy.clip": true, "numpy.round": true,
}

// hostBound reports whether value e (a forward output or what it
// became) ends on the host along every way it goes, and has one.
func hostBound(m *analyzer.Model, e analyzer.NodeID, ret bool, depth int) bool {
	f := m.File
	if depth > 24 {
		return false
	}
	e, p := useOf(f, e)
	switch f.Kind(p) {
	case analyzer.KindAttribute:
		name, call, ok := attributeUse(f, e, p)
		if !ok {
			return false
		}
		if call == analyzer.NoNode {
			switch name {
			case "data", "mean", "stddev", "variance", "probs", "logits", "loc", "scale", "mode":
				// a tensor's data, or a parameter of the distribution a
				// policy returns (`dist.mean`)
				return hostBound(m, p, ret, depth+1)
			}
			return analyzer.NonGradAttribute(name) // `x.shape`, `x.ndim`: numbers
		}
		switch {
		case name == "sample" && m.EnclosingFunction(call) != analyzer.NoNode && m.Backpropagates(m.EnclosingFunction(call)):
			// A draw in a function that back-propagates may be one of a
			// distribution of the project's that reparameterizes
			// (`dist.sample(clip=c)` fed to the critic whose loss an
			// actor's update back-propagates): where it goes.
			return hostBound(m, call, ret, depth+1)
		case hostEndMethods[name]:
			return true
		case passMethods[name] || distributionMethods[name]:
			return hostBound(m, call, ret, depth+1)
		}
		return false
	case analyzer.KindSubscript, analyzer.KindUnaryOperator, analyzer.KindConditionalExpression:
		if f.Kind(p) == analyzer.KindConditionalExpression && f.Field(p, analyzer.FieldCondition) == e {
			return true
		}
		return hostBound(m, p, ret, depth+1)
	case analyzer.KindComparisonOperator, analyzer.KindInterpolation:
		return true
	case analyzer.KindExpressionStatement:
		// A notebook cell's last expression: IPython shows it.
		return f.CellDisplays(p)
	case analyzer.KindReturnStatement:
		return ret
	case analyzer.KindExpressionList:
		// `return action.item(), dist.log_prob(action)`: returned as the
		// other parts are.
		return f.Kind(f.Parent(p)) == analyzer.KindReturnStatement && ret
	case analyzer.KindBinaryOperator:
		return hostBound(m, p, ret, depth+1)
	case analyzer.KindKeywordArgument:
		return hostArgument(m, f.Parent(p), analyzer.NoNode, ret, depth)
	case analyzer.KindArgumentList:
		return hostArgument(m, p, e, ret, depth)
	case analyzer.KindTuple, analyzer.KindList:
		// `torch.cat((z[src], z[dst]), 1)`: the sequence a function joins.
		if args := f.Parent(p); f.Kind(args) == analyzer.KindArgumentList {
			if q := m.CallName(f.Parent(args)); q == "torch.cat" || q == "torch.stack" {
				return hostArgument(m, args, analyzer.NoNode, ret, depth)
			}
		}
		// `outputs = [outputs]`, then `outputs[-1].argmax(1)`: a sequence
		// bound to a name, where its uses take it.
		if a := f.Parent(p); f.Kind(a) == analyzer.KindAssignment && f.Field(a, analyzer.FieldRight) == p &&
			f.Kind(f.Field(a, analyzer.FieldLeft)) == analyzer.KindIdentifier {
			return hostBound(m, p, ret, depth+1)
		}
		return false
	case analyzer.KindAugmentedAssignment:
		// `act += noise`: the name bound again to the sum, which goes
		// where its later uses take it; so does what is added into it
		// outside a loop (`log_probs -= torch.log(1 - a.pow(2))`): in a
		// loop, a running total is TL101's question.
		left := f.Field(p, analyzer.FieldLeft)
		if f.Kind(left) != analyzer.KindIdentifier {
			return false
		}
		if left != e {
			if loop := m.EnclosingLoop(p); f.Field(p, analyzer.FieldRight) != e || loop != analyzer.NoNode && m.ScopeNode(loop) == m.ScopeNode(p) {
				return false
			}
		}
		return hostName(m, left, ret, depth)
	case analyzer.KindAssignment:
		if f.Field(p, analyzer.FieldRight) != e {
			return false
		}
		if !hostTargets(m, f.Field(p, analyzer.FieldLeft), ret, depth) {
			return false
		}
		if outer := f.Parent(p); f.Kind(outer) == analyzer.KindAssignment && f.Field(outer, analyzer.FieldRight) == p {
			// `backward_loss = display_loss = crit(out, y)`: every name.
			return hostBound(m, p, ret, depth+1)
		}
		return true
	}
	return false
}

// stringFormat reports whether call is `str.format` of a string literal
// (`"loss {:.3f}".format(x)`), which formats what it is given as text:
// on the host, as an f-string does.
func stringFormat(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	return m.MethodName(call) == "format" && stringLiteral(f, m.Receiver(call))
}

// stringLiteral reports whether e is a string literal, or literals
// joined across lines (`'a: {} ' 'b: {}'`).
func stringLiteral(f *analyzer.File, e analyzer.NodeID) bool {
	k := f.Kind(f.Unparen(e))
	return k == analyzer.KindString || k == analyzer.KindConcatenatedString
}

// hostArgument reports whether a call that args (an argument list) is
// passed to takes its arguments to the host, or passes them on to a
// value that ends there; arg is the argument followed, NoNode where it
// is not one of args itself.
func hostArgument(m *analyzer.Model, args, arg analyzer.NodeID, ret bool, depth int) bool {
	f := m.File
	call := f.Parent(args)
	if f.Kind(call) != analyzer.KindCall {
		return false
	}
	q := m.CallName(call)
	if q == "" {
		// `self.distribution(mu, sigma)`, the class held by its object.
		q = m.HeldLibraryClass(f.Unparen(f.Field(call, analyzer.FieldFunction)))
	}
	if q != "" {
		switch {
		case hostFunctions[q]:
			return true
		case likeFunctions[q]:
			return true // `torch.randn_like(action)`: its shape alone, as `action.shape`
		case passFunctions[q] || strings.HasPrefix(q, "torch.nn.functional.") && !m.IsLossCall(call):
			// `F.adaptive_avg_pool2d(pred, (1, 1))`: the functional ops
			// keep nothing, and hand the graph on in what they return
			// (a loss of them is judged below).
			return hostBound(m, call, ret, depth+1)
		}
		if strings.HasPrefix(q, "torch.distributions.") {
			// `Normal(mu, sigma).sample()`: the distribution ends where
			// what is drawn from it or read of it does.
			return hostBound(m, call, ret, depth+1)
		}
		for _, pre := range hostPrefixes {
			if strings.HasPrefix(q, pre) {
				return true
			}
		}
	}
	if hostEndMethods[m.MethodName(call)] && m.LocalCallee(call) == analyzer.NoNode {
		return true // not a method of this file's that takes the name (a VAE's `self.sample(h)`)
	}
	if arg != analyzer.NoNode && distributionMethods[m.MethodName(call)] && m.LocalCallee(call) == analyzer.NoNode {
		return hostBound(m, call, ret, depth+1) // `dist.log_prob(action)`: the log-probability of a draw
	}
	if stringFormat(m, call) {
		return true // `"Q {}".format(q.max())`: formatted as text, as in an f-string
	}
	if arg != analyzer.NoNode && m.IsLossCall(call) {
		if lossToHost(m, call) {
			return true
		}
		if ret {
			// A loss of the output that the function returns
			// (`return crit(self(x), y)`) hands the output's graph back
			// with it: the caller decides where it goes.
			return hostBound(m, call, ret, depth+1)
		}
	}
	// A layer without parameters (`self.softmax = nn.Softmax(-1)`): where
	// its output goes.
	if arg != analyzer.NoNode && m.FreeLayerCall(call) {
		return hostBound(m, call, ret, depth+1)
	}
	// Another model run on it (`z = Q(P(z))`, a Gibbs chain): where that
	// pass's outputs go. A pass met again on the way (the chain's next
	// step) adds no way of its own.
	if arg != analyzer.NoNode && m.IsForwardCall(call) && !m.IsLossCall(call) {
		return hostOnPath(m, call, func() bool { return hostBound(m, call, ret, depth+1) })
	}
	// A function of the project that hands on in its result what it is
	// given, and back-propagates none of it (`denorm(fake.data)`): where
	// the result goes. One that ends the graph of what it is given ends
	// it (a selector that returns the indices of the best scores).
	if arg != analyzer.NoNode {
		if known, backprop, kept, dropped := m.ArgUse(call, arg); known && !backprop {
			if !dropped && !kept && detachedArg(m, arg) {
				// `onehot_to_word(out.data)`: values without history,
				// handed to a function of the file that returns nothing
				// made of them and keeps nothing, which reads them on
				// the host or lets them go.
				def := m.LocalCallee(call)
				return def != analyzer.NoNode && m.KeepsNothing(def)
			}
			return dropped || kept && hostBound(m, call, ret, depth+1)
		}
	}
	return false
}

// detachedArg reports whether arg, an argument, is a value without
// autograd history taken from one with it: `out.data`, `out.detach()`,
// maybe moved (`out.detach().cpu()`).
func detachedArg(m *analyzer.Model, arg analyzer.NodeID) bool {
	f := m.File
	arg = f.Unparen(arg)
	for f.Kind(arg) == analyzer.KindCall && (m.MethodName(arg) == "cpu" || m.MethodName(arg) == "clone") {
		arg = f.Unparen(m.Receiver(arg))
	}
	switch f.Kind(arg) {
	case analyzer.KindAttribute:
		return f.TextIs(f.Field(arg, analyzer.FieldAttribute), "data")
	case analyzer.KindCall:
		return m.MethodName(arg) == "detach"
	}
	return false
}

// lossToHost reports whether a loss computed of a forward pass's output
// is read on the host and nowhere else, where it is computed or through
// the one name it is bound to (`crit(out, y).item()`, `float(crit(out,
// y))`, `loss = crit(out, y)` then `print(loss.item())`): a loss that is
// summed (`err = err + crit(out, y)`), back-propagated or handed on is
// not, even where the sum is read on the host in the end, since the sum
// keeps every graph it adds.
func lossToHost(m *analyzer.Model, call analyzer.NodeID) bool {
	return lossToHostAt(m, call, 0)
}

// lossToHostAt is lossToHost for a value made of one loss (the loss, or
// what a function or method of passFunctions or passMethods made of it:
// `torch.sqrt(mse(out, y))`, `crit(out, y).mean()`), depth calls away.
func lossToHostAt(m *analyzer.Model, call analyzer.NodeID, depth int) bool {
	f := m.File
	if depth > 4 {
		return false
	}
	read := func(e analyzer.NodeID) bool {
		e, p := useOf(f, e)
		switch f.Kind(p) {
		case analyzer.KindAttribute:
			name, c, ok := attributeUse(f, e, p)
			return ok && c != analyzer.NoNode && (hostEndMethods[name] || passMethods[name] && lossToHostAt(m, c, depth+1))
		case analyzer.KindArgumentList:
			q := m.CallName(f.Parent(p))
			return hostFunctions[q] || stringFormat(m, f.Parent(p)) ||
				passFunctions[q] && len(m.Args(f.Parent(p))) == 1 && lossToHostAt(m, f.Parent(p), depth+1)
		case analyzer.KindInterpolation:
			return true
		}
		return false
	}
	if read(call) {
		return true
	}
	e, p := useOf(f, call)
	if f.Kind(p) != analyzer.KindAssignment || f.Field(p, analyzer.FieldRight) != e {
		return false
	}
	target := f.Field(p, analyzer.FieldLeft)
	if f.Kind(target) != analyzer.KindIdentifier {
		return false
	}
	uses := m.ReachedUsesOf(target)
	for _, u := range uses {
		if !read(u) {
			return false
		}
	}
	return len(uses) > 0
}

// hostTargets is hostName for the target of an assignment, a name or the
// names a tuple is unpacked into (`_, adv = q_net(s)`, `p, cls =
// ps.topk(1)`): each used only in ways that end on the host or never
// read, and one used at least.
func hostTargets(m *analyzer.Model, target analyzer.NodeID, ret bool, depth int) bool {
	f := m.File
	switch f.Kind(target) {
	case analyzer.KindPatternList, analyzer.KindTuplePattern:
	case analyzer.KindSubscript:
		return hostBuffer(m, target, ret, depth)
	default:
		return hostName(m, target, ret, depth)
	}
	used := false
	hostElems := hostTargetElems(m, target)
	for i, t := range f.ChildList(target) {
		switch {
		case f.Kind(t) == analyzer.KindIdentifier && (f.TextIs(t, "_") || len(m.UsesOf(t)) == 0):
			// `_`, or a name never read: discarded
		case slices.Contains(hostElems, i):
			// `action, log_prob = policy.act(state)`, where act returns
			// `action.item()`: a number, whatever it is given to
			used = true
		case f.Kind(t) != analyzer.KindIdentifier || !hostName(m, t, ret, depth):
			return false
		default:
			used = true
		}
	}
	return used
}

// hostTargetElems returns, for target (the names a tuple assignment
// unpacks), the positions of those that get a value read on the host
// (hostReturnElems of the value assigned); nil where a starred target
// shifts the positions.
func hostTargetElems(m *analyzer.Model, target analyzer.NodeID) []int {
	f := m.File
	if slices.ContainsFunc(f.ChildList(target), func(t analyzer.NodeID) bool { return f.Kind(t) != analyzer.KindIdentifier }) {
		return nil
	}
	return hostReturnElems(m, f.Field(f.Parent(target), analyzer.FieldRight))
}

// hostReturnElems returns, for value (a call of a function of this file
// every return of which builds a tuple of the same length), the
// positions of the elements that every return reads on the host
// (`return action.item(), dist.log_prob(action)`): they carry no graph.
func hostReturnElems(m *analyzer.Model, value analyzer.NodeID) []int {
	f := m.File
	value = f.Unparen(value)
	if f.Kind(value) != analyzer.KindCall {
		return nil
	}
	def := m.LocalCallee(value)
	if def == analyzer.NoNode {
		return nil
	}
	var out []int
	n := -1
	for k, v := range m.ReturnValues(def) {
		v = f.Unparen(v)
		if f.Kind(v) != analyzer.KindExpressionList && f.Kind(v) != analyzer.KindTuple {
			return nil
		}
		elems := f.ChildList(v)
		if k == 0 {
			n = len(elems)
			for i, e := range elems {
				if hostValue(m, e) {
					out = append(out, i)
				}
			}
			continue
		}
		if len(elems) != n {
			return nil
		}
		out = slices.DeleteFunc(out, func(i int) bool { return !hostValue(m, elems[i]) })
	}
	return out
}

// hostValue reports whether expression e is a value read on the host
// (`action.item()`, `probs.argmax().item() - 1`) or a literal: a number,
// with no graph.
func hostValue(m *analyzer.Model, e analyzer.NodeID) bool {
	f := m.File
	e = f.Unparen(e)
	switch f.Kind(e) {
	case analyzer.KindInteger, analyzer.KindFloat, analyzer.KindString, analyzer.KindTrue, analyzer.KindFalse, analyzer.KindNone:
		return true
	case analyzer.KindBinaryOperator:
		return hostValue(m, f.Field(e, analyzer.FieldLeft)) && hostValue(m, f.Field(e, analyzer.FieldRight))
	case analyzer.KindCall:
		switch name := m.MethodName(e); name {
		case "item", "tolist", "numpy":
			return m.LocalCallee(e) == analyzer.NoNode
		}
	}
	return false
}

// hostBuffer reports whether a store into an entry of a tensor, an
// array or a list the function makes (`actions[i, :] = act` into
// `actions = torch.zeros(n, 2)`) ends on the host: every later use of
// the container, but another store into it, does.
func hostBuffer(m *analyzer.Model, target analyzer.NodeID, ret bool, depth int) bool {
	f := m.File
	base := f.Unparen(f.Field(target, analyzer.FieldValue))
	if f.Kind(base) != analyzer.KindIdentifier {
		return false
	}
	b := m.Resolve(base)
	if b == nil || b.Kind != analyzer.BindAssign || b.Unpacked || m.ScopeNode(b.Name) != m.ScopeNode(target) {
		return false
	}
	switch v := f.Unparen(b.Value); f.Kind(v) {
	case analyzer.KindList, analyzer.KindDictionary:
	case analyzer.KindCall:
		if q := m.CallName(v); !strings.HasPrefix(q, "torch.") && !strings.HasPrefix(q, "numpy.") {
			return false
		}
	default:
		return false
	}
	return hostOnPath(m, b.Name, func() bool {
		return everyUse(m, b.Name, func(u analyzer.NodeID) bool {
			return entryStored(f, u) != analyzer.NoNode || hostBound(m, u, ret, depth+1) // another store into it adds no way
		})
	})
}

// hostName reports whether a name assigned a value uses it, after the
// assignment, only in ways that end on the host, and uses it at all.
func hostName(m *analyzer.Model, target analyzer.NodeID, ret bool, depth int) bool {
	// A name met again on the way (a recurrent state, bound again from
	// what it fed) adds no way of its own.
	return hostOnPath(m, target, func() bool {
		return everyUse(m, target, func(u analyzer.NodeID) bool { return hostBound(m, u, ret, depth+1) })
	})
}

// hostOnPath answers ask for id (a forward call, a name), unless id is
// being answered already on the way here: met again, it adds no way of
// its own.
func hostOnPath(m *analyzer.Model, id analyzer.NodeID, ask func() bool) bool {
	busy := m.Memo(hostBusyKey{}, func() any { return map[analyzer.NodeID]bool{} }).(map[analyzer.NodeID]bool)
	if busy[id] {
		return true
	}
	busy[id] = true
	defer delete(busy, id)
	return ask()
}

type hostBusyKey struct{}

// everyUse reports whether a name assigned a value is used after the
// assignment, and every use passes ok.
func everyUse(m *analyzer.Model, target analyzer.NodeID, ok func(use analyzer.NodeID) bool) bool {
	f := m.File
	uses := m.ReachedUsesOf(target)
	// What the assignment's own call is given again on the next
	// iteration (`out, state = model(x, state)`) chains its passes; it
	// goes nowhere else.
	stmt := f.Parent(target)
	for f.Kind(stmt) == analyzer.KindPatternList || f.Kind(stmt) == analyzer.KindTuplePattern {
		stmt = f.Parent(stmt)
	}
	again := analyzer.NoNode
	if f.Kind(stmt) == analyzer.KindAssignment && f.Field(stmt, analyzer.FieldLeft) != target {
		again = f.Field(stmt, analyzer.FieldRight)
	}
	n := 0
	for _, u := range uses {
		if f.Contains(again, u) || deleted(f, u) {
			continue // `del fake`: nothing is read
		}
		if !ok(u) {
			return false
		}
		n++
	}
	return n > 0 || len(uses) > 0 && again != analyzer.NoNode
}

// deleted reports whether use u of a name is a `del` of it (`del x`,
// `del x, y`).
func deleted(f *analyzer.File, u analyzer.NodeID) bool {
	p := f.Parent(u)
	if f.Kind(p) == analyzer.KindExpressionList {
		p = f.Parent(p)
	}
	return f.Kind(p) == analyzer.KindDeleteStatement
}

// namesEvaluation reports whether a function's name reads as evaluation
// or inference (`evaluate`, `eval_step`, `predict`, `test`). Other words
// in it cancel nothing: what the function does decides (a function that
// back-propagates needs its gradients).
func namesEvaluation(name string) bool {
	for _, w := range strings.Split(strings.ToLower(strings.Trim(name, "_")), "_") {
		if evalWords[w] {
			return true
		}
	}
	return false
}

type gradUseKey struct{ def analyzer.NodeID }

type gradBusyKey struct{}

// namesTest reports whether a function's name says it tests
// (`test`, `test_forward`, `speed_test`).
func namesTest(name string) bool {
	for _, w := range strings.Split(strings.ToLower(strings.Trim(name, "_")), "_") {
		if w == "test" || w == "testing" {
			return true
		}
	}
	return false
}

// gradientUse reports whether node id back-propagates or asks for
// gradients, itself or through a function it calls: then grad must stay
// enabled around it (saliency, adversarial examples, test-time training).
func gradientUse(m *analyzer.Model, id analyzer.NodeID) bool {
	f := m.File
	switch f.Kind(id) {
	case analyzer.KindCall:
		q := m.CallName(id)
		if m.SkipsBackward(id) {
			return false // `run_epoch(model, val_loader, train=False)`: its backward() is under `if train:`
		}
		if m.IsBackwardCall(id) || m.MethodName(id) == "requires_grad_" ||
			(strings.HasPrefix(q, "torch.autograd.") && !variableNames[q]) || q == "torch.enable_grad" {
			return true
		}
		if kw := m.Keyword(id, "requires_grad"); kw != analyzer.NoNode && f.Kind(kw) == analyzer.KindTrue {
			return true
		}
		if s := m.Steps(id); s != nil && (s.Backward != nil || s.Grads != nil) {
			return true
		}
		// A module whose forward trains (a meta-learner's step) or
		// differentiates (a meta-learner adapting a copy of its weights
		// with torch.autograd.grad, in whatever file; an adversarial
		// attack's `torch.autograd.grad(cost, images)` in a class of
		// this file): running it needs grad. So does a function of this
		// file that asks for gradients.
		if def := m.LocalCallee(id); def != analyzer.NoNode {
			return forwardStepsDifferentiate(m, id) || defUsesGradients(m, def)
		}
		return forwardDifferentiates(m, id)
	case analyzer.KindAssignment:
		left := f.Field(id, analyzer.FieldLeft)
		return f.Kind(left) == analyzer.KindAttribute && f.TextIs(f.Field(left, analyzer.FieldAttribute), "requires_grad") &&
			f.Kind(f.Field(id, analyzer.FieldRight)) == analyzer.KindTrue
	}
	return false
}

// defUsesGradients reports whether a function of this file asks for
// gradients (`torch.autograd.grad` in a Hessian-vector product or a
// Jacobian, a backward), itself or through the functions of the file it
// calls, which a backward step fact does not show.
func defUsesGradients(m *analyzer.Model, def analyzer.NodeID) bool {
	f := m.File
	busy := m.Memo(gradBusyKey{}, func() any { return map[analyzer.NodeID]bool{} }).(map[analyzer.NodeID]bool)
	if busy[def] {
		return false
	}
	busy[def] = true
	defer delete(busy, def)
	return m.Memo(gradUseKey{def}, func() any {
		uses := false
		f.Walk(def, func(n analyzer.NodeID) {
			if !uses && f.Kind(n) == analyzer.KindCall {
				uses = m.IsBackwardCall(n) || m.AsksGradients(n) || m.LocalCallee(n) != analyzer.NoNode && gradientUse(m, n)
			}
		})
		return uses
	}).(bool)
}

// backpropsOwnState reports whether a backward of the function, after
// call, back-propagates a value its module keeps on itself (`loss =
// net.loss; loss.backward()`, after `net(x, y)` whose forward sets
// `self.loss_mse`): the pass's graph is trained through the module's
// state, whatever happens to its outputs.
func backpropsOwnState(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	fn := f.Unparen(f.Field(call, analyzer.FieldFunction))
	if k := f.Kind(fn); k != analyzer.KindIdentifier && k != analyzer.KindAttribute {
		return false
	}
	module := f.Text(fn)
	var reads func(e analyzer.NodeID, depth int) bool
	reads = func(e analyzer.NodeID, depth int) bool {
		found := false
		f.Walk(e, func(id analyzer.NodeID) {
			switch {
			case found:
			case f.Kind(id) == analyzer.KindAttribute && f.TextIs(f.Field(id, analyzer.FieldObject), module):
				found = f.Kind(f.Parent(id)) != analyzer.KindCall || f.Field(f.Parent(id), analyzer.FieldFunction) != id
			case f.Kind(id) == analyzer.KindIdentifier && depth < 4 && f.N(id).Field != analyzer.FieldAttribute:
				if v := m.AssignedValue(id); v != analyzer.NoNode && !f.Contains(v, id) {
					found = reads(v, depth+1)
				}
			}
		})
		return found
	}
	scope, found := m.ScopeNode(call), false
	f.Walk(scope, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || m.ScopeNode(id) != scope || f.N(id).Start < f.N(call).End || !m.AddsGrad(id) {
			return
		}
		if v := backpropagatedValue(m, id); v != analyzer.NoNode {
			found = reads(v, 0)
		}
	})
	return found
}

// loopedSwitch returns, for a call that switches the target of a for loop
// or comprehension to evaluation mode (`net.eval()` in `for net in (G,
// D):`) or to training mode, which of the two, and the models the loop's
// literal list or tuple names; nil names for any other call.
func loopedSwitch(m *analyzer.Model, call analyzer.NodeID) (eval bool, names []string) {
	f := m.File
	eval, train := m.ModeSwitch(call)
	if !eval && !train {
		return false, nil
	}
	b := m.Resolve(f.Unparen(m.Receiver(call)))
	if b == nil || b.Kind != analyzer.BindLoopTarget || f.Kind(f.Field(b.Stmt, analyzer.FieldLeft)) != analyzer.KindIdentifier {
		return false, nil
	}
	list := f.Unparen(b.Value)
	if k := f.Kind(list); k != analyzer.KindList && k != analyzer.KindTuple {
		return false, nil
	}
	ok := true
	f.Children(list, func(c analyzer.NodeID) bool {
		c = f.Unparen(c)
		ok = (f.Kind(c) == analyzer.KindIdentifier || f.Kind(c) == analyzer.KindAttribute) && isModelReceiver(m, c)
		names = append(names, compactText(f, c))
		return ok
	})
	if !ok || len(names) == 0 {
		return false, nil
	}
	return eval, names
}

// syntheticTensors are torch factories of random or constant tensors.
var syntheticTensors = map[string]bool{
	"torch.randn": true, "torch.rand": true, "torch.randint": true, "torch.zeros": true,
	"torch.ones": true, "torch.empty": true, "torch.full": true, "torch.arange": true,
}

// reboundLaterInLoop reports whether the name use reads is assigned
// again in a loop around it, in the same scope, by an assignment that
// ends after it (the statement of the use included): from the second
// iteration on, it reads that value (`inp = torch.zeros(n)` before a
// loop that feeds the model its own samples, `inp = sample(model(inp))`).
func reboundLaterInLoop(m *analyzer.Model, use analyzer.NodeID) bool {
	f := m.File
	loop := m.EnclosingLoop(use)
	if loop == analyzer.NoNode || m.ScopeNode(loop) != m.ScopeNode(use) {
		return false
	}
	found := false
	b := m.Resolve(use)
	f.Walk(loop, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindAssignment || f.N(id).End <= f.N(use).Start || m.ScopeNode(id) != m.ScopeNode(use) ||
			b != nil && b.Stmt == id {
			return
		}
		left := f.Field(id, analyzer.FieldLeft)
		if f.Kind(left) != analyzer.KindIdentifier || !f.TextIs(left, f.Text(use)) {
			return
		}
		// `x = net(x)`: the model run on its own output, still a dry run
		// of the first input.
		right := f.Unparen(f.Field(id, analyzer.FieldRight))
		found = !m.IsForwardCall(right) || !slices.ContainsFunc(m.Args(right), func(a analyzer.NodeID) bool { return f.TextIs(f.Unparen(a), f.Text(use)) })
	})
	return found
}

// smokeTest reports whether a forward call only feeds the model
// synthetic tensors (`net(torch.randn(1, 3, 32, 32))`) made once: a shape
// check, not an evaluation of trained weights. In a loop that makes them
// afresh, noise every few steps samples a generator.
func smokeTest(m *analyzer.Model, call analyzer.NodeID) bool {
	return fedOnly(m, call, syntheticTensors) && !freshEachIteration(m, call, syntheticTensors)
}

// freshEachIteration reports whether a call runs in a loop whose body
// makes a tensor with one of the factories of set: fresh input every
// iteration (a generator sampled from new noise every few steps), not
// one dry run. So does a call the loop runs every few iterations
// (`if i % 100 == 0: G(z_test)` on a fixed noise): a periodic sample. A
// loop over a literal range of a few iterations whose pass's outputs
// are read for their shape alone (`for i in range(10):
// print(model(torch.rand(...)).size())`) repeats a dry run.
func freshEachIteration(m *analyzer.Model, call analyzer.NodeID, set map[string]bool) bool {
	f := m.File
	loop := m.EnclosingLoop(call)
	if loop == analyzer.NoNode || fewLiteralIterations(m, loop) && shapeOnly(m, call, 0) {
		return false
	}
	if periodicTest(f, loop, call) != analyzer.NoNode {
		return true
	}
	fresh := false
	f.Walk(loop, func(id analyzer.NodeID) {
		if !fresh && f.Kind(id) == analyzer.KindCall && set[m.CallName(id)] {
			fresh = true
		}
	})
	return fresh
}

// fewLiteralIterations reports whether loop is a for loop over
// `range(n)` with n a literal of at most 100.
func fewLiteralIterations(m *analyzer.Model, loop analyzer.NodeID) bool {
	f := m.File
	if f.Kind(loop) != analyzer.KindForStatement {
		return false
	}
	it := f.Unparen(f.Field(loop, analyzer.FieldRight))
	if f.Kind(it) == analyzer.KindIdentifier {
		// `for cfg in configs:`, configs bound once to a literal.
		if bs := m.ReachingBindings(it); len(bs) == 1 && bs[0].Kind == analyzer.BindAssign && bs[0].Value != analyzer.NoNode {
			it = f.Unparen(bs[0].Value)
		}
	}
	if k := f.Kind(it); k == analyzer.KindTuple || k == analyzer.KindList {
		// `for cfg in ((False, 1), (True, 2)):`: a few settings.
		n := 0
		f.Children(it, func(analyzer.NodeID) bool { n++; return true })
		return n <= 100
	}
	if f.Kind(it) != analyzer.KindCall || m.CallName(it) != "range" {
		return false
	}
	args := m.Args(it)
	if len(args) != 1 || f.Kind(args[0]) != analyzer.KindInteger {
		return false
	}
	n, err := strconv.Atoi(f.Text(args[0]))
	return err == nil && n <= 100
}

// randomTensors are torch factories of random tensors.
var randomTensors = map[string]bool{
	"torch.randn": true, "torch.rand": true, "torch.randint": true, "torch.randn_like": true, "torch.rand_like": true,
}

// dummyInput reports whether a forward call only feeds the model random
// tensors (`model(torch.rand(1, 3, 224, 224))`) made once: a dummy input
// to count operations, trace or check shapes. A constant tensor can be a real
// input (the seed of a generation), and is not one.
func dummyInput(m *analyzer.Model, call analyzer.NodeID) bool {
	return fedOnly(m, call, randomTensors) && !freshEachIteration(m, call, randomTensors)
}

// useOf returns what uses value e, past the parentheses around it, and
// e as that node holds it.
func useOf(f *analyzer.File, e analyzer.NodeID) (analyzer.NodeID, analyzer.NodeID) {
	p := f.Parent(e)
	for f.Kind(p) == analyzer.KindParenthesizedExpression {
		e, p = p, f.Parent(p)
	}
	return e, p
}

// attributeUse reads attribute p of value e: its name, and the call when
// p is a method called (`e.size()`), else NoNode; ok is false when e is
// not the attribute's object.
func attributeUse(f *analyzer.File, e, p analyzer.NodeID) (name string, call analyzer.NodeID, ok bool) {
	if f.Field(p, analyzer.FieldObject) != e {
		return "", analyzer.NoNode, false
	}
	name = f.Text(f.Field(p, analyzer.FieldAttribute))
	if call = f.Parent(p); f.Kind(call) != analyzer.KindCall || f.Field(call, analyzer.FieldFunction) != p {
		call = analyzer.NoNode
	}
	return name, call, true
}

// shapeOnly reports whether value e (a forward output or what it
// became) is read for its shape alone (`.size()`, `.shape`, `.dim()`),
// through views and names: a dry run that infers a layer's output size.
func shapeOnly(m *analyzer.Model, e analyzer.NodeID, depth int) bool {
	f := m.File
	if depth > 8 {
		return false
	}
	e, p := useOf(f, e)
	switch f.Kind(p) {
	case analyzer.KindAttribute:
		name, call, ok := attributeUse(f, e, p)
		if !ok {
			return false
		}
		if call == analyzer.NoNode {
			return name == "shape" || name == "ndim"
		}
		switch name {
		case "size", "dim", "numel":
			return true
		case "transpose", "permute", "view", "reshape", "contiguous", "flatten", "squeeze", "unsqueeze":
			return shapeOnly(m, call, depth+1)
		}
	case analyzer.KindArgumentList:
		// `isinstance(maps, tuple)`, `len(maps) == 2`: what it is, not
		// what it holds.
		q := m.CallName(f.Parent(p))
		return q == "isinstance" || q == "len"
	case analyzer.KindAssignment:
		left := f.Field(p, analyzer.FieldLeft)
		if f.Field(p, analyzer.FieldRight) != e {
			return false
		}
		switch f.Kind(left) {
		case analyzer.KindIdentifier:
			return everyUse(m, left, func(u analyzer.NodeID) bool { return shapeOnly(m, u, depth+1) })
		case analyzer.KindPatternList, analyzer.KindTuplePattern:
			// `out, maps = model(img)`: each name read for its shape.
			all, some := true, false
			f.Children(left, func(c analyzer.NodeID) bool {
				some = true
				all = f.Kind(c) == analyzer.KindIdentifier && everyUse(m, c, func(u analyzer.NodeID) bool { return shapeOnly(m, u, depth+1) })
				return all
			})
			return all && some
		}
	}
	return false
}

// indicesOnDevice returns the call that turns a forward call's output
// into indices or a mask in its own expression (`q(s).argmax(dim=1)`,
// `torch.argmax(q(s), 1)`, `torch.gt(critic(a), critic(b))`,
// `q(s).gt(0)`), where they do not go on to the host (`gather(1,
// q(s).argmax(1, keepdim=True))`, a Double DQN's target; a mask
// multiplied into a loss), and what it makes: "indices" or "a mask".
// NoNode otherwise.
func indicesOnDevice(m *analyzer.Model, call analyzer.NodeID) (analyzer.NodeID, string) {
	f := m.File
	e, p := useOf(f, throughPassThrough(m, call))
	at, what := analyzer.NoNode, ""
	switch f.Kind(p) {
	case analyzer.KindAttribute:
		if name, c, ok := attributeUse(f, e, p); ok && c != analyzer.NoNode {
			at, what = c, indexMakers[name]
		}
	case analyzer.KindArgumentList:
		if c := f.Parent(p); strings.HasPrefix(m.CallName(c), "torch.") {
			at, what = c, indexMakers[strings.TrimPrefix(m.CallName(c), "torch.")]
		}
	}
	if what == "" || hostBound(m, at, false, 0) {
		return analyzer.NoNode, ""
	}
	return at, what
}

// indexMakers are the tensor methods (and torch functions of the same
// name) that turn values into indices or a mask, which carry no graph.
var indexMakers = map[string]string{
	"argmax": "indices", "argmin": "indices", "argsort": "indices",
	"gt": "a mask", "lt": "a mask", "ge": "a mask", "le": "a mask", "eq": "a mask", "ne": "a mask",
}

// oneValue returns where value e (a forward output or what it became) is
// read as one value, and nowhere else: `.item()`, or `.argmax()` and
// `torch.argmax(x)` over all its elements, through moves, casts, a
// softmax, the distribution it parametrizes and a draw from it, and the
// names they are bound to (`logits, _ = net(s)`, `Categorical(F.softmax(
// logits, dim=0)).sample().item()`). The output then holds one sample:
// an agent's action for one observation. NoNode when it goes elsewhere.
func oneValue(m *analyzer.Model, e analyzer.NodeID, depth int) analyzer.NodeID {
	f := m.File
	if depth > 8 {
		return analyzer.NoNode
	}
	e, p := useOf(f, e)
	switch f.Kind(p) {
	case analyzer.KindAttribute:
		name, call, ok := attributeUse(f, e, p)
		if !ok || call == analyzer.NoNode {
			return analyzer.NoNode
		}
		switch {
		case name == "item", (name == "argmax" || name == "argmin") && len(f.ChildList(f.Field(call, analyzer.FieldArguments))) == 0:
			return call
		case oneValueMethods[name]:
			return oneValue(m, call, depth+1)
		}
	case analyzer.KindKeywordArgument, analyzer.KindArgumentList:
		args := p
		if f.Kind(p) == analyzer.KindKeywordArgument {
			args = f.Parent(p)
		}
		call := f.Parent(args)
		if f.Kind(call) != analyzer.KindCall {
			return analyzer.NoNode
		}
		switch q := m.CallName(call); {
		case (q == "torch.argmax" || q == "torch.argmin") && len(f.ChildList(args)) == 1 && f.Kind(p) == analyzer.KindArgumentList:
			return call
		case q == "torch.nn.functional.softmax" || q == "torch.softmax" || q == "torch.sigmoid" || q == "torch.nn.functional.sigmoid" ||
			strings.HasPrefix(q, "torch.distributions."):
			return oneValue(m, call, depth+1)
		}
	case analyzer.KindAssignment:
		left := f.Field(p, analyzer.FieldLeft)
		if f.Field(p, analyzer.FieldRight) != e {
			return analyzer.NoNode
		}
		var targets []analyzer.NodeID
		switch f.Kind(left) {
		case analyzer.KindIdentifier:
			targets = append(targets, left)
		case analyzer.KindPatternList, analyzer.KindTuplePattern:
			f.Children(left, func(c analyzer.NodeID) bool {
				if f.Kind(c) == analyzer.KindIdentifier && !f.TextIs(c, "_") {
					targets = append(targets, c)
				}
				return true
			})
		}
		read := analyzer.NoNode
		for _, t := range targets {
			if len(m.ReachedUsesOf(t)) == 0 && len(targets) > 1 {
				continue // `logits, value = ac(s)`, value unused
			}
			if !everyUse(m, t, func(u analyzer.NodeID) bool {
				r := oneValue(m, u, depth+1)
				if read == analyzer.NoNode {
					read = r
				}
				return r != analyzer.NoNode
			}) {
				return analyzer.NoNode
			}
		}
		return read
	}
	return analyzer.NoNode
}

// oneValueMethods keep a tensor's elements on the way to being read as
// one value (oneValue).
var oneValueMethods = map[string]bool{
	"detach": true, "cpu": true, "cuda": true, "to": true, "float": true, "double": true, "squeeze": true,
	"softmax": true, "sigmoid": true, "sample": true, "data": true, "numpy": true,
}

// observationTensor returns the name of the parameter a forward call's
// input in is made a tensor of on the spot (handedIn:
// `torch.FloatTensor(state).to(device)`), where the name says it is one
// observation (`state`, `obs`, `observation`); "" otherwise, or where the
// input is the parameter itself, as the caller made it.
func observationTensor(f *analyzer.File, in, param analyzer.NodeID) string {
	if param == analyzer.NoNode || param == f.Unparen(in) {
		return ""
	}
	switch name := f.Text(param); name {
	case "state", "obs", "observation", "ob":
		return name
	}
	return ""
}

// handedIn returns the input of a forward call that fn's caller hands in
// per call: a parameter of fn given as it is, or made a tensor on the
// spot (`torch.FloatTensor(state).to(device)`, also through a name bound
// to it), with the parameter's name where the input reads it; NoNode
// twice otherwise.
func handedIn(m *analyzer.Model, fn, call analyzer.NodeID) (in, param analyzer.NodeID) {
	f := m.File
	args := m.Args(call)
	if fn == analyzer.Root || len(args) == 0 {
		return analyzer.NoNode, analyzer.NoNode
	}
	e := f.Unparen(args[0])
	for range 4 {
		switch f.Kind(e) {
		case analyzer.KindIdentifier:
			if b := m.Resolve(e); b != nil && b.Kind == analyzer.BindParam && m.ScopeNode(call) == fn {
				return args[0], e
			}
			v := m.AssignedValue(e)
			if v == analyzer.NoNode {
				return analyzer.NoNode, analyzer.NoNode
			}
			e = f.Unparen(v)
		case analyzer.KindCall:
			switch q, name := m.CallName(e), m.MethodName(e); {
			case q == "torch.tensor" || q == "torch.as_tensor" || q == "torch.from_numpy" || q == "torch.Tensor" ||
				q == "torch.FloatTensor" || q == "torch.DoubleTensor":
				a := m.Args(e)
				if len(a) == 0 {
					return analyzer.NoNode, analyzer.NoNode
				}
				e = f.Unparen(a[0])
			case name == "to" || name == "float" || name == "double" || name == "cuda":
				e = f.Unparen(m.Receiver(e))
			default:
				return analyzer.NoNode, analyzer.NoNode
			}
		default:
			return analyzer.NoNode, analyzer.NoNode
		}
	}
	return analyzer.NoNode, analyzer.NoNode
}

// discarded reports whether nothing reads a call's result: a statement
// of its own, an assignment to `_`, or to a name re-bound or left before
// any use (`out = m(x)` to warm up or check that it runs).
func discarded(m *analyzer.Model, call analyzer.NodeID) bool {
	f := m.File
	p := f.Parent(call)
	switch f.Kind(p) {
	case analyzer.KindExpressionStatement:
		return true
	case analyzer.KindAssignment:
		left := f.Field(p, analyzer.FieldLeft)
		if f.Field(p, analyzer.FieldRight) != call || f.Kind(left) != analyzer.KindIdentifier {
			return false
		}
		if f.TextIs(left, "_") {
			return true
		}
		return len(m.UsesOf(left)) == 0
	}
	return false
}

// fedOnly reports whether a call has arguments and all are tensors made
// by the factories of set.
//
// Tensors of literal numbers may stand beside them (`net(torch.randn(2, 3, 64,
// 64), torch.tensor([10, 20]))`, a batch of timesteps): one synthetic
// tensor at least makes the call a dummy run.
func fedOnly(m *analyzer.Model, call analyzer.NodeID, set map[string]bool) bool {
	f := m.File
	synthetic, ok := false, true
	f.Children(f.Field(call, analyzer.FieldArguments), func(a analyzer.NodeID) bool {
		if f.Kind(a) == analyzer.KindKeywordArgument {
			a = f.Field(a, analyzer.FieldValue) // `model(src=x, mask=None)`
			if analyzer.ScalarLiteral(f, a) {
				return true // an option, not an input
			}
		}
		switch {
		case isSynthetic(m, a, set, 0):
			synthetic = true
		case !isConstantTensor(m, a, 0):
			ok = false
		}
		return ok
	})
	return ok && synthetic
}

// isConstantTensor reports whether e is a tensor made from literal
// numbers (`torch.tensor([472.25, 217.5])`), directly or through the
// name it was assigned to. A bare number (`model.generate(x, 10)`) is an
// option of the call, and is not one.
func isConstantTensor(m *analyzer.Model, e analyzer.NodeID, depth int) bool {
	f := m.File
	e = f.Unparen(e)
	if depth > 8 {
		return false
	}
	switch f.Kind(e) {
	case analyzer.KindIdentifier:
		v := m.AssignedValue(e)
		return v != analyzer.NoNode && isConstantTensor(m, v, depth+1)
	case analyzer.KindCall:
		switch m.CallName(e) {
		case "torch.tensor", "torch.as_tensor", "torch.Tensor", "torch.LongTensor", "torch.FloatTensor", "torch.IntTensor",
			"torch.DoubleTensor", "torch.BoolTensor", "torch.ByteTensor":
			args := m.Args(e)
			return len(args) > 0 && isLiteral(f, args[0])
		}
		switch m.MethodName(e) {
		case "to", "cuda", "float", "half", "long":
			return isConstantTensor(m, m.Receiver(e), depth+1)
		}
	}
	return false
}

// isLiteral reports whether e is a literal number, or a list or tuple of
// them.
func isLiteral(f *analyzer.File, e analyzer.NodeID) bool {
	e = f.Unparen(e)
	switch f.Kind(e) {
	case analyzer.KindInteger, analyzer.KindFloat:
		return true
	case analyzer.KindUnaryOperator:
		return isLiteral(f, f.Field(e, analyzer.FieldArgument))
	case analyzer.KindList, analyzer.KindTuple:
		all := true
		f.Children(e, func(c analyzer.NodeID) bool {
			all = isLiteral(f, c)
			return all
		})
		return all
	}
	return false
}

// isSynthetic reports whether e is a synthetic tensor, possibly indexed,
// moved or cast (`torch.randn(2, 8).to(device)[None]`), directly or
// through the name it was assigned to.
func isSynthetic(m *analyzer.Model, e analyzer.NodeID, set map[string]bool, depth int) bool {
	f := m.File
	e = f.Unparen(e)
	if depth > 16 { // a name and the call bound to it per layer of a probe (`x = self.conv3(x)`)
		return false
	}
	switch f.Kind(e) {
	case analyzer.KindIdentifier:
		v := m.AssignedValue(e)
		if b := m.Resolve(e); v == analyzer.NoNode && b != nil && b.Kind == analyzer.BindAssign && b.Unpacked {
			v = b.Value // `out, _ = gru(noise, h0)`: an element of what the call makes
		}
		return v != analyzer.NoNode && !reboundLaterInLoop(m, e) && isSynthetic(m, v, set, depth+1)
	case analyzer.KindSubscript:
		return isSynthetic(m, f.Field(e, analyzer.FieldValue), set, depth+1)
	case analyzer.KindListSplat: // `model(*inputs)`
		return isSynthetic(m, f.FirstChild(e), set, depth+1)
	case analyzer.KindList, analyzer.KindTuple: // `inputs = (torch.randn(1, 3, 64, 64),)`
		all, some := true, false
		f.Children(e, func(c analyzer.NodeID) bool {
			all, some = isSynthetic(m, c, set, depth+1), true
			return all
		})
		return all && some
	case analyzer.KindListComprehension: // `[torch.randn(b, h) for _ in range(n)]`
		return isSynthetic(m, f.Field(e, analyzer.FieldBody), set, depth+1)
	case analyzer.KindCall:
		switch q := m.CallName(e); {
		case set[q]:
			return true
		case q == "torch.autograd.Variable" || q == "torch.autograd.variable.Variable",
			q == "torch.stack" || q == "torch.cat" || q == "torch.concat", q == "torch.nn.utils.rnn.pad_sequence":
			args := m.Args(e)
			return len(args) > 0 && isSynthetic(m, args[0], set, depth+1)
		}
		if m.IsForwardCall(e) || m.FreeLayerCall(e) {
			// What a model, or a layer without parameters, makes of random
			// inputs (`disc(gen(noise))`, `self.pool(self.conv(zeros))`).
			args := m.Args(e)
			all := len(args) > 0
			for _, a := range args {
				all = all && isSynthetic(m, a, set, depth+1)
			}
			if all {
				return true
			}
		}
		switch m.MethodName(e) {
		case "to", "cuda", "float", "half", "double", "bfloat16", "unsqueeze", "contiguous", "bool", "long", "int":
			return isSynthetic(m, m.Receiver(e), set, depth+1)
		case "normal_", "uniform_", "random_", "bernoulli_", "exponential_":
			// `torch.FloatTensor(8, 16).normal_()`: a fresh tensor filled
			// with random numbers.
			r := f.Unparen(m.Receiver(e))
			return f.Kind(r) == analyzer.KindCall && (unfilledTensors[m.CallName(r)] || isSynthetic(m, r, syntheticTensors, depth+1))
		}
	}
	return false
}

// unfilledTensors are torch constructors of tensors of a given size, filled
// later.
var unfilledTensors = map[string]bool{
	"torch.Tensor": true, "torch.FloatTensor": true, "torch.DoubleTensor": true, "torch.HalfTensor": true,
	"torch.cuda.FloatTensor": true, "torch.cuda.HalfTensor": true, "torch.cuda.DoubleTensor": true, "torch.empty": true,
}

// isModelReceiver reports whether recv, in `recv.eval()`, is a model.
func isModelReceiver(m *analyzer.Model, recv analyzer.NodeID) bool {
	if recv == analyzer.NoNode {
		return false
	}
	if m.File.TextIs(recv, "self") {
		class := m.EnclosingClass(recv)
		return class != analyzer.NoNode && m.IsModuleClass(class)
	}
	if m.File.Kind(m.File.Unparen(recv)) == analyzer.KindCall {
		return m.ValueCallable(recv) == analyzer.CallableModel // `Net(...).eval()`
	}
	return m.ClassifyCallee(recv) == analyzer.CallableModel
}

// isEvalName reports whether a function name reads as evaluation or
// inference and not also as training.
func isEvalName(name string) bool {
	eval := false
	for _, w := range strings.Split(strings.ToLower(strings.Trim(name, "_")), "_") {
		if trainWords[w] {
			return false
		}
		if evalWords[w] {
			eval = true
		}
	}
	return eval
}

// isTestFunction reports whether pytest or unittest would run fn as a
// test: a test* function of a pytest module, a method of a TestCase, or a
// test_* method of a test class or mixin in a tests/ folder, which pytest
// collects through the subclasses that use it.
// testCode reports whether fn (or the module, Root) is test code, which
// the rule does not judge: small models, and tests may need grad.
func testCode(m *analyzer.Model, fn analyzer.NodeID) bool {
	return m.Memo(testCodeKey{fn}, func() any {
		return m.IsPytestFile() || fn != analyzer.Root && isTestFunction(m, fn)
	}).(bool)
}

type testCodeKey struct{ fn analyzer.NodeID }

func isTestFunction(m *analyzer.Model, fn analyzer.NodeID) bool {
	name := m.FunctionName(fn)
	if !strings.HasPrefix(name, "test") {
		return false
	}
	if m.IsPytestFile() {
		return true
	}
	class := m.EnclosingClass(fn)
	if class != analyzer.NoNode {
		if m.ClassInherits(class, func(q string) bool { return q == "unittest.TestCase" }) {
			return true
		}
		if strings.HasPrefix(name, "test_") && strings.Contains(m.File.Text(m.File.Field(class, analyzer.FieldName)), "Test") {
			return true
		}
	}
	return strings.HasPrefix(name, "test_") && inTestsFolder(m.File.Path)
}

// inTestsFolder reports whether a path lies under a tests/ or test/ folder.
func inTestsFolder(path string) bool {
	p := "/" + strings.ReplaceAll(path, "\\", "/")
	return strings.Contains(p, "/tests/") || strings.Contains(p, "/test/")
}

// usesGradients reports whether fn, from byte offset from on,
// back-propagates or asks for gradients, itself or through a function it
// calls.
func usesGradients(m *analyzer.Model, fn analyzer.NodeID, from uint32) bool {
	f := m.File
	uses := false
	f.Walk(fn, func(id analyzer.NodeID) {
		if !uses && f.N(id).Start >= from {
			uses = gradientUse(m, id)
		}
	})
	return uses
}

// closeRebound ends, at an assignment, the open regions whose model it
// binds to another value: after `attention.eval()`, `attention =
// MultiHeadAttention(...)` makes a module in training mode. A value made
// from the model itself (`model = model.to(device)`, `model =
// DataParallel(model)`) keeps its mode, and an assignment under an if
// entered after the switch may not run.
func closeRebound(m *analyzer.Model, assign analyzer.NodeID, open map[string]*evalRegion, at uint32) {
	if len(open) == 0 {
		return
	}
	f := m.File
	var targets []analyzer.NodeID
	switch left := f.Unparen(f.Field(assign, analyzer.FieldLeft)); f.Kind(left) {
	case analyzer.KindIdentifier, analyzer.KindAttribute:
		targets = []analyzer.NodeID{left}
	case analyzer.KindPatternList, analyzer.KindTuplePattern, analyzer.KindTuple:
		targets = f.ChildList(left)
	}
	right := f.Field(assign, analyzer.FieldRight)
	for _, t := range targets {
		key := compactText(f, f.Unparen(t))
		r := open[key]
		if r == nil || right == analyzer.NoNode || mentionsKey(f, right, key) || conditionalSince(m, assign, r.start) {
			continue
		}
		r.end = at
		delete(open, key)
	}
}

// mentionsKey reports whether expr reads the model key names (`model`,
// `model.module`).
func mentionsKey(f *analyzer.File, expr analyzer.NodeID, key string) bool {
	found := false
	f.Walk(expr, func(id analyzer.NodeID) {
		if k := f.Kind(id); !found && (k == analyzer.KindIdentifier || k == analyzer.KindAttribute) {
			text := compactText(f, id)
			found = text == key || strings.HasPrefix(text, key+".")
		}
	})
	return found
}

// conditionalSince reports whether call runs under a condition that is
// tested after offset start: an if, elif or else (or a conditional
// expression) that begins after it.
func conditionalSince(m *analyzer.Model, call analyzer.NodeID, start uint32) bool {
	f := m.File
	for n := f.Parent(call); n != analyzer.NoNode && f.N(n).Start > start; n = f.Parent(n) {
		switch f.Kind(n) {
		case analyzer.KindIfStatement, analyzer.KindElifClause, analyzer.KindElseClause, analyzer.KindConditionalExpression:
			return true
		}
	}
	return false
}

// returnsPolicyTerms reports whether a function returns the
// log-probability or entropy of a distribution (PPO's `evaluate(states,
// actions)`): terms of a policy-gradient loss, not evaluation.
func returnsPolicyTerms(m *analyzer.Model, fn analyzer.NodeID) bool {
	return policyTerms(m, fn, 0)
}

// policyTerms is returnsPolicyTerms, following the functions of this file
// whose results fn returns (`self.dist.get_log_probs(d, a)` that returns
// `d.log_prob(a)`) to depth 3.
func policyTerms(m *analyzer.Model, fn analyzer.NodeID, depth int) bool {
	f := m.File
	terms := func(e analyzer.NodeID) bool {
		found := false
		f.Walk(e, func(id analyzer.NodeID) {
			if !found && f.Kind(id) == analyzer.KindCall {
				switch m.MethodName(id) {
				case "log_prob", "entropy":
					found = true
				default:
					if def := m.LocalCallee(id); def != analyzer.NoNode && def != fn && depth < 3 {
						found = policyTerms(m, def, depth+1)
					}
				}
			}
		})
		return found
	}
	found := false
	for _, v := range m.ReturnValues(fn) {
		f.Walk(v, func(e analyzer.NodeID) {
			switch {
			case found:
			case f.Kind(e) == analyzer.KindCall:
				found = terms(e)
			case f.Kind(e) == analyzer.KindIdentifier:
				if b := m.Resolve(e); b != nil && b.Kind == analyzer.BindAssign && b.Value != analyzer.NoNode {
					found = terms(b.Value)
				}
			}
		})
	}
	return found
}

// batchOfOne returns the expression that makes a forward pass's first
// input one sample that the host hands it per call: a value of a name
// made a tensor by a constructor and a batch of one
// (`torch.FloatTensor(state).unsqueeze(0)`, `torch.tensor([obs])`,
// `torch.from_numpy(s)[None]`), followed through the names it is bound
// to; NoNode for any other input (a batch of a loader, an image through
// a transform, tokens of a data set).
func batchOfOne(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	args := m.Args(call)
	if len(args) == 0 {
		return analyzer.NoNode
	}
	marker, made := oneSample(m, args[0], analyzer.NoNode, 0)
	if !made {
		return analyzer.NoNode
	}
	return marker
}

// helperOneSample returns, for a call of a function of this file each of
// whose forward passes runs on a batch of one (`state =
// torch.FloatTensor(state).unsqueeze(0)`, then `self.forward(state)`), the
// expression that makes the first one a batch of one; else NoNode.
func helperOneSample(m *analyzer.Model, call analyzer.NodeID) analyzer.NodeID {
	def := m.LocalCallee(call)
	if def == analyzer.NoNode {
		return analyzer.NoNode
	}
	marker, all := analyzer.NoNode, true
	forwardPasses(m, def, func(id analyzer.NodeID) bool {
		b := batchOfOne(m, id)
		if b == analyzer.NoNode {
			all = false
		} else if marker == analyzer.NoNode {
			marker = b
		}
		return all
	})
	if !all {
		return analyzer.NoNode
	}
	return marker
}

// oneSample follows input e down to the tensor constructor that made it;
// marker is the expression that made it a batch of one (or the one seen
// so far), made whether a constructor of a name's value was reached with
// one.
func oneSample(m *analyzer.Model, e, marker analyzer.NodeID, depth int) (analyzer.NodeID, bool) {
	f := m.File
	e = f.Unparen(e)
	if depth > 8 {
		return analyzer.NoNode, false
	}
	switch f.Kind(e) {
	case analyzer.KindIdentifier:
		if v := m.AssignedValue(e); v != analyzer.NoNode {
			return oneSample(m, v, marker, depth+1)
		}
	case analyzer.KindSubscript:
		if newAxisFirst(f, e) {
			return oneSample(m, f.Field(e, analyzer.FieldValue), e, depth+1)
		}
	case analyzer.KindCall:
		args := m.Args(e)
		zero := func(i int) bool { return len(args) > i && f.TextIs(args[i], "0") }
		switch name := m.MethodName(e); {
		case name == "unsqueeze" && (zero(0) || f.TextIs(m.Keyword(e, "dim"), "0")),
			(name == "view" || name == "reshape") && oneLeading(f, args):
			if marker, made := oneSample(m, m.Receiver(e), e, depth+1); made {
				return marker, true
			}
			// `obs.reshape((1,) + obs.shape)`: a name's value, whatever made
			// it, given to the model as a batch of one. Not an unsqueeze,
			// which adds a batch dimension to an image as readily.
			return e, name != "unsqueeze" && f.Kind(f.Unparen(m.Receiver(e))) == analyzer.KindIdentifier
		case name == "to" || name == "float" || name == "double" || name == "cuda" || name == "type" || name == "contiguous":
			return oneSample(m, m.Receiver(e), marker, depth+1)
		}
		switch q := m.CallName(e); q {
		case "torch.unsqueeze":
			if zero(1) {
				return oneSample(m, args[0], e, depth+1)
			}
		case "torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor", "torch.FloatTensor", "torch.DoubleTensor":
			if len(args) == 0 {
				break
			}
			// What the constructor is given: a name's value, made a batch
			// of one on the host first or not.
			a := f.Unparen(args[0])
			for range 3 {
				aa := m.Args(a)
				switch q := m.CallName(a); {
				case f.Kind(a) == analyzer.KindList && len(f.ChildList(a)) == 1:
					marker, a = a, f.Unparen(f.ChildList(a)[0])
				case f.Kind(a) != analyzer.KindCall || len(aa) == 0:
				case q == "numpy.expand_dims" && len(aa) == 2 && f.TextIs(aa[1], "0"),
					m.MethodName(a) == "reshape" && oneLeading(f, aa):
					marker, a = a, f.Unparen(m.Receiver(a))
					if q != "" {
						a = f.Unparen(aa[0])
					}
				case q == "numpy.array" || q == "numpy.asarray" || q == "numpy.float32":
					a = f.Unparen(aa[0])
				}
			}
			if marker == analyzer.NoNode && f.Kind(a) == analyzer.KindIdentifier {
				// `state_ = board.reshape(1, 64) + noise` then
				// `torch.from_numpy(state_)`: made a batch of one on the
				// host, a name before; so is `state_a = np.array([state])`.
				if v := f.Unparen(m.AssignedValue(a)); v != analyzer.NoNode {
				strip:
					for range 8 {
						switch {
						case f.Kind(v) == analyzer.KindBinaryOperator:
							v = f.Unparen(f.Field(v, analyzer.FieldLeft))
						case f.Kind(v) == analyzer.KindCall && (m.MethodName(v) == "astype" || m.MethodName(v) == "copy"):
							v = f.Unparen(m.Receiver(v)) // `s[np.newaxis, :].astype(np.float32)`
						default:
							break strip
						}
					}
					if f.Kind(v) == analyzer.KindCall && m.MethodName(v) == "reshape" && oneLeading(f, m.Args(v)) {
						return v, true
					}
					if q := m.CallName(v); (q == "numpy.array" || q == "numpy.asarray") && oneElementList(f, m.Args(v)) {
						return v, true
					}
					if newAxisFirst(f, v) {
						return v, true // `observation = observation[np.newaxis, :]`
					}
				}
			}
			return marker, marker != analyzer.NoNode && f.Kind(a) == analyzer.KindIdentifier
		default:
			// `preprocessor([obs])`, `float32_preprocessor([state])`: a
			// converter handed a list of one observation, made a batch of
			// one by it.
			if oneElementList(f, args) && len(args) == 1 {
				return e, true
			}
		}
	}
	return analyzer.NoNode, false
}

// newAxisFirst reports whether e indexes a value with a new leading axis
// (`x[None]`, `obs[np.newaxis, :]`): a batch of one.
func newAxisFirst(f *analyzer.File, e analyzer.NodeID) bool {
	if f.Kind(e) != analyzer.KindSubscript {
		return false
	}
	idx := f.Unparen(f.Field(e, analyzer.FieldSubscript))
	if k := f.Kind(idx); k == analyzer.KindTuple || k == analyzer.KindExpressionList {
		idx = f.FirstChild(idx)
	}
	t := f.Text(idx)
	return t == "None" || t == "np.newaxis" || t == "numpy.newaxis"
}

// oneElementList reports whether the first of args is a list display of
// one element that is a name or an attribute (`[obs]`, `[self.state]`).
func oneElementList(f *analyzer.File, args []analyzer.NodeID) bool {
	if len(args) == 0 {
		return false
	}
	l := f.Unparen(args[0])
	if f.Kind(l) != analyzer.KindList {
		return false
	}
	kids := f.ChildList(l)
	return len(kids) == 1 && (f.Kind(kids[0]) == analyzer.KindIdentifier || f.Kind(kids[0]) == analyzer.KindAttribute)
}

// oneLeading reports whether the shape a reshape is given starts with a
// batch of one: `reshape(1, -1)`, `reshape((1, 64))`, `reshape((1,) + obs.shape)`.
func oneLeading(f *analyzer.File, args []analyzer.NodeID) bool {
	if len(args) >= 2 {
		return f.TextIs(args[0], "1")
	}
	if len(args) != 1 {
		return false
	}
	a := f.Unparen(args[0])
	if f.Kind(a) == analyzer.KindBinaryOperator && f.TextIs(f.Field(a, analyzer.FieldOperator), "+") {
		a = f.Unparen(f.Field(a, analyzer.FieldLeft))
	}
	if k := f.Kind(a); k != analyzer.KindTuple && k != analyzer.KindList {
		return false
	}
	first := f.FirstChild(a)
	return first != analyzer.NoNode && f.TextIs(first, "1")
}
