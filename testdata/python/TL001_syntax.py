import torch
import torch.nn.functional as F


def train(model, loader):
    for x, y in loader  # want: TL001 "invalid syntax"
        loss = model(x)
    return loss


def validate(model, loader):
    total = 0
    for x, y in loader:
        logits = model(x)  # want: TL201
        total += F.cross_entropy(logits, y)  # want: TL101 "seen to run through"
    return total.item()


def log(loss):
    # CPython stops at the first error of a file: this second one is not
    # reported until the first is fixed.
    print(f"loss {loss +}")
