"""Name resolution and unpacking cases that decide whether a value carries a graph."""
import torch
from torch.nn import Linear


class Linear(Linear):  # a subclass that reuses the name of its base
    pass


def accumulate_subclass(loader):
    layer = Linear(4, 2)
    total = 0
    for x in loader:
        total += layer(x)  # want: TL101
    return total.item()


def scaled_chain(model, criterion, loader, accum_steps, weight):
    total = 0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss /= accum_steps
        loss *= weight
        total += loss  # want: TL101 "seen to run through"
    return total.item()


def step(model, b):
    return 0, model(b), 0, 0


def count_after_star(model, loader):
    total = 0
    for b in loader:
        *_, n = step(model, b)
        total += n  # ok: the last element step returns is the literal 0
        first, *rest = step(model, b)
        total += first  # ok: the first element is 0 as well
    return total


def last_is_graph(model, b):
    return 0, 0, model(b)


def graph_after_star(model, loader):
    total = 0
    for b in loader:
        *_, out = last_is_graph(model, b)
        total += out  # want: TL101
    return total.item()


def recursive_predict(model, x, depth):
    if depth == 0:
        return model(x)
    return recursive_predict(model, x, depth - 1)


def evaluate_recursive(model, loader):
    total = 0
    with torch.no_grad():
        for x in loader:
            total += recursive_predict(model, x, 3)  # ok: under no_grad; the recursion does not change that
    return total


def helper_predict(model, x):
    return [[model(x)]]


def evaluate_nested(model, loader):
    total = 0
    with torch.no_grad():
        for x in loader:
            y = helper_predict(model, x)
            total += model(x)  # ok: under no_grad, whatever the order grad modes are computed in
    return total, y


def default_shadow(loader, model=None):
    for model in [model]:  # ok: the default and the iterable read the outer names
        pass
    return loader
