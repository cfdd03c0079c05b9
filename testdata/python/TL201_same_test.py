"""TL201: a switch in one arm of a test, and a pass in the other arm of the same test made again."""
import torch
from torch import nn


def run_epoch(model, loader, optimizer, cross_valid=False):
    if cross_valid:
        model.eval()
    else:
        model.train()
    total = 0.0
    for x, y in loader:
        if cross_valid:
            with torch.no_grad():
                loss = nn.functional.mse_loss(model(x), y)
        else:
            loss = nn.functional.mse_loss(model(x), y)  # ok: the training arm of the same test
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def run_epoch_reassigned(model, loader, optimizer, cross_valid=False):
    if cross_valid:
        model.eval()
    cross_valid = not cross_valid
    for x, y in loader:
        if cross_valid:
            print(model(x).sum().item())  # want: TL201 "after `model.eval\(\)`"
        else:
            print(model(x).mean().item())


class Codec(nn.Module):
    def __init__(self):
        super().__init__()
        self.encode = nn.Sequential(nn.Linear(16, 4))
        self.decode = nn.Sequential(nn.Linear(4, 16))


class Solver:
    def __init__(self):
        self.codec = Codec()

    def embed_all(self, batches):
        # `self.codec.encode` is the Sequential that Codec assigns: a module by what the class does
        self.codec.eval()
        encoder = self.codec.encode
        return [encoder(x).tolist() for x in batches]  # want: TL201(medium) "after `self.codec.eval\(\)`"
