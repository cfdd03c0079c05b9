"""A local definition shadows the torch import of the same name."""
import torch
from torch import no_grad


def no_grad():  # a local helper that does not disable grad
    return open("/dev/null")


def score(net, batches):
    acc = 0
    for xb, yb in batches:
        with no_grad():
            acc += torch.nn.functional.mse_loss(net(xb), yb)  # want: TL101
    return acc.item()


def score_real(net, batches):
    acc = 0
    for xb, yb in batches:
        with torch.no_grad():
            acc += torch.nn.functional.mse_loss(net(xb), yb)  # ok: the real torch.no_grad
    return acc
