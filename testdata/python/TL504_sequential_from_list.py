"""TL504: an nn.Sequential built from a list of layers ends with the last
layer the list was given before the call: a softmax appended last makes
the model's outputs probabilities. A list whose end a loop or a branch
sets, or that ends with a linear layer, says nothing."""
import torch.nn as nn
import torch.nn.functional as F


class SoftmaxMLP(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        layers = [nn.Flatten()]
        for n_in, n_out in zip(sizes, sizes[1:]):
            layers.append(nn.Linear(n_in, n_out))
            layers.append(nn.ReLU())
        layers.append(nn.Linear(sizes[-1], 10))
        layers.append(nn.Softmax(dim=1))
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)


class ExtendedMLP(nn.Module):
    def __init__(self):
        super().__init__()
        layers = [nn.Linear(4, 8), nn.ReLU()]
        layers += [nn.Linear(8, 3), nn.Softmax(dim=-1)]
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)


class LogitsMLP(nn.Module):
    def __init__(self, probabilities):
        super().__init__()
        layers = [nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)]
        if probabilities:
            layers.append(nn.Softmax(dim=1))
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)


class HeadAfterSoftmax(nn.Module):
    def __init__(self):
        super().__init__()
        layers = [nn.Linear(4, 8)]
        layers.append(nn.Softmax(dim=1))
        layers.append(nn.Linear(8, 3))
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)


def train(loader, optimizer):
    mlp, ext, logits, head = SoftmaxMLP([784, 32]), ExtendedMLP(), LogitsMLP(False), HeadAfterSoftmax()
    for x, y in loader:
        loss = F.cross_entropy(mlp(x), y)  # want: TL504 "softmax"
        loss = loss + F.cross_entropy(ext(x), y)  # want: TL504 "softmax"
        loss = loss + F.cross_entropy(logits(x), y)  # ok: the softmax is appended under an if
        loss = loss + F.cross_entropy(head(x), y)  # ok: a linear layer comes last
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
