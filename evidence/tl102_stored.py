"""TL102: a tensor with autograd history stored in a list that outlives the step.

Three situations, each flagged (bad_*) and fixed (fixed_*):
- train: each step's loss, back-propagated first, appended to a list;
- eval: an evaluation loop with grad enabled that collects its logits;
- metric: a training loop that also collects a metric (the Brier score)
  that is not part of the loss.

    python3 evidence/tl102_stored.py bad_eval --model transformer --steps 300
"""
import torch.nn.functional as F

from common import CLASSES, cli, train_variant


def bad_train(model, criterion, optimizer, loader, probe):
    losses = []
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss)  # evidence: TL102
        probe(step)


def fixed_train(model, criterion, optimizer, loader, probe):
    losses = []
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        probe(step)


def bad_eval(model, criterion, optimizer, loader, probe):
    model.eval()
    all_logits = []
    for step, (x, y) in enumerate(loader):
        logits = model(x)  # evidence: TL201
        all_logits.append(logits)  # evidence: TL102
        probe(step)


def fixed_eval(model, criterion, optimizer, loader, probe):
    model.eval()
    all_logits = []
    for step, (x, y) in enumerate(loader):
        logits = model(x)  # evidence: TL201
        all_logits.append(logits.detach())
        probe(step)


def bad_metric(model, criterion, optimizer, loader, probe):
    briers = []
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        logits = model(x)
        loss = criterion(logits, y)
        loss.backward()
        optimizer.step()
        briers.append(F.mse_loss(logits.softmax(1), F.one_hot(y, CLASSES).float()))  # evidence: TL102
        probe(step)


def fixed_metric(model, criterion, optimizer, loader, probe):
    briers = []
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        logits = model(x)
        loss = criterion(logits, y)
        loss.backward()
        optimizer.step()
        briers.append(F.mse_loss(logits.softmax(1), F.one_hot(y, CLASSES).float()).item())
        probe(step)


if __name__ == "__main__":
    cli(train_variant)
