"""TL201: a module whose forward returns what a method of its own
computes under no_grad (a diffusion model's `forward` that returns
`self.sample(mels)`) records no graph, called as `model(x)` or as
`model.forward(x)`; one whose sampler keeps grad on does."""
import torch
from torch import nn


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 4)

    def sample(self, mels, steps=10):
        with torch.no_grad():
            y = torch.randn_like(mels)
            for _ in range(steps):
                y = self.net(y + mels)
            return y

    def forward(self, mels, steps=10):
        return self.sample(mels, steps)


class GradSampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 4)

    def sample(self, mels, steps=10):
        y = torch.randn_like(mels)
        for _ in range(steps):
            y = self.net(y + mels)
        return y

    def forward(self, mels, steps=10):
        return self.sample(mels, steps)


def real_time_factors(loader):
    model = Sampler()
    rtfs = []
    for mel in loader:
        out = model(mel)  # ok: Sampler's forward returns what sample computes under no_grad
        rtfs.append(out.numel() / 16000)
    return rtfs


def real_time_factors_explicit(loader):
    model = Sampler()
    rtfs = []
    for mel in loader:
        out = model.forward(mel)  # ok: the module's own call, as above
        rtfs.append(out.numel() / 16000)
    return rtfs


def real_time_factors_with_grad(loader):
    model = GradSampler()
    rtfs = []
    for mel in loader:
        out = model(mel)  # want: TL201(medium) "only reach the host"
        rtfs.append(out.sum().item())
    return rtfs
