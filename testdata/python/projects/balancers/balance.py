"""Optimizers of another file that back-propagate the losses they are given."""
from torch.optim import Optimizer


class GradBalancer(Optimizer):
    def __init__(self, params):
        super().__init__(params, {})

    def step(self, losses):
        self._balance(losses)

    def _balance(self, losses):
        for i, loss in enumerate(losses):
            loss.backward(retain_graph=True)
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.grad.mul_(1.0 / (i + 1))


class LossLogger:
    def __init__(self):
        self.seen = 0

    def step(self, losses):
        for i, loss in enumerate(losses):
            self.seen += i
