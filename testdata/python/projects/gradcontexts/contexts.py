# Helpers whose result is entered with `with`: each returns a grad switch.
import contextlib

import torch


def inference_mode(model):
    if getattr(model, "compiled", False):
        return torch.no_grad()
    return torch.inference_mode()


def grad_for(training):
    return torch.set_grad_enabled(training)


def optional_context(enabled):
    if enabled:
        return torch.no_grad()
    return contextlib.nullcontext()


def infer_here(model, batches):
    model.eval()
    with inference_mode(model):
        return [model(x).cpu() for x in batches]  # ok: TL201 the helper returns no_grad or inference_mode
