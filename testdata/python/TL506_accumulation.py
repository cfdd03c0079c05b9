"""Gradient accumulation from a loss never divided by the count, against
losses and gradients scaled, and loops that do not accumulate."""
import torch
import torch.nn.functional as F


def train(model, loader, optimizer, criterion, accum_steps):
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x), y)
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()  # want: TL506 "sum of the gradients of `accum_steps` micro-batches .* `loss` is never divided by `accum_steps`"
            optimizer.zero_grad()


def train_amp(model, loader, optimizer, scaler, k):
    for step, (x, y) in enumerate(loader):
        with torch.autocast("cuda"):
            loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        if step % k == k - 1:
            scaler.step(optimizer)  # want: TL506 "divide the loss by `k` before its backward"
            scaler.update()
            optimizer.zero_grad()


def train_divided(model, loader, optimizer, criterion, accum_steps):
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x), y) / accum_steps
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()  # ok: the loss is divided by the count
            optimizer.zero_grad()


def train_divided_later(model, loader, optimizer, criterion, n_micro):
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x), y)
        loss = loss / n_micro
        loss.backward()
        if (i + 1) % n_micro == 0:
            optimizer.step()  # ok: divided in a second assignment
            optimizer.zero_grad()


def train_in_place(model, loader, optimizer, criterion, accumulate):
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x), y)
        loss /= accumulate
        loss.backward()
        if (i + 1) % accumulate == 0:
            optimizer.step()  # ok: divided in place
            optimizer.zero_grad()


def train_grads_divided(model, loader, optimizer, criterion, k):
    for i, (x, y) in enumerate(loader):
        criterion(model(x), y).backward()
        if (i + 1) % k == 0:
            for p in model.parameters():
                p.grad /= k
            optimizer.step()  # ok: the gradients are divided before the step
            optimizer.zero_grad()


def compute_loss(model, batch):
    x, y = batch
    return F.cross_entropy(model(x), y) / 4


def train_helper_loss(model, loader, optimizer, k):
    for i, batch in enumerate(loader):
        loss = compute_loss(model, batch)
        loss.backward()
        if (i + 1) % k == 0:
            optimizer.step()  # ok: compute_loss divides
            optimizer.zero_grad()


def train_skipping(model, loader, optimizer, criterion, k):
    for i, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        if i % k == 0:
            optimizer.step()  # ok: cleared every iteration, nothing accumulates


def train_every_step(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()  # ok: no accumulation


from helpers import *  # noqa: E402, F403


def train_star_helper(model, loader, optimizer, k):
    for i, (x, y) in enumerate(loader):
        loss = masked_mean(model(x) - y, normalizer=k)  # noqa: F405
        loss.backward()
        if (i + 1) % k == 0:
            optimizer.step()  # ok: masked_mean comes from a star import, which may divide
            optimizer.zero_grad()
