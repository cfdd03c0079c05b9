"""Validation that loads a model of its own, and one that switches the
model it is given."""
import torch

from models import Net


def log_validation(model, path, x):
    fresh = Net.from_pretrained(path)
    with torch.no_grad():
        return (fresh(x) - model(x)).abs().mean().item()


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x).mean().item()
