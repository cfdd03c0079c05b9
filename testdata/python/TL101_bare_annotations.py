"""Bare annotations (`self.sum: float`, `out: torch.Tensor`) declare
names and bind nothing: the checks read past them to the assignments
that do."""
import torch
import torch.nn as nn

model: nn.Module
losses: list


class Meter:
    sum: float
    vals: list

    def __init__(self):
        self.sum: float
        self.vals: list
        self.net: nn.Module
        self.opt: torch.optim.Optimizer

    def update(self, v, n=1):
        self.sum += v * n
        self.vals.append(v)

    def step(self, x, y):
        out: torch.Tensor
        out = self.net(x)
        loss = (out - y).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def evaluate(loader):
    total: torch.Tensor
    total = 0
    model.eval()
    for x, y in loader:
        pred: torch.Tensor
        pred = model(x)  # want: TL201(low) "in `evaluate`"
        total += pred.sum()  # want: TL101(medium) "accumulates a tensor"
        losses.append(pred)  # want: TL102(medium) "stores a tensor"
    return total
