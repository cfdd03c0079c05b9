import torch
from torch import nn


class Booster(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)
        self.head = nn.Linear(8, 1)

    def forward_boost(self, x):
        feats = self.body(x)
        dist = (feats[: len(x) // 2] - feats[len(x) // 2 :]).pow(2).mean()
        return self.head(feats), dist, len(x)
