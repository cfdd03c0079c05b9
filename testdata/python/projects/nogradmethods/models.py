import torch
import torch.nn as nn


class Diffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(8, 8)

    def forward(self, x):
        return self.net(x)

    @torch.no_grad()
    def mask_net(self, n):
        x = torch.randn(n, 8)
        for _ in range(10):
            x = x - 0.1 * self.net(x)
        return x

    def refine_net(self, z):
        return self.net(z)


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(8, 8)

    def forward(self, x):
        return self.net(x)

    @torch.inference_mode()
    def mask_net(self, n):
        return self.net(torch.randn(n, 8))

    @torch.no_grad()
    def refine_net(self, z):
        return self.net(z)
