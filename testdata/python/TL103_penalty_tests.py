"""TL103: a test that builds a penalty's graph and retains it runs once: test code is not judged."""
import unittest

import torch
from torch import nn


def r1_penalty(critic, real):
    x = real.detach().requires_grad_()
    grads = torch.autograd.grad(critic(x).sum(), x, create_graph=True)[0]
    penalty = grads.pow(2).mean()
    penalty.backward(retain_graph=True)  # ok: TL103 a helper of the tests
    return penalty.item()


class PenaltyTest(unittest.TestCase):
    def test_penalty_grads(self):
        critic = nn.Linear(4, 1)
        x = torch.randn(8, 4).requires_grad_()
        grads = torch.autograd.grad(critic(x).sum(), x, create_graph=True)[0]
        penalty = grads.pow(2).mean()
        penalty.backward(retain_graph=True)  # ok: TL103 a test runs once
        self.assertIsNotNone(critic.weight.grad)
        self.assertGreaterEqual(r1_penalty(critic, x), 0.0)
