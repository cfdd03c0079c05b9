import torch


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return [model(x).cpu() for x, _ in loader]
