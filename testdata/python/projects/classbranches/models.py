"""Two samplers; which one runs is chosen in another file."""
import torch
from torch import nn


class Sampler:
    def __init__(self):
        self.G = nn.Sequential(nn.Linear(8, 16), nn.Tanh())
        self.opt = torch.optim.Adam(self.G.parameters())
        self.fixed = torch.zeros(4, 8)

    def fit(self, steps):
        for step in range(steps):
            loss = self.G(torch.randn(32, 8)).pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            with torch.no_grad():
                self.show(step)

    def show(self, step):
        self.G.eval()
        out = self.G(self.fixed)  # want: TL201 "after `self.G.eval\(\)`"
        print(step, out.data.mean().item())
        self.G.train()

    def preview(self):
        self.G.eval()
        out = self.G(self.fixed)  # ok: every call, through either class, is under no_grad
        print(out.data.mean().item())


class WideSampler(Sampler):
    def __init__(self):
        super().__init__()
        self.G = nn.Sequential(nn.Linear(8, 64), nn.Tanh())
