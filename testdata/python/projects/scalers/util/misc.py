"""A loss scaler whose call back-propagates the loss it is given."""
import torch


class NativeScalerWithGradNormCount:
    def __init__(self):
        self._scaler = torch.amp.GradScaler("cuda")

    def __call__(self, loss, optimizer, parameters=None, update_grad=True):
        self._scaler.scale(loss).backward()
        if update_grad:
            self._scaler.step(optimizer)
            self._scaler.update()


class LossMeter:
    def __init__(self):
        self.count = 0

    def __call__(self, loss):
        self.count += 1
        return float(loss)
