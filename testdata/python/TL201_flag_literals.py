"""TL201: a flag compared with a literal (`if mode == "train":`) decides,
as a truth test does, whether a helper back-propagates and which mode it
switches its model to."""
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, optimizer, train_loader, val_loader):
        self.model = model
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.val_loader = val_loader

    def run_epoch(self, loader, mode="train"):
        losses = []
        for x, y in loader:
            loss = nn.functional.cross_entropy(self.model(x), y)
            if mode == "train":
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            losses.append(loss.item())
        return sum(losses) / len(losses)

    def run(self, epochs):
        for _ in range(epochs):
            self.model.train()
            self.run_epoch(self.train_loader, mode="train")  # ok: TL201 it back-propagates
            self.model.eval()
            print(self.run_epoch(self.val_loader, mode="val"))  # want: TL201 "with `mode=\"val\"`, no backward\(\)"

    def run_chosen(self, mode):
        self.model.eval()
        return self.run_epoch(self.val_loader, mode=mode)  # ok: TL201 the flag is not a literal


def run_phase(model, loader, optimizer, phase):
    if phase != "val":
        model.train()
    else:
        model.eval()
    total = 0.0
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)  # want: TL201 "set_grad_enabled\(phase != \"val\"\)"
        if phase != "val":
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def fit(model, train_loader, val_loader, optimizer):
    run_phase(model, train_loader, optimizer, "train")  # ok: TL201 it trains
    return run_phase(model, val_loader, optimizer, "val")  # ok: TL201 reported in its body, where the mode is chosen
