# A custom autograd operation (a subclass of torch.autograd.Function,
# old style with an instance `forward` or new style with `apply`) holds no
# parameter: calling it is no model's forward pass. A module beside it is
# still judged.
import torch
import torch.nn as nn
from torch.autograd import Function


class PairDistance(Function):
    def __init__(self, p):
        super().__init__()
        self.norm = p

    def forward(self, a, b):
        return (a - b).abs().pow(self.norm).sum(dim=1)


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(x)


dist = PairDistance(2)


def train(model, loader, opt):
    seen = []
    for a, n in loader:
        out_a, out_n = model(a), model(n)
        loss = (out_a - out_n).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen.append(dist.forward(out_a, out_n).data.cpu().numpy())  # ok: TL201 an autograd operation
    return seen


def evaluate(loader):
    net = Embedder()
    net.eval()
    return [net(x).cpu() for x in loader]  # want: TL201
