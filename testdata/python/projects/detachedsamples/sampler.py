"""A sampler that trains a critic on the samples one of its methods draws:
that method returns them detached, and the loss back-propagated through
the critic says nothing of what it returns. The other method returns the
generator's output with its graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, z):
        return self.fc(z)


class Sampler:
    def __init__(self, dim):
        self.dim = dim
        self.generator = Generator(dim)
        self.critic = nn.Linear(dim, 1)

    def draw(self, n, to_cpu=False):
        samples = self.generator(torch.randn(n, self.dim)).detach()
        if to_cpu:
            return samples.cpu()
        return samples

    def draw_inpainted(self, n, mask):
        out = self.generator(torch.randn(n, self.dim)).detach().clone()
        out[mask] = self.generator(torch.randn(n, self.dim))[mask]  # the generator's graph, written in
        return out

    def draw_with_graph(self, n):
        return self.generator(torch.randn(n, self.dim))

    def fit_critic(self, labels):
        clf_opt = torch.optim.Adam(self.critic.parameters())
        for y in labels:
            clf_opt.zero_grad()
            fake = self.draw(len(y))
            loss = F.cross_entropy(self.critic(fake), y) + self.critic(self.draw_inpainted(len(y), y > 0)).mean()
            loss.backward()
            clf_opt.step()
