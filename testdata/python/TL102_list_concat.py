"""TL102: a list extended with `+=` and a list display keeps what it
holds as `.append` does."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, loader, opt):
    losses = []
    for x, t in loader:
        loss = F.cross_entropy(model(x), t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses += [loss]  # want: TL102 "keeps each step's autograd graph reachable after its backward"
    return sum(l.item() for l in losses) / len(losses)


def train_logged(model, loader, opt):
    losses = []
    for x, t in loader:
        loss = F.cross_entropy(model(x), t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses += [loss.item()]  # ok: a float
    return sum(losses) / len(losses)


class Tiled(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        outs = []
        for tile in x.split(4):
            outs += [self.fc(tile)]  # ok: the tiles of one forward pass, concatenated below
        return torch.cat(outs)
