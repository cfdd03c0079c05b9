"""Filter banks: one whose constructor freezes its layer, one that trains it."""
import torch.nn as nn


class FixedBank(nn.Module):
    def __init__(self, freeze_weights=True):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, bias=False)
        self.conv.weight.requires_grad = not freeze_weights

    def forward(self, x):
        return self.conv(x).relu()

    def first_layer(self, x):
        return self.conv(x)


class LearnedBank(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, bias=False)

    def forward(self, x):
        return self.conv(x).relu()

    def first_layer(self, x):
        return self.conv(x)
