"""An evaluation function of another file: it switches what it is given."""
import torch


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x).mean().item()


def agreement(draft, target, x):
    """Switches the frozen target it compares the draft with."""
    target.eval()
    with torch.no_grad():
        return (draft(x).argmax(-1) == target(x).argmax(-1)).float().mean().item()
