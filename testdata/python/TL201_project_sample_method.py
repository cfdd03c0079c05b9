# A method of the file named like a distribution's draw (a VAE's
# reparameterization `self.sample(h)`) is judged by what it does: its
# result reaches the loss that is back-propagated, so the encoder's pass
# is training. A draw from a torch distribution still ends the way on the
# host.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(32, 8)
        self.decoder = nn.Linear(4, 32)

    def sample(self, h):
        mu, log_var = h.chunk(2, dim=1)
        return mu + torch.exp(0.5 * log_var) * torch.randn_like(mu), mu

    def loss(self, x):
        h = self.encoder(x)  # ok: TL201 reaches the loss through `self.sample`
        z, mu = self.sample(h)
        return F.mse_loss(self.decoder(z), x) + mu.pow(2).mean()


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Linear(4, 2)

    def act(self, states):
        self.actor.eval()
        return Categorical(logits=self.actor(states)).sample().tolist()  # want: TL201 "self.actor\(states\)"


def train(model, loader):
    opt = torch.optim.Adam(model.parameters())
    for x in loader:
        loss = model.loss(x)
        opt.zero_grad()
        loss.backward()
        opt.step()
