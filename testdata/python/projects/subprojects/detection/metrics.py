"""Losses of the detection experiments, run from this folder."""
import torch.nn.functional as F


def box_l1(pred, target):
    return F.l1_loss(pred, target)
