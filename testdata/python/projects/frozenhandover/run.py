import torch
from torch import nn

import features


def build(hidden, loader):
    if hidden:
        extractor = nn.Linear(4, 8)
        extractor.requires_grad_(False)
        extractor.eval()
    else:
        extractor = None
    if extractor is not None:
        return features.preprocess_optional(extractor, loader, 2)
    return None


def main(hidden):
    frozen = nn.Linear(4, 8)
    for p in frozen.parameters():
        p.requires_grad = False
    frozen.eval()
    loader = [(torch.randn(2, 4), None)]
    feats = features.preprocess(frozen, loader, 2)
    encoder = nn.Linear(4, 8)
    encoder.eval()
    embedded = features.embed_all(encoder, loader)
    return build(hidden, loader), feats, embedded


if __name__ == "__main__":
    main(True)
