"""TL201: models switched to evaluation mode by a loop over them (`for net
in (G, D): net.eval()`, `[m.eval() for m in (enc, dec)]`) open the
region of each, as a switch of each by name does; the same loop
switching them back to training closes it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

enc = nn.Linear(4, 4)
dec = nn.Linear(4, 2)


def score(loader):
    for net in (enc, dec):
        net.eval()
    hits = 0
    for x, y in loader:
        out = dec(enc(x))  # want: TL201(medium) "`dec\(enc\(x\)\)` runs a forward pass with grad enabled after `net.eval\(\)`" TL201(medium) "`enc\(x\)`"
        hits += (out.argmax(1) == y).sum().item()
    return hits


def score_quietly(loader):
    _ = [m.eval() for m in (enc, dec)]
    hits = []
    for x, y in loader:
        hits.append(dec(enc(x)).argmax(1).tolist())  # want: TL201(medium) "after `m.eval\(\)`" TL201(medium) "`enc\(x\)`"
    return hits


def fit(loader, opt):
    for net in (enc, dec):
        net.eval()
    for net in (enc, dec):
        net.train()
    for x, y in loader:
        loss = F.cross_entropy(dec(enc(x)), y)  # ok: back in training mode, and back-propagated
        opt.zero_grad()
        loss.backward()
        opt.step()


def score_without_grad(loader):
    for net in (enc, dec):
        net.eval()
    hits = 0
    with torch.no_grad():
        for x, y in loader:
            code = enc(x)  # ok: grad is disabled
            out = dec(code)  # ok: grad is disabled
            hits += (out.argmax(1) == y).sum().item()
    return hits


def finetune_frozen_stats(loader, opt):
    for net in (enc, dec):
        net.eval()  # batch statistics frozen, weights trained
    for x, y in loader:
        loss = F.cross_entropy(dec(enc(x)), y)  # ok: back-propagated
        opt.zero_grad()
        loss.backward()
        opt.step()
