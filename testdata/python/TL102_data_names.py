"""TL102: a loop over an iterable named for data (`data`, `val_data`)
runs one batch per iteration, as a loop over a loader does: outputs
stored across it keep every batch's graph. Detached outputs keep none
(TL201 still reports the pass)."""
import torch


def evaluate(model, data):
    model.eval()
    outs = []
    for d in data:
        x_hat = model(d)  # want: TL201 "in `evaluate`"
        outs.append(x_hat)  # want: TL102(medium) "stores a tensor whose autograd graph"
    return outs


def evaluate_detached(model, val_data):
    model.eval()
    outs = []
    for d in val_data:
        outs.append(model(d).detach())  # want: TL201 "drops the output at once"
    return outs


def evaluate_quietly(model, data):
    model.eval()
    outs = []
    with torch.no_grad():
        for d in data:
            outs.append(model(d))  # ok: no graph is recorded
    return outs
