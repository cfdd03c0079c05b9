"""TL201: a training step whose backward runs inside a loss scaler's call."""
import torch
from timm.utils import NativeScaler


class ScalerWithNorm:
    def __init__(self):
        self._scaler = torch.amp.GradScaler("cuda")

    def __call__(self, loss, optimizer, parameters=None):
        self._scaler.scale(loss).backward()
        self._scaler.step(optimizer)
        self._scaler.update()


def train_timm(model, loader, optimizer, criterion):
    # A frozen batch norm: the model stays in evaluation mode and trains.
    scaler = NativeScaler()
    model.eval()
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = criterion(model(x), y)
        optimizer.zero_grad()
        scaler(loss, optimizer, parameters=model.parameters())


def train_own(model, loader, optimizer, criterion):
    scaler = ScalerWithNorm()
    model.eval()
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        scaler(loss, optimizer, parameters=model.parameters())


def train_given(model, loader, optimizer, criterion, scaler):
    # What the scaler given does is not seen: said so, at the lowest level.
    model.eval()
    for x, y in loader:
        loss = criterion(model(x), y)  # want: TL201(low) "after `model.eval\(\)`"
        optimizer.zero_grad()
        scaler(loss, optimizer, parameters=model.parameters())
