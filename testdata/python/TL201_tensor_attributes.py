"""TL201: a module whose attributes are tensors it computes (a DCT's
frequency grid) and whose methods call a tensor's methods on them
(`self.grid.view(...)`) holds no parameter: calling it on an array made
into a tensor records no graph. One that holds a parameter and calls the
same methods on it does."""
import numpy as np
import torch
from torch import nn


class DCT(nn.Module):
    def __init__(self, block_size=8, device="cuda"):
        super().__init__()
        self.device = device
        self.grid = (np.pi * torch.arange(block_size).float() / 2 / block_size).view(1, 1, block_size).to(device)
        self.table = self.make_table(block_size)

    def make_table(self, n):
        return torch.from_numpy(np.ones((n, n)) / 100).float().to(self.device)

    def set_quality(self, quality):
        self.quality = quality
        self.factor = (5000 / quality).view(-1, 1, 1).type(self.table.dtype)

    def forward(self, x):
        freqs = torch.cos(x.unsqueeze(-1) * self.grid.view(1, 1, 1, -1))
        return freqs * self.factor.view(-1, 1, 1, 1) / self.table.unsqueeze(0).sum()


class LearnedDCT(nn.Module):
    def __init__(self, block_size=8):
        super().__init__()
        self.grid = nn.Parameter(torch.arange(block_size).float())

    def forward(self, x):
        return torch.cos(x.unsqueeze(-1) * self.grid.view(1, 1, 1, -1))


dct = DCT()
dct.set_quality(torch.tensor(90.0))
learned = LearnedDCT()
energy = 0
for path in ["a.npy", "b.npy"]:
    image = torch.from_numpy(np.load(path)).float()
    coefficients = dct(image)  # ok: DCT holds tensors, no parameter
    energy += (coefficients ** 2).sum()  # ok: no graph
    learned_coefficients = learned(image)  # want: TL201
    print(learned_coefficients.mean().item())
print(energy)
