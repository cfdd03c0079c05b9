"""An optimizer that clears the gradients it has applied."""
import torch


class ClearingAdam(torch.optim.Adam):
    def step(self, closure=None):
        loss = super().step(closure)
        self.zero_grad(set_to_none=True)
        return loss


def apply_step(loss, optimizer):
    """Back-propagates the loss it is given and steps."""
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


class Learner:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def update(self, objective):
        self.optimizer.zero_grad()
        objective.backward()
        self.optimizer.step()
