"""An evaluation function of another file: it switches what it is given."""
import torch


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x).mean().item()
