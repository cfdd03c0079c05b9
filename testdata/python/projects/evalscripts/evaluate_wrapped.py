from wrappers import nograd, timed


@nograd
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x)  # ok: nograd, in wrappers.py, runs it under torch.no_grad()
        correct += (out.argmax(1) == y).sum().item()
    return correct


@timed
def evaluate_timed(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x)  # want: TL201 "in `evaluate_timed`"
        correct += (out.argmax(1) == y).sum().item()
    return correct
