import torch
import torch.nn.functional as F


def generator_term(d_fake):
    return F.mse_loss(d_fake, torch.ones_like(d_fake))
