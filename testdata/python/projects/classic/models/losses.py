import torch.nn as nn

__all__ = ["FocalLoss"]


class FocalLoss(nn.Module):
    def forward(self, logits, target):
        return nn.functional.cross_entropy(logits, target)


class _Hidden(nn.Module):
    pass
