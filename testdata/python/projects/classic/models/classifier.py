import torch.nn as nn

from .base import Base


class Classifier(Base):
    def __init__(self, dim=16, classes=10):
        super().__init__()
        self.head = nn.Linear(dim, classes)

    def __call__(self, x):
        return self.head(x)


class Tokenizer:
    """Not a module: calling it runs no forward pass."""

    def __call__(self, text):
        return text.split()
