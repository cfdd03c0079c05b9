import torch


def decode(model, feats):
    with torch.no_grad():
        return [model.recognize(f) for f in feats]
