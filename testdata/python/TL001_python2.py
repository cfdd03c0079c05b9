import torch


def report(loss):
    print "loss", loss  # want: TL001 "Missing parentheses in call to 'print'"
    print "done"  # the same error again: one finding per file, as CPython stops at the first


def evaluate(model, loader):
    total = 0
    for x, y in loader:
        total += torch.nn.functional.cross_entropy(model(x), y)  # want: TL201, TL101 "seen to run through"
    return total
