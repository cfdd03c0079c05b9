import torch
from torch import nn


class GAN:
    def __init__(self, z_dim):
        self.G = nn.Sequential(nn.Linear(z_dim, 64), nn.ReLU(), nn.Linear(64, 784))
        self.D = nn.Sequential(nn.Linear(784, 1))
        self.opt = torch.optim.Adam(self.D.parameters())
        self.z = torch.randn(16, z_dim)

    def train(self, loader, epochs):
        for epoch in range(epochs):
            for x in loader:
                loss = self.D(x).mean() - self.D(self.G(self.z).detach()).mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            with torch.no_grad():
                self.visualize(epoch)
                self.preview()

    def visualize(self, epoch):
        # Every call in this file is under no_grad, but main.py's is not.
        self.G.eval()
        samples = self.G(self.z)  # want: TL201
        torch.save(samples.cpu(), f"samples_{epoch}.pt")
        self.G.train()

    def preview(self):
        self.G.eval()
        grid = self.G(self.z)  # ok: every call of it, here and in main.py, disables grad
        torch.save(grid.cpu(), "preview.pt")
        self.G.train()
