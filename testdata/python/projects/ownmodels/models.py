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
