import torch
import torch.nn as nn


class Transfer:
    def __init__(self, kind):
        self.kind = kind

    def compute(self, a, b):
        return (a.mean(0) - b.mean(0)).pow(2).sum()


class AdaptiveNet(nn.Module):
    def __init__(self, dim=8, layers=2):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(layers))
        self.head = nn.Linear(dim, 1)

    def forward_boosting(self, x, n_src):
        dist = torch.zeros(len(self.layers))
        transfer = torch.zeros(1)
        crit = Transfer("mmd")
        for i, layer in enumerate(self.layers):
            x = torch.relu(layer(x))
            d = crit.compute(x[:n_src], x[n_src:])
            transfer = transfer + d
            dist[i] = d
        return self.head(x), transfer, dist
