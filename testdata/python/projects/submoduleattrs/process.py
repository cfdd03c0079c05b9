"""A module whose submodule another file calls by its attribute."""
from torch import nn

from models import Decoder


class LatentProcess(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.xz_to_y = Decoder(d)

    def forward(self, x, z):
        return self.xz_to_y(x, z)
