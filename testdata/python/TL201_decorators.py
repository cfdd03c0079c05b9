"""Decorators of the project's own: judged by what they do, not by their name."""
import functools

import torch


def nograd(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with torch.no_grad():
            return fn(*args, **kwargs)

    return wrapper


def inference(fn):
    return torch.inference_mode()(fn)


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def no_grad_maybe(fn):
    # Only one of its two calls of fn is under a switch.
    def wrapper(*args, fast=False, **kwargs):
        if fast:
            with torch.no_grad():
                return fn(*args, **kwargs)
        return fn(*args, **kwargs)

    return wrapper


def with_grad(fn):
    def wrapper(*args, **kwargs):
        with torch.enable_grad():
            return fn(*args, **kwargs)

    return wrapper


@nograd
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x)  # ok: @nograd runs evaluate under torch.no_grad()
        correct += (out.argmax(1) == y).sum().item()
    return correct


@inference
def predict(model, x):
    model.eval()
    return model(x).argmax(1).tolist()  # ok: @inference returns torch.inference_mode()(fn)


@timed
def evaluate_timed(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x)  # want: TL201 "in `evaluate_timed`"
        correct += (out.argmax(1) == y).sum().item()
    return correct


@no_grad_maybe
def evaluate_maybe(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x)  # want: TL201 "in `evaluate_maybe`"
        correct += (out.argmax(1) == y).sum().item()
    return correct


@with_grad
def evaluate_with_grad(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x)  # want: TL201 "in `evaluate_with_grad`"
        correct += (out.argmax(1) == y).sum().item()
    return correct
