"""Training loops that call validation functions: one of this file that
loads a model of its own (switched by a loader of another file), one of
another file that switches the model it is given."""
import torch

from heads import Dropped, Thin
from models import Net, Normed, Plain
from validate import evaluate


def log_validation(model, path, x):
    # The model its loader switches is the one it loads.
    fresh = Net.from_pretrained(path)
    with torch.no_grad():
        return (fresh(x) - model(x)).abs().mean().item()


def train(loader, path):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        log_validation(model, path, x)


def train_evaluated(loader):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        evaluate(model, x)  # want: TL503 "switches `model` to evaluation mode"


def train_plain(loader):
    model = Plain()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        evaluate(model, x)  # ok: TL503 no layer of its class computes otherwise in evaluation mode


def train_thin(loader):
    model = Thin()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        evaluate(model, x)  # ok: TL503 nor of its base, in another file


def train_normed(loader):
    model = Normed()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        evaluate(model, x)  # want: TL503 "batch norm uses, and stops updating, its running statistics;"


def train_dropped(loader):
    model = Dropped()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        evaluate(model, x)  # want: TL503 "switches `model` to evaluation mode"
