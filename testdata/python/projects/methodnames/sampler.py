"""A model's `sample`, which draws from a distribution's `sample`, called by
name on a model of no known class from a helper that only runs under
no_grad."""
import torch
import torch.nn as nn
from torch.distributions import Bernoulli, Normal


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.decoder = nn.Linear(4, 16)
        self.prior = Normal(torch.zeros(4), torch.ones(4))

    def decode(self, z):
        return Bernoulli(logits=self.decoder(z))

    def sample(self, n=16):
        z = self.prior.sample((n,))
        x_dist = self.decode(z)  # ok: TL201 every call of a `sample` of a model runs under no_grad
        return x_dist.sample().view(n, 4, 4)


def draw(model):
    return model.sample(n=64).cpu().numpy()


def figures(model, epochs):
    model.eval()
    for _ in range(epochs):
        with torch.no_grad():
            draw(model)
