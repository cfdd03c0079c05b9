"""Helpers that take what they are given out of autograd, or do not."""


def freeze_model(model):
    for param in model.parameters():
        param.requires_grad = False


def describe_model(model):
    print(sum(p.numel() for p in model.parameters()))
