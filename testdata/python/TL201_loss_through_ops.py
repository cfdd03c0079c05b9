"""TL201: a loss read on the host through the functions that make one
number of it (`torch.sqrt`, `torch.mean`, `.mean()`) is a metric, as one
read at once is: the forward pass that feeds it is evaluation. Made into
the loss that is back-propagated, or summed over batches, it is not."""
import torch
import torch.nn as nn

mse = nn.MSELoss()


def log_rmse(net, features, labels):
    clipped = torch.clamp(net(features), 1, float("inf"))  # want: TL201 "only reach the host"
    rmse = torch.sqrt(torch.mean(mse(torch.log(clipped), torch.log(labels))))
    return rmse.item()


def rmse_of(net, features, labels):
    return torch.sqrt(mse(net(features), labels)).mean().item()  # want: TL201 "only reach the host"


def train(net, loader, optimizer, features, labels, epochs):
    history = []
    for _ in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            rmse = torch.sqrt(mse(net(x), y))  # ok: back-propagated below
            rmse.backward()
            optimizer.step()
        history.append((log_rmse(net, features, labels), rmse_of(net, features, labels)))
    return history


def summed(net, loader):
    total = 0.0
    for x, y in loader:
        total = total + torch.sqrt(mse(net(x), y))  # want: TL101(low) "seen to run through"
    return total.item()
