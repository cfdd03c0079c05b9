import torch
import torch.nn.functional as F


def validate(model, loader):
    total = 0
    # if torch.cuda.is_available():
        model = model.cuda()  # want: TL001 "IndentationError: unexpected indent"
    for x, y in loader:
        logits = model(x)  # want: TL201
        total += F.cross_entropy(logits, y)  # want: TL101 "seen to run through"
    return total.item()


def train(model, loader):
    for x, y in loader:
        loss = model(x)
          loss.backward()  # a second indentation error: CPython reports only the first
    return loss
