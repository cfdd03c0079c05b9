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


class GridDecoder(nn.Module):
    """Decodes boxes on a grid it computes: `FloatTensor` is torch's,
    chosen by device. No parameter."""

    def __init__(self, anchors):
        super().__init__()
        self.anchors = torch.Tensor(anchors)

    def forward(self, feature):
        FloatTensor = torch.cuda.FloatTensor if feature.is_cuda else torch.FloatTensor
        boxes = FloatTensor(feature.shape)
        boxes[..., 0] = torch.sigmoid(feature[..., 0]) * self.anchors.view(1, -1)[..., 0]
        return boxes


class ChosenHead(nn.Module):
    """A head whose layer is chosen between two of torch.nn's: it may hold
    parameters."""

    def __init__(self, wide):
        super().__init__()
        self.wide = wide

    def forward(self, feature):
        Layer = nn.Linear if self.wide else nn.Identity
        return Layer(4, 4)(feature)


dct = DCT()
dct.set_quality(torch.tensor(90.0))
learned = LearnedDCT()
decoder = GridDecoder([[10, 13], [16, 30]])
head = ChosenHead(True)
energy = 0
boxes_energy, head_energy = 0, 0
for path in ["a.npy", "b.npy"]:
    image = torch.from_numpy(np.load(path)).float()
    coefficients = dct(image)  # ok: DCT holds tensors, no parameter
    energy += (coefficients ** 2).sum()  # ok: no graph
    learned_coefficients = learned(image)  # want: TL201
    boxes_energy += (decoder(image) ** 2).sum()  # ok: GridDecoder holds no parameter: no graph
    head_energy += (head(image) ** 2).sum()  # want: TL101
    print(learned_coefficients.mean().item())
print(energy)
