import torch


def train(model, loader):
    for x, y in loader  # want: TL001
        loss = model(x)
    return loss
