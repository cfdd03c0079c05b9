"""An optimizer that clears the gradients it has applied."""
import torch


class ClearingAdam(torch.optim.Adam):
    def step(self, closure=None):
        loss = super().step(closure)
        self.zero_grad(set_to_none=True)
        return loss
