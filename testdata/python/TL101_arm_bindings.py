"""TL101: one loop for training and evaluation, the loss bound in the
training arm (back-propagated) and again, under no_grad, in the
evaluation arm. The sum after both arms may get either: the training
arm's carries its graph. A name that every arm of a later if/else binds
again reaches the sum only as those arms bind it."""
import torch
from torch import nn


def run_epoch(loader, model, criterion, optimizer, train=True):
    total = 0.0
    for x, y in loader:
        if train:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        else:
            with torch.no_grad():
                loss = criterion(model(x), y)
        total += loss  # want: TL101(high) "after its backward"
    return float(total) / max(len(loader), 1)


def run_epoch_numbers(loader, model, criterion, optimizer, train=True):
    total = 0.0
    for x, y in loader:
        if train:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            loss = loss.item()
        else:
            with torch.no_grad():
                loss = criterion(model(x), y)
        total += loss  # ok: the training arm binds the loss again, to a number
    return total / max(len(loader), 1)


class WaveNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(16, 8)

    def generate(self, num_samples, first_samples, temperature=1.0):
        self.eval()
        generated = first_samples
        for _ in range(num_samples):
            inputs = torch.zeros(1, 16).scatter_(1, generated[-16:].long().view(1, -1), 1.0)
            x = self.net(inputs)[:, -1].squeeze()  # want: TL201(medium) "after `self.eval\(\)`"
            if temperature > 0:
                x /= temperature
                x = torch.multinomial(torch.softmax(x, dim=0), 1).float()
            else:
                x = torch.max(x, 0)[1].float().view(1)
            generated = torch.cat((generated, x), 0)  # ok: both arms bind x again, to indices
        return generated


if __name__ == "__main__":
    net = nn.Linear(4, 2)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    data = [(torch.randn(2, 4), torch.tensor([0, 1]))]
    for epoch in range(3):
        run_epoch(data, net, nn.CrossEntropyLoss(), opt)
        run_epoch(data, net, nn.CrossEntropyLoss(), opt, train=False)
        run_epoch_numbers(data, net, nn.CrossEntropyLoss(), opt)
