"""TL201: a class of a module imported at run time (`import_module`) is
built by `mod.Net(...)`, which is no forward pass; what it builds is a
model whose passes are judged as any other's."""
from importlib import import_module

import torch
from models.net import Net


def predict(names, loader, path):
    preds = []
    model = Net
    for name in names:
        mod = import_module("models." + name)
        model = mod.Net(3)  # ok: a class of the module, built
        model.load_state_dict(torch.load(path, map_location="cpu"))
        model.eval()
        with torch.no_grad():
            preds.append([model(x).argmax(1) for x in loader])
    return preds


def predict_with_grad(names, loader, path):
    preds = []
    for name in names:
        mod = import_module("models." + name)
        model = mod.Net(3)  # ok: built, not run
        model.load_state_dict(torch.load(path, map_location="cpu"))
        model.eval()
        preds.append([model(x).argmax(1).tolist() for x in loader])  # want: TL201 "model\(x\)"
    return preds
