"""TL201: a file written for Python 3.6 or older (`x.cuda(async=True)`,
valid then) no longer parses, but its tree says what the code means:
its findings rest on nothing the parser recovered."""
import torch


def validate(loader, model, criterion):
    model.eval()
    total = 0.0
    for inp, target in loader:
        target = target.cuda(async=True)  # want: TL001 "async is a keyword"
        output = model(inp)  # want: TL201(medium) "in `validate`"
        total += criterion(output, target).item()
    return total


def test(loader, model):
    model.eval()
    with torch.no_grad():
        for inp, _ in loader:
            print(model(inp.cuda(async=True)).argmax(1))  # ok: under no_grad
