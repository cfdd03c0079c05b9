"""A pytest module (its name ends in _test.py): test functions may run models with grad on."""
import torch
import torch.nn as nn


def test_forward_shapes():
    model = nn.Linear(3, 2)
    model.eval()
    assert model(torch.randn(1, 3)).shape == (1, 2)  # ok: a pytest test function


def evaluate(model, x):
    return model(x)  # ok: test code (a pytest module) is not checked
