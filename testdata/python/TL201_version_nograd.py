"""TL201: a helper that returns `torch.no_grad()` on the versions that
have it, and a no-op context on older ones, disables grad where it is
entered; one that picks by anything else is not known to."""
import contextlib
import random

import torch


def no_grad_ctx():
    if float(torch.__version__[0:3]) >= 0.4:
        return torch.no_grad()
    return contextlib.suppress()


def maybe_no_grad():
    if random.random() < 0.5:
        return torch.no_grad()
    return contextlib.suppress()


def evaluate(model, loader):
    model.eval()
    total = 0.0
    for x, y in loader:
        out = model(x)  # ok: its only caller enters no_grad_ctx()
        total += (out.argmax(1) == y).sum().item()
    return total


def score(model, loader):
    model.eval()
    total = 0.0
    for x, y in loader:
        out = model(x)  # want: TL201(medium) "after `model.eval\(\)`"
        total += (out.argmax(1) == y).sum().item()
    return total


def main(model, loader):
    with no_grad_ctx():
        evaluate(model, loader)
    with maybe_no_grad():
        score(model, loader)
