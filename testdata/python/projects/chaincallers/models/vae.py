"""Samplers whose grad mode their callers in other files set."""
import torch
import torch.nn as nn


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 4)
        self.dec = nn.Linear(4, 2)

    def forward(self, x):
        return self.dec(self.enc(x))

    def sample(self, x):
        # The scripts run it under no_grad; only `sample_chain`, which no
        # code calls, runs it with grad: an assumption.
        z = self.enc(x)  # want: TL201(medium)
        logits = self.dec(z)
        return torch.distributions.Bernoulli(logits=logits).sample()

    def sample_chain(self, x, steps=10):
        return [self.sample(x) for _ in range(steps)]


class Painter(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 4)
        self.dec = nn.Linear(4, 2)

    def forward(self, x):
        return self.dec(self.enc(x))

    def paint(self, x):
        # `scripts/gallery.py` runs it with grad enabled: seen.
        z = self.enc(x)  # want: TL201(high)
        logits = self.dec(z)
        return torch.distributions.Bernoulli(logits=logits).sample()

    def paint_chain(self, x, steps=10):
        return [self.paint(x) for _ in range(steps)]
