"""TL201: one loop for training and validation, chosen by a parameter.
The switch to evaluation mode is under `if is_validate:`, the backward()
under `if not is_validate and fp16:` and `elif not is_validate:`: the
tests' parts (`not`, `and`) keep the two apart as an else would."""
import torch
from torch import nn

FP16 = False


def run_epoch(loader, model, optimizer, is_validate=False):
    total = 0.0
    if is_validate:
        model.eval()
    else:
        model.train()
    for data, target in loader:
        optimizer.zero_grad() if not is_validate else None
        losses = model(data, target)  # want: TL201(high) "where `is_validate` holds.*set_grad_enabled\(not is_validate\)"
        loss = losses[0]
        total += loss.item()
        if not is_validate and FP16:
            (loss * 128.0).backward()
            optimizer.step()
        elif not is_validate:
            loss.backward()
            optimizer.step()
    return total


def run_epoch_guarded(loader, model, optimizer, is_validate=False):
    total = 0.0
    if is_validate:
        model.eval()
    else:
        model.train()
    for data, target in loader:
        losses = model(data, target)  # ok: every call with is_validate=True disables grad
        loss = losses[0]
        total += loss.item()
        if not is_validate:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return total


def run_epoch_rebound(loader, model, optimizer, is_validate=False):
    total = 0.0
    if is_validate:
        model.eval()
    for data, target in loader:
        losses = model(data, target)  # ok: the flag may change before the backward
        loss = losses[0]
        total += loss.item()
        is_validate = total > 10
        if not is_validate:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return total


class Pair(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)
        self.crit = nn.CrossEntropyLoss()

    def forward(self, x, y):
        return [self.crit(self.net(x), y)]


def main(train_loader, val_loader):
    model = Pair()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        run_epoch(train_loader, model, optimizer)
        run_epoch(val_loader, model, optimizer, is_validate=True)
        run_epoch_guarded(train_loader, model, optimizer)
        with torch.no_grad():
            run_epoch_guarded(val_loader, model, optimizer, is_validate=True)
        run_epoch_rebound(val_loader, model, optimizer, is_validate=True)
