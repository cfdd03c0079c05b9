"""Evaluation helpers whose grad mode their callers in other files set."""


def evaluate(model, loader):
    # train.py calls it with grad enabled: every link is seen.
    model.eval()
    return [model(x).argmax(1) for x in loader]  # want: TL201(high)


def evaluate_quiet(model, loader):
    model.eval()
    return [model(x).argmax(1) for x in loader]  # ok: tools/predict.py, its one caller, disables grad


def evaluate_served(model, loader):
    # No code of the project calls it: whoever does may disable grad.
    model.eval()
    return [model(x).argmax(1) for x in loader]  # want: TL201(medium)
