"""Activation checkpointing with and without an explicit use_reentrant."""
import torch
import torch.nn as nn
import torch.utils.checkpoint as cp
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))

    def forward(self, x, **kwargs):
        a = checkpoint(self.layers, x)  # want: TL402 "use_reentrant=False"
        b = torch.utils.checkpoint.checkpoint(self.layers, x)  # want: TL402
        c = cp.checkpoint_sequential(self.layers, 2, x)  # want: TL402
        d = checkpoint_sequential(self.layers, 2, x)  # want: TL402
        e = checkpoint(self.layers, x, use_reentrant=False)  # ok: explicit
        f = checkpoint(self.layers, x, use_reentrant=True)  # ok: explicit, even if reentrant
        g = checkpoint_sequential(self.layers, 2, x, use_reentrant=False)  # ok: explicit
        h = checkpoint(self.layers, x, **kwargs)  # ok: use_reentrant may be among kwargs
        return a + b + c + d + e + f + g + h


def checkpoint_local(fn, x):  # ok: a local helper with another name
    return fn(x)


def run(block, x):
    return checkpoint_local(block, x)  # ok: not torch's checkpoint
