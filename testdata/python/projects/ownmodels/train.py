"""Training loops that call validation functions of another file."""
import torch

from models import Net
from validate import evaluate, log_validation


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
