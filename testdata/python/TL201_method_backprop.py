# Outputs handed to a method of a model that back-propagates them are
# differentiated there, whatever that method returns.
import torch
import torch.nn as nn


class Critic(nn.Module):
    """A mutual-information estimator trained on an encoder's codes."""

    def __init__(self, dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, z, s):
        return self.net(torch.cat([z, s], 1))

    def update(self, z, s, optimizer):
        optimizer.zero_grad()
        joint = self(z, s)
        marginal = self(z, s[torch.randperm(s.size(0))])
        loss = -(joint.mean() - torch.logsumexp(marginal, 0).squeeze())
        loss.backward()
        optimizer.step()
        return loss.item()

    def estimate(self, z, s):
        return (self(z, s).mean() - torch.logsumexp(self(z, s.flip(0)), 0)).item()  # want: TL201 "only reach the host"


def train_critic(encoder, loader, epochs):
    critic = Critic()
    optimizer = torch.optim.Adam(critic.parameters())
    encoder.eval()
    for _ in range(epochs):
        total = 0.0
        for x, s in loader:
            z = encoder(x)  # ok: Critic.update back-propagates z
            total += critic.update(z, s, optimizer)
        print(total)


def report(encoder, loader):
    critic = Critic()
    encoder.eval()
    for x, s in loader:
        z = encoder(x)  # want: TL201 "after `encoder.eval\(\)`"
        print(critic.estimate(z, s))
