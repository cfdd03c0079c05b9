"""TL201: a function replaced by a later definition of its name, with
nothing between that could call it, never runs: an older version left
above the new one is not judged; the new one is."""
import torch


def show(model, loader):
    model.eval()
    for x in loader:
        print(model(x).argmax(1))  # ok: replaced below before anything calls it


def show_all(model, loaders):
    # Runs after the module has run to its end: `show` is the last one.
    for loader in loaders:
        show(model, loader)


def show(model, loader):
    model.eval()
    for x in loader:
        print(model(x).argmax(1))  # want: TL201 "after `model.eval\(\)`"


def report(model, loader):
    model.eval()
    for x in loader:
        print(model(x).argmax(1))  # want: TL201 "after `model.eval\(\)`"


for name in ("a", "b"):
    report(None, [])  # module-level code between the two: the first runs


def report(model, loader):
    with torch.no_grad():
        for x in loader:
            print(model(x).argmax(1))  # ok: under no_grad


class Runner:
    def __init__(self, model):
        self.model = model

    def predict(self, loader):
        self.model.eval()
        return [self.model(x).argmax(1) for x in loader]  # ok: replaced by the next predict

    def predict(self, loader):
        self.model.eval()
        with torch.no_grad():
            return [self.model(x).argmax(1) for x in loader]  # ok: under no_grad

    def score(self, loader):
        self.model.eval()
        return [self.model(x).argmax(1) for x in loader]  # want: TL201 "after `self.model.eval\(\)`"

    if torch.cuda.is_available():
        def score(self, loader):  # a definition under an if: either may run
            return []
