"""Grad contexts chosen by a test: a known mode only where both arms set
the same one. A name that refers to itself in its own conditional (kept
from the first batch on) is read without end."""
import contextlib

import torch


def run(model, loader, optimizer, training):
    model.train(training)
    context = torch.enable_grad() if training else torch.no_grad()
    total = 0.0
    with context:
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(model(x), y)  # ok: grad is disabled where it evaluates
            if training:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total += loss.item()
    return total


def both_off(model, loader):
    model.eval()
    with (torch.no_grad() if torch.cuda.is_available() else torch.inference_mode()):
        return [model(x).argmax(1).tolist() for x in loader]  # ok: both arms disable grad


def maybe_off(model, loader, fast):
    model.eval()
    with (torch.no_grad() if fast else contextlib.nullcontext()):
        return [model(x).argmax(1).tolist() for x in loader]  # ok: the mode is not known


def first_batch(model, loader, use_grad):
    outs = []
    for i, x in enumerate(loader):
        ctx = ctx if i > 0 else (torch.enable_grad() if use_grad else torch.no_grad())  # noqa: F821
        with ctx:
            outs.append(model(x))  # want: TL102(medium)
    return outs


def fit(model, loaders, optimizer):
    run(model, loaders[0], optimizer, True)
    run(model, loaders[1], optimizer, False)
