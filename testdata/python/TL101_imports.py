"""Aliased imports and grad switches resolved through the semantic model."""
import torch as th
from torch import no_grad as ng
from torch import nn


model = nn.Linear(8, 1)
mse = nn.MSELoss()
data = [(th.randn(4, 8), th.randn(4, 1)) for _ in range(10)]

total = 0
for x, y in data:
    total += mse(model(x), y)  # want: TL101 "seen to run through"

with ng():
    total = 0
    for x, y in data:
        total += mse(model(x), y)  # ok: under an aliased torch.no_grad

th.set_grad_enabled(False)
for x, y in data:
    total += mse(model(x), y)  # ok: grad was switched off for the rest of the module
