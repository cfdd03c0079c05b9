"""A decoding script: the model comes from a registry by name, and every
call of `recognize` here runs under no_grad."""
import importlib

import torch


def load(name):
    module, cls = name.split(":")
    return getattr(importlib.import_module(module), cls)()


def decode(name, feats):
    model = load(name)
    out = []
    with torch.no_grad():
        for feat in feats:
            out.append(model.recognize(feat))  # ok: under no_grad
    return out
