"""Methods called through objects run in their callers' grad mode."""
import torch
import torch.nn as nn

from models import GPT


def evaluate(model: GPT, xs):
    return [model.generate(x, 4) for x in xs]  # want: TL201


def evaluate_quietly(xs):
    net = GPT()
    net.eval()
    with torch.no_grad():
        return [net.generate(x, 4) for x in xs]


def predict_decoded(xs):
    net = GPT()
    with torch.inference_mode():
        return [net.decode(x) for x in xs]


def predict_sampled(xs):
    net = GPT()
    return [net.sample(x) for x in xs]  # ok: sample disables grad itself


def train(xs, opt):
    net = GPT()
    for x in xs:
        net.fit_step(x, opt)


def evaluate_wrapped(xs, wrap):
    net = GPT()
    net = wrap(net)  # bound twice: the receiver's class is known by the method's name alone
    return [net.generate(x, 4) for x in xs]  # want: TL201(low) "through `GPT.generate`"


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        return self.proj(x)

    def run_all(self, xs):
        return [self(x) for x in xs]


def validate(xs):
    head = Head()
    return head.run_all(xs)  # want: TL201


class Identity(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.ones(1))

    def forward(self, x):
        return x * self.scale

    def run_all(self, xs):
        return [self(x) for x in xs]


def validate_identity(xs):
    head = Identity()
    return head.run_all(xs)  # ok: a module with a buffer and no parameter records no graph


class Collector:
    def collect(self, model, batches):
        model.eval()
        outs = []
        for b in batches:
            outs.append(model(b))  # ok: its one caller, through an instance, disables grad
        return outs


def score(model, batches):
    c = Collector()
    with torch.no_grad():
        return c.collect(model, batches)
