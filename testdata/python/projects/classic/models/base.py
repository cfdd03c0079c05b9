import torch.nn as nn


class Base(nn.Module):
    """The project's base model: every subclass, in any file, is a module."""

    def describe(self):
        return type(self).__name__
