# `Callable` from `from typing import *` is typing's: a parameter annotated
# with it and defaulting to a function of this file is no model.
from typing import *

import torch


def sample_pair(grammar, *args):
    return grammar["S"], "pres", grammar["S"]


def test(grammar: Dict = {"S": ["a"]}, ex_generator: Callable = sample_pair, *args: Tuple) -> None:
    s, p, t = ex_generator(grammar, *args)  # ok: TL201 defaults to a function of this file
    print(s, p, t)


def test_model(model: Callable, x):
    model.eval()
    print(model(x).mean().item())  # want: TL201 "model\(x\)"


test_model(torch.nn.Linear(2, 2), torch.randn(1, 2))
