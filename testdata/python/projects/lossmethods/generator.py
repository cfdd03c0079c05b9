import torch
from torch import nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)

    def batch_nll(self, inp, target):
        out = self.forward(inp)
        return nn.functional.nll_loss(out, target)

    def batch_classify(self, inp):
        return torch.sigmoid(self.forward(inp))
