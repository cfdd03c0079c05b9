"""`retain_variables=True`, the name of `retain_graph` before PyTorch 0.4, on the last backward of a step, and look-alikes."""
import torch
import torch.nn as nn
from torch.autograd import Variable


def train_legacy(model, loader, optimizer, criterion):
    for x, y in loader:
        x, y = Variable(x.cuda()), Variable(y.cuda())
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_variables=True)  # want: TL103 "drop `retain_variables=True` .*`retain_graph` before 0\.4"
        optimizer.step()


def train_legacy_api(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        torch.autograd.backward(loss, retain_variables=True)  # want: TL103 "`retain_variables=True` keeps"
        optimizer.step()


def train_legacy_two_losses(encoder, head_a, head_b, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        features = encoder(x)
        loss_a = head_a(features).sum()
        loss_a.backward(retain_variables=True)  # ok: loss_b below back-propagates through features again
        loss_b = head_b(features).sum()
        loss_b.backward()
        optimizer.step()


def train_legacy_off(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_variables=False)  # ok: False frees the graph
        optimizer.step()


def train_legacy_flag(model, loader, optimizer, criterion, keep):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_variables=keep)  # ok: not a literal True
        optimizer.step()


def train_graph_wins(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_graph=False, retain_variables=True)  # ok: retain_graph, given, is what counts
        optimizer.step()


def train_legacy_summed(model, loader, optimizer, criterion):
    total = 0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_variables=True)  # want: TL103
        optimizer.step()
        total += loss  # want: TL101 "its backward\(retain_variables=True\) frees none of the activations"
    return total.item()


def train_legacy_stored(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_variables=True)  # want: TL103
        optimizer.step()
        losses.append(loss)  # want: TL102 "its backward\(retain_variables=True\) frees none of the activations"
    return losses


if __name__ == "__main__":
    net = nn.Linear(4, 2)
    train_legacy(net, [], torch.optim.SGD(net.parameters(), lr=0.1), nn.CrossEntropyLoss())
