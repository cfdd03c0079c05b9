import torch
import torch.nn.functional as F

from models import Booster


def train(loader, epochs):
    model = Booster()
    optimizer = torch.optim.Adam(model.parameters())
    dist_total = torch.zeros(1)
    seen = 0
    for _ in range(epochs):
        for x, y in loader:
            pred, dist, n = model.forward_boost(x)
            loss = F.mse_loss(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            dist_total = dist_total + dist  # want: TL101 "seen to run through"
            seen += n  # ok: the count, a number
    return dist_total, seen
