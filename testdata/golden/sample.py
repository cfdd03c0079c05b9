import torch
import torch.nn.functional as F


def train(model, loader, optimizer):
    total = 0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss
        torch.cuda.empty_cache()
    return total


def evaluate(model, loader):
    model.eval()
    return [model(x) for x, _ in loader]


def validate(model, batch):
    ergebnis = {"größe": model(batch)}
    return ergebnis
