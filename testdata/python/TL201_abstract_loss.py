"""A forward pass whose outputs go to a method its subclasses implement:
an abstract stub says nothing of what they do with them."""
from abc import ABC, abstractmethod

import torch
import torch.nn as nn


class Base(nn.Module, ABC):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)

    def forward(self, x):
        return self.net(x)

    @abstractmethod
    def loss(self, out, y):
        """The training loss, for the subclass to define."""

    def compute(self, out, y):
        raise NotImplementedError

    def step(self, x, y, optimizer):
        out = self.forward(x)  # ok: `loss` is abstract; its overrides' loss is back-propagated
        loss = self.loss(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    def other_step(self, x, y, optimizer):
        pred = self.net(x)  # ok: `compute` raises NotImplementedError here: a subclass's
        loss = self.compute(pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)

    def score(self, out, y):
        return 0.0

    def evaluate(self, loader):
        self.eval()
        total = 0.0
        for x, y in loader:
            out = self.net(x)  # want: TL201
            total += self.score(out, y)
        return total
