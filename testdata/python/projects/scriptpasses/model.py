"""A policy."""
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.probs = nn.Sequential(nn.Linear(4, 2), nn.Softmax(-1))
        self.value = nn.Linear(4, 1)

    def forward(self, state):
        return self.probs(state), self.value(state)

