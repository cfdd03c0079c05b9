import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.weight = nn.Parameter(torch.ones(2))

    def forward(self):
        return self.emb.weight

    def loss(self, u, i):
        out = self.forward()
        score = (out[u] * out[i]).sum(1)
        loss = -torch.mean(torch.log(torch.sigmoid(score)))
        reg = (self.emb.weight[u] ** 2).mean()
        return loss + reg, loss, reg
