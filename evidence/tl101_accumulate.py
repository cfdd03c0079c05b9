"""TL101: a tensor with autograd history summed into a running total.

Three situations, each flagged (bad_*) and fixed (fixed_*):
- train: the summed loss was back-propagated first;
- eval: an evaluation loop with grad enabled, nothing back-propagated;
- metric: a training loop that also sums a metric (the Brier score) that
  is not part of the loss.

    python3 evidence/tl101_accumulate.py bad_train --model cnn --steps 300
"""
import torch.nn.functional as F

from common import CLASSES, cli, train_variant


def bad_train(model, criterion, optimizer, loader, probe):
    total_loss = 0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss  # evidence: TL101
        probe(step)


def fixed_train(model, criterion, optimizer, loader, probe):
    total_loss = 0.0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        probe(step)


def bad_eval(model, criterion, optimizer, loader, probe):
    model.eval()
    total_loss = 0
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x), y)  # evidence: TL201
        total_loss += loss  # evidence: TL101
        probe(step)


def fixed_eval(model, criterion, optimizer, loader, probe):
    model.eval()
    total_loss = 0.0
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x), y)  # evidence: TL201
        total_loss += loss.item()
        probe(step)


def bad_metric(model, criterion, optimizer, loader, probe):
    total_brier = 0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        logits = model(x)
        loss = criterion(logits, y)
        loss.backward()
        optimizer.step()
        total_brier += F.mse_loss(logits.softmax(1), F.one_hot(y, CLASSES).float())  # evidence: TL101
        probe(step)


def fixed_metric(model, criterion, optimizer, loader, probe):
    total_brier = 0.0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        logits = model(x)
        loss = criterion(logits, y)
        loss.backward()
        optimizer.step()
        total_brier += F.mse_loss(logits.softmax(1), F.one_hot(y, CLASSES).float()).item()
        probe(step)


if __name__ == "__main__":
    cli(train_variant)
