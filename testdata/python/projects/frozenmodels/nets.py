# Modules whose calls record no graph on inputs that need none, seen by
# the files that use them: frozen by their constructor, running their
# forward under no_grad, or holding no parameters; and one that trains.
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, freeze=True):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1))
        if freeze:
            for p in self.features.parameters():
                p.requires_grad = False

    def forward(self, x):
        return self.features(x).flatten(1)


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(6, 2, 3, padding=1)

    def forward(self, a, b):
        with torch.no_grad():
            flow = self.net(torch.cat([a, b], dim=1))
            return flow, flow.abs()


class Noise(nn.Module):
    def __init__(self, std=0.1):
        super().__init__()
        self.std = std

    def forward(self, x):
        return x + torch.randn_like(x) * self.std


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Linear(8, 10)

    def forward(self, x):
        return self.head(self.backbone(x))


flow = Flow()
