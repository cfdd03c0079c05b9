"""A model class whose loader switches the model it builds."""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.1))

    def forward(self, x):
        return self.body(x)

    @classmethod
    def _load(cls, model, path):
        model.load_state_dict(torch.load(path, map_location="cpu"))
        return model, []

    @classmethod
    def from_pretrained(cls, path):
        model = cls()
        model, missing = cls._load(model, path)
        model = model.to("cpu")
        model.eval()
        return model


class Plain(nn.Module):
    """No layer that evaluation mode changes."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), nn.ReLU())

    def forward(self, x):
        return self.body(x)


class Normed(Plain):
    """Adds batch norm to a base without."""

    def __init__(self):
        super().__init__()
        self.norm = nn.BatchNorm1d(4)

    def forward(self, x):
        return self.norm(self.body(x))
