"""TL101: a meter that adds what it is given into a NumPy array keeps no
graph (NumPy converts the tensor, and refuses one that requires grad); a
meter that starts from a number does."""
import numpy as np
import torch
import torch.nn as nn


class NumpyMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.n = np.zeros(1)
        self.sum = np.zeros(1)

    def add_value(self, value):
        self.n += 1
        self.sum += value

    def gather(self, allreduce):
        self.sum = allreduce(np.array([self.sum]))


class FloatMeter:
    def __init__(self):
        self.n = 0
        self.sum = 0.0

    def add_value(self, value):
        self.n += 1
        self.sum += value


def train(model, loader, opt):
    seen, kept = NumpyMeter(), FloatMeter()
    for x, y in loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        seen.add_value(loss)  # ok: a NumPy array's `+=` converts the tensor, and refuses one that requires grad
        kept.add_value(loss)  # want: TL101 "adds it into `self.sum`"
    return seen, kept
