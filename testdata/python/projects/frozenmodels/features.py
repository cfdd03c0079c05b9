import torch
from torch import nn

from factories import load_backbone, load_classifier, load_trainable_backbone


def extract(loader, net, device):
    feats = []
    for x in loader:
        feats.append(net(x.to(device)).cpu())  # ok: TL102 every call gives a Backbone, frozen by its constructor
    return torch.cat(feats)


def embed_all(loader, device):
    net = nn.DataParallel(load_backbone()).to(device)
    return extract(loader, net, device)


def logits_all(loader, device):
    model = load_classifier(device)
    model.eval()
    outs = []
    for x in loader:
        outs.append(model(x.to(device)).cpu())  # want: TL102 TL201
    return outs


def tune_features(loader, device):
    net = load_trainable_backbone().to(device)
    feats = []
    for x in loader:
        feats.append(net(x.to(device)).cpu())  # want: TL102 TL201
    return len(feats)
