"""TL101: a second head of a model's forward pass, summed across steps."""
import torch


def train(model, loader, optimizer):
    # `pred` goes to the loss; `dist`, the model's other output, is summed
    # across the epoch and never back-propagated: each step's graph stays.
    dist_mat = torch.zeros(2, 3)
    for x, y in loader:
        optimizer.zero_grad()
        pred, dist = model(x)
        dist_mat += dist  # want: TL101(high) "no backward\(\) of this loop"
        loss = (pred - y).pow(2).mean()
        loss.backward()
        optimizer.step()
    return dist_mat


def fit(compute_loss, loader, optimizer):
    # An unpacked result of a callee that is no model by its name: a loss
    # and what it counts, as `loss, n = compute_loss(batch)` is written.
    seen = 0
    for batch in loader:
        optimizer.zero_grad()
        loss, n = compute_loss(batch)
        seen += n
        loss.backward()
        optimizer.step()
    return seen
