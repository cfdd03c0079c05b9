"""Wrappers' common base, a plain class, whatever its name says."""
import torch
from torch import nn


class BaseNet(object):
    def __init__(self):
        self.epoch = 0

    def set_mode_train(self, train=True):
        # nn.Module's switch, not a call of the wrappers' `eval(x, y)`.
        if train:
            self.model.train()
        else:
            self.model.eval()

    def save(self, filename):
        torch.save({"epoch": self.epoch, "model": self.model.state_dict()}, filename)


class BaseModule(nn.Module):
    """A module base: what derives from it runs in its callers' mode."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
