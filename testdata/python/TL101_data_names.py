"""TL101: a loop over an iterable named for data (`data`) runs a batch
per iteration: a loss summed over it without `.item()` keeps every
batch's graph, unless the sum is back-propagated once at the end."""
import torch.nn.functional as F


def validate(model, data):
    model.eval()
    total = 0
    for x, y in data:
        total += F.mse_loss(model(x), y)  # want: TL101(medium) "no backward" TL201
    return total.item() / len(data)


def meta_step(model, optimizer, data):
    optimizer.zero_grad()
    loss = 0
    for x, y in data:
        loss = loss + F.mse_loss(model(x), y)  # ok: the sum is back-propagated once, below
    loss.backward()
    optimizer.step()
