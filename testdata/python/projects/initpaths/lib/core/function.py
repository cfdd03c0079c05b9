"""Found from tools/ only through the folder tools/_init_paths.py puts on
the import path."""
import torch.nn.functional as F


def train_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()


def validate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()  # ok: its caller in tools/train.py runs it under no_grad
    return correct
