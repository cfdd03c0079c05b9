"""TL102: a running total of losses, each back-propagated, then divided by
the number of batches, holds their autograd nodes, not their activations:
the message says so. Stored as a number, it holds nothing."""
import torch.nn.functional as F


def train(model, optimizer, loader, epochs):
    history = {"epoch": [], "cost": [], "numbers": []}
    for epoch in range(epochs):
        epoch_cost = 0.0
        for batch_idx, (x, y) in enumerate(loader):
            cost = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            cost.backward()
            optimizer.step()
            epoch_cost += cost  # want: TL101 "after its backward\(\)"
        epoch_cost /= batch_idx + 1
        history["epoch"].append(epoch + 1)
        history["cost"].append(epoch_cost)  # want: TL102 "after its backward\(\): no activations"
        history["numbers"].append(float(epoch_cost))  # ok: a Python number
    return history
