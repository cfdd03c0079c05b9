"""Forward hooks that keep activations: TL104 positives and look-alikes."""
import functools
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

model = torchvision.models.resnet18()
activations = {}
pooled_feats = []
layer_inputs = []
per_layer = {}


def get_activation(name):
    def hook(module, inputs, output):
        activations[name] = output  # want: TL104 "module's output.*output.detach\(\)"
    return hook


def get_activation_detached(name):
    def hook(module, inputs, output):
        activations[name + "_safe"] = output.detach()  # ok: detached
    return hook


def save_pooled(module, inputs, output):
    pooled = F.adaptive_avg_pool2d(output, 1).flatten(1)
    pooled_feats.append(pooled)  # want: TL104 "output"


def save_to_cpu(module, inputs, output):
    pooled_feats.append(output.cpu())  # want: TL104 "output"
    pooled_feats.append(output.detach().cpu())  # ok: detached before the copy
    pooled_feats.append(output.clone().detach())  # ok: detached copy


def save_norm(module, inputs, output):
    per_layer[module] = output.norm().item()  # ok: a Python number
    print(output.shape)  # ok: only reads the shape
    pooled_feats.append(torch.topk(output.flatten(1), 5)[1])  # ok: the indices of topk carry no graph
    pooled_feats.append(torch.topk(output.flatten(1), 5)[0])  # want: TL104 "output"


def save_named(name, module, inputs, output):
    per_layer.setdefault(name, []).append(output[0])  # want: TL104 "output"


def record_input(module, args):
    layer_inputs.append(args[0])  # want: TL104 "module's input"


def scale_output(module, inputs, output):
    return output * 0.5  # ok: returns a modified output, stores nothing


def mark_module(module, inputs, output):
    module.last_output = output  # want: TL104 "output"


def log_grads(module, grad_input, grad_output):
    per_layer["grad"] = grad_output[0]  # ok: a backward hook's gradients carry no graph


model.layer1.register_forward_hook(get_activation("layer1"))
model.layer2.register_forward_hook(get_activation_detached("layer2"))
model.layer3.register_forward_hook(save_pooled)
model.layer4.register_forward_hook(save_to_cpu)
model.avgpool.register_forward_hook(save_norm)
model.fc.register_forward_hook(functools.partial(save_named, "fc"))
model.conv1.register_forward_pre_hook(record_input)
model.bn1.register_forward_hook(scale_output)
model.relu.register_forward_hook(mark_module)
model.fc.register_full_backward_hook(log_grads)
feats = []
model.maxpool.register_forward_hook(lambda m, i, o: feats.append(o))  # want: TL104 "output"
model.maxpool.register_forward_hook(lambda m, i, o: feats.append(o.detach()))  # ok: detached
out = model(torch.randn(1, 3, 224, 224))


class FeatureCache:
    def __init__(self, net):
        self.cache = None
        self.shapes = []
        net.register_forward_hook(self._hook)
        net.register_forward_hook(partial(self._named_hook, "net"))

    def _hook(self, module, inputs, output):
        self.cache = output  # want: TL104 "output"
        self.shapes.append(tuple(output.shape))  # ok: a tuple of ints

    def _named_hook(self, name, module, inputs, output):
        local = {}
        local[name] = output  # ok: a dictionary local to one call


# Feature extraction for a report: the model runs only under inference_mode.
extractor = torchvision.models.resnet50()
embeddings = []
extractor.layer4.register_forward_hook(lambda m, i, o: embeddings.append(o))  # ok: the model only runs under inference_mode here
with torch.inference_mode():
    for batch in [torch.randn(2, 3, 224, 224)]:
        extractor(batch)


class PerceptualLoss(nn.Module):
    """Feature matching: the hooked features feed the loss on purpose."""

    def __init__(self, vgg, layers):
        super().__init__()
        self.vgg = vgg
        self.targets = {}
        for name in layers:
            getattr(self.vgg, name).register_forward_hook(self._grab(name))

    def _grab(self, name):
        def hook(module, inputs, output):
            self.targets[name] = output  # ok: read back by forward to build the loss
        return hook

    def forward(self, x, y):
        self.vgg(x)
        fx = dict(self.targets)
        self.vgg(y)
        return sum(F.l1_loss(fx[k], self.targets[k]) for k in fx)


step_feats = []


def keep_step_feats(module, inputs, output):
    step_feats.append(output)  # ok: emptied at every training step below


def train_with_hook(net, loader, optimizer):
    net.register_forward_hook(keep_step_feats)
    for x, y in loader:
        loss = F.mse_loss(net(x), y) + 0.1 * sum(f.pow(2).mean() for f in step_feats)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step_feats.clear()


class AblationScorer:
    def __init__(self, model):
        self.model = model
        self.activations = None

    def save_activation(self, module, inputs, output):
        self.activations = output  # ok: registered only around a no_grad forward pass below

    def score(self, layer, x):
        handle = layer.register_forward_hook(self.save_activation)
        with torch.no_grad():
            scores = self.model(x)
        handle.remove()
        return scores.tolist(), self.activations.shape


class LeakyScorer:
    def __init__(self, model):
        self.model = model
        self.activations = None

    def save_activation(self, module, inputs, output):
        self.activations = output  # want: TL104

    def score(self, layer, x):
        handle = layer.register_forward_hook(self.save_activation)
        scores = self.model(x)  # want: TL201 "outputs only reach the host.*freed with the outputs, none of which is kept"
        handle.remove()
        return scores.sum().item()


twice = []


def keep_twice(module, inputs, output):
    twice.append(output)  # want: TL104 "module's output"


model.layer1.register_forward_hook(keep_twice)
model.layer2.register_forward_hook(keep_twice)  # ok: the same hook on a second layer is reported once, at its store


features = {}


def momentum_hook(module, inputs, output, decay=0.9):
    key = id(module)
    if key not in features:
        features[key] = output.clone()  # want: TL104 "return the value as it is and store `output.clone\(\).detach\(\)` apart from it"
    else:
        features[key] = decay * features[key].detach() + output  # want: TL104 "detaching what is returned would cut the gradient"
    return features[key]


def add_momentum(model):
    for block in model.blocks:
        block.register_forward_hook(momentum_hook)


class SlotFeatures:
    def __init__(self, module):
        self.handle = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inputs, output):
        self.feats = output  # ok: read into a feature-matching loss that is back-propagated below


class SlotPeek:
    def __init__(self, module):
        self.handle = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inputs, output):
        self.last = output  # want: TL104 "self.last"


def distill(student, teacher, batches, opt):
    s_feats, t_feats = SlotFeatures(student.layer1), SlotFeatures(teacher.layer1)
    peek = SlotPeek(student.layer2)
    for x in batches:
        opt.zero_grad()
        student(x)
        with torch.no_grad():
            teacher(x)
        loss = F.mse_loss(s_feats.feats, t_feats.feats)
        loss.backward()
        opt.step()
        print(peek.last.shape)
