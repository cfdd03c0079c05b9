"""TL201: where a helper's forward pass is reported."""
import torch
from torch import nn


def logits_of(net, x):
    return net(x).softmax(-1)  # ok: a module-level helper is reported at its call


def accuracy(net, batches):
    net.eval()

    def guess(x):
        return net(x).softmax(-1)  # want: TL201 "in `guess`, which `accuracy` calls only after `net.eval\(\)`"

    hits = [(guess(x).argmax(-1) == y).float().mean().item() for x, y in batches]  # ok: reported in `guess`
    return sum(hits) / len(hits)


def mixed(net, batches, opt):
    def run(x):
        return net(x)  # ok: called by training too, reported at the evaluation's call

    for x, y in batches:
        loss = (run(x) - y).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    return [run(x).sum().item() for x, _ in batches]  # want: TL201 "through `run`, which runs `net\(x\)` \(TL201_helper_site.py:22\)"


net = nn.Linear(4, 2)
net.eval()
for x in torch.randn(3, 8, 4):
    print(logits_of(net, x).max().item())  # want: TL201 "through `logits_of`"

