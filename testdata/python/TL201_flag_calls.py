"""TL201: one loop for training and validation, whose every backward()
is under `if train:`. A call that passes train=False, and drops or reads
on the host what it returns, runs the loop's passes for nothing, in any
function, named for evaluation or not."""
import torch
from torch import nn


def run_epoch(model, loader, optimizer, train=True):
    total = 0.0
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total / max(len(loader), 1)


def step_loss(model, batch, optimizer, update=True):
    x, y = batch
    loss = nn.functional.cross_entropy(model(x), y)
    if update:
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss


def main(model: nn.Module, train_loader, val_loader, batches):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        run_epoch(model, train_loader, optimizer)
        val_loss = run_epoch(model, val_loader, optimizer, train=False)  # want: TL201(high) "with `train=False`, no backward\(\)"
        print(epoch, val_loss)
        with torch.no_grad():
            run_epoch(model, val_loader, optimizer, train=False)  # ok: under no_grad
        for batch in batches:
            loss = step_loss(model, batch, optimizer, update=False)  # ok: the caller back-propagates what it returns
            loss.backward()
            optimizer.step()


class Probe:
    def optimize_epoch(self, model, loader, optimizer, is_validation=False):
        if is_validation is False:
            model.train()
        else:
            model.eval()
        total = 0.0
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)  # ok: every call with is_validation=True disables grad
            if is_validation is False:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total += loss.item()
        return total

    def fit(self, model, train_loader, val_loader, optimizer):
        for _ in range(10):
            self.optimize_epoch(model, train_loader, optimizer, is_validation=False)
            with torch.no_grad():
                self.optimize_epoch(model, val_loader, optimizer, is_validation=True)


class LeakyProbe:
    def optimize_epoch(self, model, loader, optimizer, is_validation=False):
        if is_validation is False:
            model.train()
        else:
            model.eval()
        total = 0.0
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)  # want: TL201 "is_validation is False"
            if is_validation is False:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total += loss.item()
        return total

    def fit(self, model, train_loader, val_loader, optimizer):
        for _ in range(10):
            self.optimize_epoch(model, train_loader, optimizer, is_validation=False)
            self.optimize_epoch(model, val_loader, optimizer, is_validation=True)
