"""TL201: a module whose forward calls what a call returns (`Op()(x)`,
an old-style autograd operation built and applied at once) builds no
parameter where the inner call builds none: its passes over inputs that
require no grad record no graph."""
import numpy as np
import torch
from torch import nn
from torch.autograd import Function


class JaggedMax(Function):
    def forward(self, values, offsets):
        return values.max(1)[0]

    def backward(self, grad):
        return grad, None


class JaggedMaxModule(nn.Module):
    def forward(self, values, offsets):
        return JaggedMax()(values, offsets)


class FreshLayer(nn.Module):
    def forward(self, x):
        return nn.Linear(4, 4)(x)


def check(n):
    mod = JaggedMaxModule()
    for i in range(n):
        a = torch.rand(100, 4)
        b = torch.from_numpy(np.arange(100))
        print(mod(a, b).sum())  # ok: no parameter anywhere, nothing to record


def check_fresh(n):
    mod = FreshLayer()
    for i in range(n):
        print(mod(torch.rand(100, 4)).sum())  # want: TL201(high) "only reach the host"


if __name__ == "__main__":
    check(10)
    check_fresh(10)
