"""TL101: a tensor with autograd history summed into a running total.

Three situations, each flagged (bad_*) and fixed (fixed_*):
- train: the summed loss was back-propagated first;
- eval: an evaluation loop with grad enabled, nothing back-propagated;
- metric: a training loop that also sums a metric (the Brier score) that
  is not part of the loss.

    python3 evidence/tl101_accumulate.py bad_train --model cnn --steps 300
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from common import CLASSES, Probe, cli, small_model, synthetic_batches


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


def run(variant, args):
    model = small_model(args.model)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    probe = Probe()
    probe.start()
    variant(model, criterion, optimizer, synthetic_batches(args.model, args.steps), probe)
    return probe.result()


if __name__ == "__main__":
    cli(run)
