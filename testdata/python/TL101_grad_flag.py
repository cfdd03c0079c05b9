"""TL101: a method that runs its forward passes under a grad switch of its
parameter, called with grad turned off."""
import torch
from torch import nn


class Trainer(nn.Module):
    def __init__(self, net, optimizer):
        super().__init__()
        self.net = net
        self.optimizer = optimizer

    def step(self, batch, track_gradient=True):
        x, y = batch
        with torch.set_grad_enabled(track_gradient):
            out = self.net(x)
            loss = ((out - y) ** 2).mean()
        return loss, out

    def step_half(self, batch, track_gradient=True):
        x, y = batch
        features = self.net(x)
        with torch.set_grad_enabled(track_gradient):
            loss = ((features - y) ** 2).mean()
        return loss

    def train_epoch(self, loader):
        for batch in loader:
            loss, _ = self.step(batch)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    def eval_epoch(self, loader):
        total = 0
        for batch in loader:
            loss, out = self.step(batch, track_gradient=False)
            total += loss
        return total / len(loader)

    def eval_epoch_positional(self, loader):
        total = 0
        for batch in loader:
            loss, out = self.step(batch, False)
            total += loss
        return total / len(loader)

    def eval_epoch_with_grad(self, loader):
        total = 0
        for batch in loader:
            loss, out = self.step(batch, track_gradient=True)
            total += loss  # want: TL101(low) "no backward\(\) of this loop is seen to run through"
        return total / len(loader)

    def eval_epoch_half(self, loader):
        # The forward pass runs outside the switch: its graph stays.
        total = 0
        for batch in loader:
            total += self.step_half(batch, track_gradient=False)  # want: TL101(low) "no backward\(\) of this loop is seen to run through"
        return total / len(loader)
