import torch
from torch.utils.checkpoint import checkpoint


def forward(block, x):
    for _ in range(3):
        torch.cuda.empty_cache()
        x = checkpoint(block, x)
    return x
