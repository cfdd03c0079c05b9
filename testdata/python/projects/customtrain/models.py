"""A model whose own method puts the part it trains back in training mode,
and another whose method of that name only freezes its encoder."""
from torch import nn


class Disc(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.1)).eval()
        self.head = nn.Linear(8, 2)

    def train_custom(self):
        for p in self.encoder.parameters():
            p.requires_grad = False
        self.head.train()

    def freeze_encoder(self):
        for p in self.encoder.parameters():
            p.requires_grad = False

    def forward(self, x):
        return self.head(self.encoder(x))
