"""Validation that switches the model it is given."""
import torch


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x).mean().item()
