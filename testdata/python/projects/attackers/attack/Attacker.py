"""The base of the attacks: a plain class, no module."""
from abc import ABC


class Attacker(ABC):
    def __init__(self, model, eps):
        self.model = model
        self.eps = eps

    def __call__(self, x, y):
        return self.forward(x, y)
