"""TL102: tables of embeddings filled once per call, and entries of an output dict."""
import torch
import torch.nn as nn
from captioning import build_captioner
from tracking import log_metric


class Voice(nn.Module):
    def __init__(self, n_speakers, dim):
        super().__init__()
        self.emb = nn.Embedding(n_speakers, dim)
        self.dim = dim
        self.codes = []
        self.mix = torch.zeros(n_speakers, dim)

    def enable_mix(self, n):
        self.table = torch.zeros(n, self.dim)
        for i in range(n):
            self.table[i] = self.emb(torch.tensor([i]))  # ok: a table this call makes afresh, filled once

    def forward(self, ids, weights=None):
        x = self.emb(ids)
        if weights is not None:
            for k, w in weights.items():
                e = self.emb(torch.tensor([k]))
                self.mix[k] = e  # ok: detached below, before the call returns
                x = x + w * e
            self.mix = self.mix.detach()
        return x

    def remember(self, ids):
        for i in ids:
            self.codes.append(self.emb(i))  # want: TL102(medium) "stays alive for as long as `self.codes`"


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x, target, reward):
        return {"loss": (self.fc(x) - target).pow(2).mean(), "reward": reward}


def train(batches):
    model = Scorer()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    history = []
    for x, target, reward in batches:
        out = model(x, target, reward)
        out["loss"].backward()
        opt.step()
        opt.zero_grad()
        history.append(out["loss"])  # want: TL102(high) "after its backward"
        history.append(out["reward"].mean())  # ok: the entry is a value passed in, with no graph
    return history


def train_built(batches):
    model = build_captioner()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    rewards = []
    for x, target in batches:
        out = model(x, target)
        out["loss"].backward()
        opt.step()
        opt.zero_grad()
        rewards.append(out["reward"].mean())  # want: TL102(medium)


def collect_logged(batches):
    model = nn.Linear(4, 1)
    outs = []
    for x in batches:
        outs.append(model(x))  # want: TL102(medium)
    log_metric("outs", outs)


def collect(voice, batches):
    for ids in batches:
        voice.remember(ids)


if __name__ == "__main__":
    collect(Voice(4, 8), [])
    train([])
    collect_logged([])
