# A module frozen in a chain of calls that each return it
# (`sampler.eval().requires_grad_(False).to(device)`) records no graph,
# as when the calls are statements of their own. The same chain without
# the freeze, or one that turns grad back on, keeps the finding.
import torch
import torch.nn as nn


class Scorer(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x).square().sum(1)


def frozen_scores(net, loader, device):
    scorer = Scorer(net)
    scorer.eval().requires_grad_(False).to(device)
    scores = []
    for x in loader:
        out = scorer(x.to(device))  # ok: TL201 frozen in the chain
        scores.append(out.clone())
    return torch.cat(scores).cpu().numpy().mean()


def scores_with_grad(net, loader, device):
    scorer = Scorer(net)
    scorer.eval().to(device)
    scores = []
    for x in loader:
        out = scorer(x.to(device))  # want: TL201 "scorer\(x.to\(device\)\)"
        scores.append(out.clone())  # want: TL102
    return torch.cat(scores).detach().cpu().numpy().mean()


def thawed_scores(net, loader, device):
    scorer = Scorer(net)
    scorer.eval().requires_grad_(True).to(device)
    scores = []
    for x in loader:
        out = scorer(x.to(device))  # want: TL201 "scorer\(x.to\(device\)\)"
        scores.append(out.clone())  # want: TL102
    return torch.cat(scores).detach().cpu().numpy().mean()
