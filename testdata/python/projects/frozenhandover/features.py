import torch


def preprocess(feature_extractor, loader, n):
    feats = torch.empty((n, 8))
    count = 0
    for x, _ in loader:
        x = feature_extractor(x).cpu()  # ok: TL201 every call of the project hands a model frozen before it
        feats[count:count + x.shape[0]] = x  # ok: TL102 the extractor records no graph
        count += x.shape[0]
    return feats


def preprocess_optional(feature_extractor, loader, n):
    feats = torch.empty((n, 8))
    count = 0
    for x, _ in loader:
        x = feature_extractor(x).cpu()  # ok: TL201 the model exists only where it was frozen
        feats[count:count + x.shape[0]] = x  # ok: TL102 the extractor records no graph
        count += x.shape[0]
    return feats


def embed_all(encoder, loader):
    outs = []
    for x, _ in loader:
        outs.append(encoder(x).cpu())  # want: TL102 TL201
    return outs
