"""Helpers of another file, judged by what every call of them hands them."""
import torch
import torch.nn.functional as F


def hit_rate(scorer, loader, k):
    hits = []
    for user, item in loader:
        scores = scorer(user, item)  # want: TL201 "in `hit_rate`, which every caller hands a model it switched to evaluation mode \(main.py:30\)"
        _, top = torch.topk(scores, k)
        hits.append(int(item[0].item() in top.tolist()))
    return sum(hits) / len(hits)


def mean_loss(scorer, loader):
    # Also called in training mode, but with grad enabled by every caller
    # and read only on the host: reported here, where the no_grad goes, and
    # not again where evaluation calls it.
    total = 0.0
    for user, item, y in loader:
        total += F.mse_loss(scorer(user, item), y).item()  # want: TL201(high) "only reach the host"
    return total / len(loader)


def ranked(scorer, loader):
    # ok: its one caller runs it under no_grad
    return [scorer(user, item).argsort() for user, item in loader]


def fine_tune(scorer, loader, opt):
    # ok: it back-propagates, as test-time training must
    for user, item, y in loader:
        loss = F.mse_loss(scorer(user, item), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
