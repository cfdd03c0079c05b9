"""Helpers the training loops of train.py call."""
import torch


def clear_grads(optimizer):
    optimizer.zero_grad(set_to_none=True)


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()  # want: TL501 "accumulate `\(model\(x\).argmax\(1\) == y\).sum\(\)` on the GPU"
    return correct


def validate(model, loader):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        losses = [torch.nn.functional.cross_entropy(model(x), y).item() for x, y in loader]
    model.train(was_training)
    return sum(losses) / len(losses)


def run_epoch(model, loader, optimizer, criterion):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()


def accuracy(logits, y):
    return (logits.argmax(1) == y).float().mean().item()


def evaluate_on(data, net):
    net.eval()
    with torch.no_grad():
        return [net(x) for x, _ in data]


def train_steps(loader, model, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()


def train_probe(loader, model, optimizer, criterion):
    # Linear probing: the backbone's batch norm statistics stay frozen,
    # only the head (the one module in the optimizer) learns.
    model.eval()
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
