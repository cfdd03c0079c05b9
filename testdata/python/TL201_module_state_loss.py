"""TL201: a module whose forward keeps its loss on itself (`self.loss_mse
= ...`), read back by the caller (`net.loss`) and back-propagated: the
pass is trained through the module's state, whatever its outputs do."""
import torch
import torch.nn as nn


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(3, 1, 3)
        self.loss_fn = nn.MSELoss()

    @property
    def loss(self):
        return self.loss_mse

    def forward(self, x, y=None):
        out = self.net(x)
        if self.training:
            self.loss_mse = self.loss_fn(out, y)
        return out


def train(net, opt, loader, epochs):
    for _ in range(epochs):
        for x, y in loader:
            density = net(x, y)  # ok: `net.loss`, set by this pass, is back-propagated below
            loss = net.loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(density.detach().sum().item())


def count(net, loader):
    net.train()
    total = 0.0
    for x, y in loader:
        density = net(x, y)  # want: TL201 "outputs only reach the host"
        total += density.detach().sum().item()
    return total
