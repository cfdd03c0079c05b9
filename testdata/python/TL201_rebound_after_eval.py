"""TL201: a switch to evaluation mode holds for the value it was made on.
A name bound again to another module after `.eval()` runs that module,
in training mode: its passes are not "after" the switch. A value made
from the model itself (`.to(device)`, a wrapper around it) keeps it."""
import torch
import torch.nn as nn


def moved(loader, device):
    model = nn.Linear(4, 2)
    model.eval()
    model = model.to(device)
    for x in loader:
        print(model(x).argmax(1).tolist())  # want: TL201(medium) "after `model\.eval\(\)`"


def wrapped(loader):
    model = nn.Linear(4, 2)
    model.eval()
    model = nn.DataParallel(model)
    for x in loader:
        print(model(x).argmax(1).tolist())  # want: TL201(medium) "after `model\.eval\(\)`"


def swapped(loader, other):
    model = nn.Linear(4, 2)
    model.eval()
    model = other
    for x in loader:
        print(model(x).argmax(1).tolist())  # want: TL201(medium) "whose outputs only reach the host"


def maybe_swapped(loader, other, swap):
    model = nn.Linear(4, 2)
    model.eval()
    if swap:
        model = other
    for x in loader:
        print(model(x).argmax(1).tolist())  # want: TL201(medium) "after `model\.eval\(\)`"




class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)

    def forward(self, x):
        return self.proj(x)


attention = nn.Softmax(dim=-1)
attention.eval()
queries = torch.ones(3, 2, 16)
print(attention(queries).sum(-1))  # ok: a layer without parameters

attention = Block()
print(attention(queries).shape == queries.shape)  # ok: a new module, never switched; one pass on constant inputs
