"""TL503: a function that switches a model it makes itself leaves the
mode of the model its caller trains."""
import copy

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.1))

    def forward(self, x):
        return self.body(x)

    @classmethod
    def from_pretrained(cls, path):
        model = cls()
        model.load_state_dict(torch.load(path, map_location="cpu"))
        model = model.to("cpu")
        model.eval()
        return model


def log_validation(model, path, x):
    fresh = Net.from_pretrained(path)
    with torch.no_grad():
        return (fresh(x) - model(x)).abs().mean().item()


def averaged(model, x):
    ema = copy.deepcopy(model)
    ema.eval()
    with torch.no_grad():
        return ema(x).mean().item()


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x).mean().item()


def train(loader, path):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        log_validation(model, path, x)  # ok: the model it switches is one it loads
        averaged(model, x)  # ok: the model it switches is its copy


def train_evaluated(loader):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        evaluate(model, x)  # want: TL503 "switches `model` to evaluation mode"
