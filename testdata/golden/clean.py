import torch


@torch.no_grad()
def evaluate(model, loader):
    return [model(x).argmax(1) for x, _ in loader]
