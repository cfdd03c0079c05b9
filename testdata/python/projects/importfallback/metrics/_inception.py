"""A feature network frozen by its constructor, and one that is not."""
from torch import nn


class FeatureNet(nn.Module):
    def __init__(self, requires_grad=False):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        for p in self.parameters():
            p.requires_grad = requires_grad

    def forward(self, x):
        return self.body(x).flatten(1)


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 1)

    def forward(self, x):
        return self.fc(x)
