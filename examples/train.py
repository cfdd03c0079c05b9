"""A small training script with the three memory mistakes torchlint finds.

Run `torchlint check examples/` to see them reported.
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        return self.net(x)


def train_one_epoch(model, loader, optimizer, criterion):
    model.train()
    running_loss = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        running_loss += loss  # keeps every step's autograd graph alive
        torch.cuda.empty_cache()  # frees nothing live tensors hold, costs throughput
    return running_loss / len(loader)


def evaluate(model, loader, criterion):
    model.eval()  # does not disable autograd
    total = 0.0
    for x, y in loader:
        logits = model(x)
        total += criterion(logits, y).item()
    return total / len(loader)


def main():
    data = TensorDataset(torch.randn(256, 32), torch.randint(0, 10, (256,)))
    loader = DataLoader(data, batch_size=32)
    model = MLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(3):
        train_loss = train_one_epoch(model, loader, optimizer, criterion)
        val_loss = evaluate(model, loader, criterion)
        print(f"epoch {epoch}: train {float(train_loss):.3f} val {val_loss:.3f}")


if __name__ == "__main__":
    main()
