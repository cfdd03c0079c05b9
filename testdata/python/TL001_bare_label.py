import torch


def evaluate(model, loader):
    model.eval()
    todo:  # want: TL001 "SyntaxError: invalid syntax"
    outputs = []
    for x in loader:
        outputs.append(model(x))  # want: TL201
    return torch.cat(outputs)


# `label: int` is an annotation: valid, and silent.
label: int = 0
