"""A critic trained on the codes an encoder of another file gives it."""
import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, z, s):
        return self.net(torch.cat([z, s], 1))

    def update(self, z, s, optimizer):
        optimizer.zero_grad()
        loss = -self(z, s).mean() + torch.logsumexp(self(z, s.flip(0)), 0).squeeze()
        loss.backward()
        optimizer.step()
        return loss.item()

    def estimate(self, z, s):
        return self(z, s).mean().item()  # want: TL201 "only reach the host"
