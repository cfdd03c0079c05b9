"""Each element of a returned tuple keeps its own provenance."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class AverageMeter:
    def __init__(self):
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n


def rampup(current, length=16):
    return float(np.clip(current / length, 0.0, 1.0))


class SemiLoss:
    def __call__(self, out_x, t_x, out_u, t_u, epoch):
        lx = F.mse_loss(out_x, t_x)
        lu = F.mse_loss(out_u, t_u)
        return lx, lu, 75.0 * rampup(epoch)


def weighted(out, target, epoch):
    return F.mse_loss(out, target), len(target) * rampup(epoch)


def train(loader, epochs):
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = SemiLoss()
    weights, losses = AverageMeter(), AverageMeter()
    for epoch in range(epochs):
        for x, u in loader:
            lx, lu, w = criterion(model(x), torch.zeros(8, 1), model(u), torch.zeros(8, 1), epoch)
            loss = lx + w * lu
            weights.update(w, x.size(0))  # ok: w is a float on every return of SemiLoss.__call__
            losses.update(lx, x.size(0))  # want: TL101 "after its backward"
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_weighted(loader, epochs):
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    total_w = 0
    for epoch in range(epochs):
        for x, y in loader:
            loss, w = weighted(model(x), y, epoch)
            total_w += w  # ok: a number
            optimizer.zero_grad()
            (w * loss).backward()
            optimizer.step()
    return total_w


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def train(self, loader):
        average_over = 0
        for batch in loader:
            loss = self.model.forward_loss(batch)
            if isinstance(loss, tuple):
                average_over += loss[1]  # ok: a method this file cannot see returns a tuple whose later elements are unknown
                loss = loss[0]
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return average_over
