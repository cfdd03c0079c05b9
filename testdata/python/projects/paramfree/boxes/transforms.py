# Box decoding written as modules: one with no parameter, one that learns
# a scale.
import torch
import torch.nn as nn


class BoxTransform(nn.Module):
    def forward(self, anchors, regression):
        w = regression[..., 3].exp() * anchors[..., 2]
        return torch.stack([anchors[..., 0] - w, anchors[..., 1] + w], dim=2)


class LearnedTransform(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, anchors, regression):
        return anchors + self.scale * regression
