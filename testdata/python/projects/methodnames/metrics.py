"""Helpers whose model comes from callers this project does not show."""
import numpy as np
import torch


def evaluate_hit_rate(model, users, candidates, k=10):
    hits = 0
    for u in users:
        scores = model.rank(np.array([u]), candidates[u])  # want: TL201(low) "through `Ranker.rank`"
        hits += int((scores.argsort(descending=True)[:k] == 0).any())
    return hits / len(users)


def top_items(model, users, k=10):
    # ok: every `recommend` of the project runs under no_grad
    return [model.recommend(np.array([u]), k).tolist() for u in users]


def summary(model, clf, xs):
    # ok: `describe` runs no forward pass; `predict` is no method of the project's
    return model.describe(), clf.predict(xs)


def user_embeddings(model, users):
    model.eval()
    out = []
    for u in users:
        out.append(model.get_user_emb(torch.as_tensor([u])).detach().cpu())  # want: TL201(low) "through `Ranker.get_user_emb`"
    return out
