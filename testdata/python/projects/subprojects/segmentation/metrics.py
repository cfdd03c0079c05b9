"""The segmentation experiments' metrics: plain floats for logging."""
import torch.nn.functional as F


def box_l1(pred, target):
    return F.l1_loss(pred, target).item()
