"""Two models with the same methods; which one runs is chosen in another file."""
import torch
from torch import nn


class Base(nn.Module):
    def valid_model(self, feed):
        raise NotImplementedError


class Small(Base):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        self.loss = self.fc(x).pow(2).mean()
        return self.loss

    def valid_model(self, feed):
        losses = []
        for x in feed:
            with torch.no_grad():
                self.forward(x)
            losses.append(self.loss.item())
        return losses


class Wide(Base):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x):
        self.loss = self.fc(x).pow(2).mean()
        return self.loss

    def valid_model(self, feed):
        losses = []
        for x in feed:
            with torch.no_grad():
                self.forward(x)
            losses.append(self.loss.item())
        return losses
