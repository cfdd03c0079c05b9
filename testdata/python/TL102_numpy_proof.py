"""TL102: `.numpy()` raises on a tensor that requires grad, so a list that
the code joins into one tensor and hands to `.numpy()` held no graph, if
the code runs at all: a frozen feature extractor's features."""
import torch
import torch.nn.functional as F


def extract_features(model, loader):
    features_all = []
    model.train()
    for x, _ in loader:
        features, _ = model(x)
        features_all.append(features.cpu())  # ok: joined and read with .numpy() below, which a graph would make raise
    return F.normalize(torch.cat(features_all), dim=1).numpy()


def extract_detached(model, loader):
    features_all = []
    for x, _ in loader:
        features, _ = model(x)  # want: TL201(medium) "reach no backward"
        features_all.append(features.cpu())  # want: TL102 "stores a tensor whose autograd graph"
    # detached before .numpy(): nothing says the features had no graph
    return torch.cat(features_all).detach().numpy()


def extract_kept(model, loader):
    features_all = []
    for x, _ in loader:
        features, _ = model(x)
        features_all.append(features)  # want: TL102 "stores a tensor whose autograd graph"
    joined = torch.cat(features_all)
    return joined.mean(0)


def predict(net, images):
    # TL201 does not take `.numpy()` through torch's functions for evidence
    # that the network is frozen: the pass is still reported.
    net.eval()
    probs = torch.softmax(net(images), dim=1)  # want: TL201
    return probs.cpu().numpy()
