"""How often a forward pass of a script runs: once, over a few literal
settings, or per batch of data."""
import torch
import torch.nn as nn

if __name__ == "__main__":
    x = torch.load("batch.pt")
    for width in (8, 16):
        head = nn.Sequential(nn.Linear(4, width), nn.ReLU(), nn.Linear(width, 2))
        head.eval()
        print(head(x).argmax(1).tolist())  # want: TL201(low)
    for batch in torch.load("batches.pt"):
        net = nn.Linear(4, 2)
        net.eval()
        print(net(batch).argmax(1).tolist())  # want: TL201(high)
    with torch.no_grad():
        print(nn.Linear(4, 2)(x).tolist())  # ok: grad disabled
