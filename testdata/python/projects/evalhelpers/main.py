import torch
from torch import nn

import metrics


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(100, 8)
        self.item = nn.Embedding(100, 8)

    def forward(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1)


def main(loader, test_loader):
    model = Scorer()
    optimizer = torch.optim.Adam(model.parameters())
    for u, i, y in loader:
        loss = nn.functional.mse_loss(model(u, i), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(metrics.mean_loss(model, loader))
    model.eval()
    # Its passes end on the host in its body, reported there: one finding
    # for one pass, as for a helper of this file.
    print(metrics.mean_loss(model, test_loader))  # ok: TL201
    print(metrics.hit_rate(model, test_loader, 10))
    with torch.no_grad():
        print(metrics.ranked(model, test_loader))


def adapt(model, loader, optimizer):
    model.eval()  # batch statistics frozen while the weights adapt
    metrics.fine_tune(model, loader, optimizer)


if __name__ == "__main__":
    main([], [])
