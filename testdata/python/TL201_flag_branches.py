"""TL201: a helper whose flag picks a no_grad branch by default runs its
grad-enabled pass only where a call turns the flag on: the calls that
leave it at its default, or pass False, run no forward pass with grad
enabled."""
import torch
import torch.nn as nn


def load_model(dim):
    model = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 8))
    model.eval()
    return model


def embed(x, model, keep_graph=False):
    if not keep_graph:
        with torch.no_grad():
            emb = model(x)
    else:
        emb = model(x)
    return emb.squeeze(0)


def main(pairs, dim):
    model = load_model(dim)
    for a, b in pairs:
        ea = embed(a, model)  # ok: the default takes the no_grad branch
        eb = embed(b, model, keep_graph=False)  # ok: so does False
        print((ea - eb).norm().item())
    for a, _ in pairs:
        print(embed(a, model, keep_graph=True).norm().item())  # want: TL201(medium)
