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


def freeze_batchnorm(model):
    """Fine-tuning with frozen statistics: only the batch norms."""
    for layer in model.modules():
        if isinstance(layer, torch.nn.BatchNorm1d):
            layer.eval()
            for p in layer.parameters(recurse=False):
                p.requires_grad = False


def switch_all(model):
    """Every part of the model: the same as model.eval()."""
    for layer in model.modules():
        layer.eval()
