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


# A module whose only attributes are settings and an instance of such an
# operation (or of a class that computes nothing with torch) holds no
# parameter either: its pass on inputs that need no grad records nothing.
class Pooling(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.func = PairDistance(scale)

    def forward(self, a, b):
        return self.func(a, b)


class Settings:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, a):
        return a * self.scale


class Scaled(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.op = Settings(scale)

    def forward(self, a):
        return self.op(a)


class Projected(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.func = PairDistance(scale)
        self.fc = nn.Linear(8, 8)

    def forward(self, a, b):
        return self.func(self.fc(a), b)


def check_pooling(loader):
    pool = Pooling(2).cuda()
    scaled = Scaled(0.5)
    for a, b in loader:
        print(pool(a, b).mean().item())  # ok: TL201 settings and an operation, no parameter
        print(scaled(a).sum().item())  # ok: TL201 a plain class's instance holds no parameter


def check_projected(loader):
    proj = Projected(2)
    proj.eval()
    return [proj(a, b).cpu() for a, b in loader]  # want: TL201
