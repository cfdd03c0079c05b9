"""TL503: a method of the model's class that puts the part it trains back
in training mode (`self.head.train()`), called on a model whose class the
function does not know, switches it back; a method of another name that
does not leaves it in evaluation mode."""
import torch
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


@torch.no_grad()
def evaluate(model):
    model.eval()
    model(torch.randn(4, 8))


def train_epoch(model, opt):
    model.train_custom()
    for _ in range(5):
        opt.zero_grad()
        model(torch.randn(4, 8)).logsumexp(1).mean().backward()
        opt.step()


def train_epoch_frozen(model, opt):
    model.freeze_encoder()
    for _ in range(5):
        opt.zero_grad()
        model(torch.randn(4, 8)).logsumexp(1).mean().backward()
        opt.step()


def fit(model, opt):
    for epoch in range(3):
        train_epoch(model, opt)
        evaluate(model)  # ok: train_epoch switches the head back to training


def fit_frozen(model, opt):
    for epoch in range(3):
        train_epoch_frozen(model, opt)
        evaluate(model)  # want: TL503(high) "switches `model` to evaluation mode"


model = Disc()
opt = torch.optim.Adam(model.parameters())
fit(model, opt)
fit_frozen(model, opt)
