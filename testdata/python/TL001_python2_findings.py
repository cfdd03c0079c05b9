"""A Python 2 training script: its other findings rest on what the parser recovered, one level lower."""
import torch


def train(model, loader, optimizer, criterion):
    total = 0
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss  # want: TL101(medium)
    print "epoch loss", total  # want: TL001


if __name__ == "__main__":
    train(torch.nn.Linear(2, 1), [], None, torch.nn.MSELoss())
