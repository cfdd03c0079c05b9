"""Scores computed by closures: a function runs in the mode of what calls
the function that makes or hands it on."""
import numpy as np
import torch


def eval_ood_detection(model, loader):
    score_func = get_score_func(model)
    return get_scores(loader, score_func)


def get_score_func(model):
    def score_func(x):
        return compute_score(model, x)

    return score_func


def get_scores(loader, score_func):
    scores = []
    for x, _ in loader:
        scores.append(score_func(x).detach().cpu().numpy())
    return np.concatenate(scores)


def compute_score(model, x):
    model.eval()
    out = model(x)  # ok: main.py runs eval_ood_detection, which makes the closure that calls this, under no_grad
    return out.max(dim=1)[0]


def energy_scores(model, loader):
    def score_func(x):
        return compute_energy(model, x)

    return get_scores(loader, score_func)


def compute_energy(model, x):
    model.eval()
    logits = model(x)  # want: TL201(medium) "after `model.eval\(\)`"
    return torch.logsumexp(logits, dim=1)
