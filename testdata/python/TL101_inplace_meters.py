"""TL101: a meter that adds what it is given into a tensor of its own in
place (`self.total.add_(val)`, or of an attribute a `copy_` filled)
keeps every step's graph, as `self.total += val` does."""
import torch
from torch import nn


class Meter:
    def __init__(self):
        self._total = torch.zeros(1)
        self._last = torch.zeros(1)
        self._count = 0

    def update(self, data, n=1):
        self._count = self._count + n
        if torch.is_tensor(data):
            self._last.copy_(data)
        else:
            self._last.fill_(data)
        self._total.add_(self._last)

    def value(self):
        return self._total / self._count


class Summer:
    def __init__(self):
        self.total = torch.zeros(1)

    def update(self, val):
        self.total.add_(val)


def train(model, loader, opt, crit):
    meter, summer = Meter(), Summer()
    for x, y in loader:
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        meter.update(loss)  # want: TL101 "adds it into `self._total`"
        summer.update(loss)  # want: TL101 "adds it into `self.total`"
    return meter.value(), summer.total


def train_logged(model, loader, opt, crit):
    meter, summer = Meter(), Summer()
    for x, y in loader:
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        meter.update(loss.detach())  # ok: detached
        summer.update(loss.item())  # ok: a number
    return meter.value(), summer.total


if __name__ == "__main__":
    net = nn.Linear(4, 1)
    data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(10)]
    sgd = torch.optim.SGD(net.parameters(), lr=0.1)
    print(train(net, data, sgd, nn.MSELoss()), train_logged(net, data, sgd, nn.MSELoss()))
