"""Tensors grown by concatenation across loop iterations: TL101 positives
and look-alikes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Scorer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, 1)

    def forward(self, x):
        return self.fc(x).squeeze(-1)


class DenseBlock(nn.Module):
    """Each layer sees the concatenation of all before it, within one forward pass."""

    def __init__(self, dim, growth, n):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim + i * growth, growth) for i in range(n)])

    def forward(self, x):
        for layer in self.layers:
            x = torch.cat([x, layer(x)], dim=1)  # ok: one forward pass, back-propagated by its caller
        return x


def collect_scores(model, loader):
    model.eval()
    scores = torch.empty(0)
    for x, _ in loader:
        scores = torch.cat((scores, model(x)))  # want: TL101(medium) "seen to run through.*still in memory" TL201
    return scores.detach().cpu().numpy()


def collect_first_or_grow(model, loader):
    model.eval()
    acc = None
    for x, _ in loader:
        out = model(x)  # want: TL201
        acc = out if acc is None else torch.concat([acc, out], dim=0)  # want: TL101 "seen to run through"
    return acc.detach()


def collect_no_grad(model, loader):
    model.eval()
    scores = torch.empty(0)
    with torch.no_grad():
        for x, _ in loader:
            scores = torch.cat((scores, model(x)))  # ok: grad disabled
    return scores


def collect_detached(model, loader):
    scores = torch.empty(0)
    for x, _ in loader:
        scores = torch.cat((scores, model(x).detach()))  # ok: detached
    return scores


def collect_labels(model, loader):
    """The indices carry no graph: no TL101; the pass itself is TL201's."""
    preds = torch.empty(0, dtype=torch.long)
    for x, _ in loader:
        preds = torch.cat((preds, model(x).argmax(-1)))  # want: TL201 "only become indices"
    return preds


def train(model, loader, optimizer):
    history = torch.empty(0)
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        history = torch.cat((history, loss.unsqueeze(0)))  # want: TL101 "after its backward\(\).*host memory"
    return history


def train_stacked(model, loader, optimizer):
    history = torch.empty(0)
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        history = torch.cat((history, loss.detach().unsqueeze(0)))  # ok: detached
    return history


def joined_once(model, batches):
    outs = [model(x) for x in batches]
    return torch.cat(outs)  # ok: no accumulator


def frozen_features(backbone, loader):
    backbone.requires_grad_(False)
    backbone.eval()
    feats = torch.empty(0)
    total = torch.zeros(())
    for x, _ in loader:
        feats = torch.cat((feats, backbone(x)))  # ok: a frozen module's output carries no graph
        total = total + backbone(x).sum()  # ok: the same
    return feats, total


def adapted_features(backbone, adapter, loader):
    backbone.requires_grad_(False)
    total = torch.zeros(())
    for x, _ in loader:
        out = backbone(x)
        out.add_(adapter(x))
        total = total + out.sum()  # want: TL101 "seen to run through"
    return total
