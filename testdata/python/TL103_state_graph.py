"""TL103: a model whose object keeps a graph built once, at construction:
every step's backward runs through it again, so the graph is retained."""
import torch
import torch.nn as nn


class SoftMasked(nn.Module):
    def __init__(self, embedding, mask_id):
        super().__init__()
        self.embedding = embedding
        self.linear = nn.Linear(8, 8)
        self.mask_e = self.embedding(torch.tensor([[mask_id]]))

    def forward(self, ids, p):
        e = self.embedding(ids)
        return self.linear(p * self.mask_e + (1 - p) * e)


class Plain(nn.Module):
    def __init__(self, embedding):
        super().__init__()
        self.embedding = embedding
        self.linear = nn.Linear(8, 8)
        with torch.no_grad():
            self.mask_e = self.embedding(torch.tensor([[0]]))

    def forward(self, ids, p):
        return self.linear(p * self.mask_e + (1 - p) * self.embedding(ids))


class Trainer:
    def __init__(self, embedding, path=None):
        self.model = SoftMasked(embedding, 3)
        self.plain = Plain(embedding)
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def load(self, path):
        self.model = torch.load(path)

    def train(self, loader):
        for ids, p, y in loader:
            loss = ((self.model(ids, p) - y) ** 2).mean()
            self.optimizer.zero_grad()
            loss.backward(retain_graph=True)  # ok: the next step runs through the graph self.mask_e keeps
            self.optimizer.step()

    def train_plain(self, loader):
        # Built under no_grad, the kept tensor has no graph to share.
        for ids, p, y in loader:
            loss = ((self.plain(ids, p) - y) ** 2).mean()
            self.optimizer.zero_grad()
            loss.backward(retain_graph=True)  # want: TL103 "is the last backward through this step's graph"
            self.optimizer.step()
