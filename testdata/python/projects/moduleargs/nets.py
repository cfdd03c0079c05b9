"""Networks, and a plain lookup table that is called like one."""
import torch
from torch import nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, z):
        return torch.tanh(self.conv(z))


class Table:
    """No module: calling it looks a value up."""

    def __init__(self):
        self.rows = {}

    def __call__(self, key):
        return self.rows.get(key)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        return self.head(x)

    def report(self, batch):
        # Hands itself to a helper of another file: `self` is a module.
        return plots.rate(self, batch)


import plots  # noqa: E402
