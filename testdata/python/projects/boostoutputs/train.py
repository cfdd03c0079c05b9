"""The outputs of a method that runs the model, unpacked beside a term of
the loss: each comes from its forward pass, and a sum of one across steps
keeps every step's graph."""
import torch
import torch.nn.functional as F


def train_epoch(model, loader, optimizer, weight):
    model.train()
    dist_sum = torch.zeros(2)
    for x, y, n_src in loader:
        pred, transfer, dist = model.forward_boosting(x, n_src)
        loss = F.mse_loss(pred[:n_src], y) + weight * transfer
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        dist_sum = dist_sum + dist  # want: TL101(high) "accumulates a tensor"
    return dist_sum


def train_epoch_logged(model, loader, optimizer, weight):
    model.train()
    transfer_sum = 0.0
    for x, y, n_src in loader:
        pred, transfer, dist = model.forward_boosting(x, n_src)
        loss = F.mse_loss(pred[:n_src], y) + weight * transfer
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        transfer_sum += transfer.item()  # ok: a number
    return transfer_sum
