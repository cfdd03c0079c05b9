"""TL201: outputs followed through the file's own helpers that rebuild
them (slices appended to a list, then concatenated) or unpack what
another helper returns: where they end decides, as for inline code."""
import numpy as np
import torch
import torch.nn as nn


def activate(data, spans):
    parts = []
    start = 0
    for width in spans:
        parts.append(torch.tanh(data[:, start:start + width]))
        start += width
    return torch.cat(parts, dim=1)


def coef(out):
    mu, log_s = out[:, 0], out[:, 1]
    return mu, torch.exp(log_s)


def nll(out, y):
    mu, s = coef(out)
    return (((y - mu) / s) ** 2).mean()


class Synth:
    def __init__(self):
        self.gen = nn.Linear(8, 6)
        self.spans = [3, 3]

    def draw(self, n):
        rows = []
        for _ in range(n // 100):
            fake = self.gen(torch.randn(100, 8))  # want: TL201 "outputs only reach the host"
            rows.append(activate(fake, self.spans).detach().cpu().numpy())
        return np.concatenate(rows)

    def fit(self, opt, batches):
        for z, target in batches:
            fake = activate(self.gen(z), self.spans)  # ok: the rebuilt output is back-propagated below
            loss = (fake - target).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


def fit_and_check(net, opt, train, val):
    for x, y in train:
        loss = nll(net(x), y)  # ok: back-propagated
        opt.zero_grad()
        loss.backward()
        opt.step()
    total = 0.0
    for x, y in val:
        out = net(x)  # want: TL201 "outputs only reach the host"
        total += nll(out, y).item()
    return total
