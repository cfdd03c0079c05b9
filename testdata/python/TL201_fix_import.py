"""Evaluation helpers of a module that imports only torch.nn: the fix
must add `import torch` below the docstring and the future import."""
from __future__ import annotations

from torch import nn


def evaluate(model: nn.Module, loader):
    model.eval()
    scores = []
    for x in loader:
        scores.append(model(x).argmax(1).tolist())  # want: TL201 "in `evaluate`"
    return scores


class Runner:
    @staticmethod
    def validate(model, batch):
        return model(batch).softmax(-1).tolist()  # want: TL201 "in `validate`"

    async def predict(self, model, batch):
        return model(batch).tolist()  # want: TL201 "in `predict`"


def train(model, batch, optimizer):
    model.train()
    out = model(batch)  # ok: training, back-propagated below
    out.sum().backward()
    optimizer.step()
