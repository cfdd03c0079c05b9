"""Training loops of another file than the model's class: a method called
on a model whose class the function does not know is looked up by its name
among the project's methods."""
import torch

from models import Disc


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
