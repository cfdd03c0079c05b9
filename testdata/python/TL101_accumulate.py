"""Training and evaluation loops that sum losses: TL101 positives and look-alikes."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.cuda.amp import GradScaler


class Classifier(nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim, 256), nn.ReLU(), nn.Linear(256, classes))
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return self.body(x)


def train_epoch(model, loader, optimizer):
    criterion = nn.CrossEntropyLoss()
    total_loss = 0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss  # want: TL101 "after its backward\(\).*host memory"
    return total_loss / len(loader)


def train_weighted(net, loader, opt):
    loss_fn = nn.MSELoss()
    epoch_loss = 0.0
    for step, (x, y) in enumerate(loader):
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        epoch_loss = epoch_loss + loss * x.size(0)  # want: TL101 "host memory"
        epoch_loss += loss.item() * x.size(0)  # ok: .item() gives a Python number
    return epoch_loss


def validate(model, loader):
    model.eval()
    stats = {"loss": 0.0}
    seen = 0
    with torch.no_grad():
        for x, y in loader:
            stats["loss"] += F.cross_entropy(model(x), y)  # ok: accumulated under no_grad
    for x, y in loader:
        logits = model(x)  # want: TL201
        stats["loss"] += F.cross_entropy(logits, y)  # want: TL101 "never back-propagated.*GPU"
        seen += y.numel()  # ok: a plain count
    return stats


def train_with_metric(model, loader, optimizer):
    running_l1 = 0
    correct = 0
    for x, y in loader:
        out = model(x)
        loss = F.mse_loss(out, y)
        loss.backward()
        optimizer.step()
        running_l1 += F.l1_loss(out, y)  # want: TL101 "never back-propagated"
        correct += (out.argmax(1) == y).sum()  # ok: a comparison carries no history
        running_l1 += F.l1_loss(out, y).detach()  # ok: detached
    return running_l1, correct


def train_rebound(model, loader, optimizer, criterion):
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        loss = loss.item()
        total += loss  # ok: loss was re-bound to a Python float above
        total += float(criterion(model(x), y))  # ok: float() detaches


def multi_task_step(model, batches, optimizer, heads):
    for x, targets in batches:
        loss = 0
        for head, target in zip(heads, targets):
            loss += F.cross_entropy(head(model(x)), target)  # ok: a summed loss, back-propagated below
        loss.backward()
        optimizer.step()


def loss_with_aux(model, loader, optimizer, scaler):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        aux = 0.1 * F.mse_loss(model(x), x)
        loss = loss + aux  # ok: one step's loss, assigned afresh each iteration
        scaler.scale(loss).backward()
        scaler.step(optimizer)


def deep_supervision_loss(outputs, target):
    total = 0
    for out in outputs:
        total += F.cross_entropy(out, target)  # ok: summed over outputs and returned for the caller's backward
    return total


def accumulate_then_backward(model, micro_batches, optimizer, accelerator):
    acc = 0
    for x, y in micro_batches:
        acc += F.cross_entropy(model(x), y)  # ok: the accumulator itself is back-propagated
    accelerator.backward(acc)
    optimizer.step()


class Trainer:
    def __init__(self, model):
        self.model = model
        self.history = 0.0

    def fit(self, loader, optimizer):
        for x, y in loader:
            loss = self.model.criterion(self.model(x), y)
            loss.backward()
            optimizer.step()
            self.history += loss  # want: TL101
            self.history += loss.detach()  # ok: detached


def evaluate_inference_mode(model, loader):
    total = 0
    for x, y in loader:
        with torch.inference_mode():
            out = model(x)
        total += F.cross_entropy(out, y)  # ok: the output was computed in inference mode


def scaled_grad(model, loader, optimizer):
    scaler = GradScaler()
    total = torch.zeros(())
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        total += loss  # want: TL101 "host memory"
