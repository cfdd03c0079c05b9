# The model is a parameter: its class is not known here. A method that
# every class of the project defining it runs with grad disabled
# (`Autoencoder.mask_net` here, `Diffusion.mask_net` and `Flow.mask_net` in
# models.py) runs no forward pass in its caller's mode; one that some class runs with grad enabled
# (`Diffusion.refine_net` in models.py) may.
import numpy as np
import torch
import torch.nn as nn


class Autoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(8, 8)

    def forward(self, x):
        return self.net(x)

    @torch.no_grad()
    def mask_net(self, n):
        return self.net(torch.randn(n, 8))

    @torch.no_grad()
    def refine_net(self, z):
        return self.net(z)


def save_samples(model, n, path):
    imgs = model.mask_net(n)  # ok: every `mask_net` of the project runs under no_grad
    np.save(path, imgs.cpu().numpy())


def save_refine_netd(model, z, path):
    out = model.refine_net(z)  # want: TL201 "outputs only reach the host"
    np.save(path, out.detach().cpu().numpy())
