"""How sure a TL101 finding is."""
import torch
import torch.nn.functional as F


def train(model, loader, opt):
    # It back-propagates itself: grad is on, whoever calls it.
    total = 0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss  # want: TL101(high)
    return float(total)


def score(model, loader):
    # No code calls it: its caller may disable grad.
    total = 0
    for x, y in loader:
        total += F.cross_entropy(model(x), y)  # want: TL101(medium)
    return total.item()


def score_called(model, loader):
    total = 0
    for x, y in loader:
        total += F.cross_entropy(model(x), y)  # want: TL101(high)
    return total.item()


def tally(net, loader):
    # `net` is a model by its name alone, and no code calls `tally`.
    total = 0
    for x in loader:
        total += net(x).sum()  # want: TL101(low)
    return total


def tally_quiet(net, loader):
    total = 0
    for x in loader:
        with torch.no_grad():
            total += net(x).sum()  # ok: grad disabled, whoever calls it
    return total


print(score_called(None, []))
