"""TL103: a model whose object keeps a graph built once, at construction:
every step's backward runs through it again, so the graph is retained."""
import torch
import torch.nn as nn
import torch.nn.functional as F


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


class Recurrent(nn.Module):
    """Keeps its LSTM state between calls without detaching it: each
    call's graph runs into the previous call's."""

    def __init__(self, n_in, n_out, batch):
        super().__init__()
        self.rnn = nn.LSTM(n_in, 32, batch_first=True)
        self.head = nn.Linear(32, n_out)
        self.h = torch.zeros(1, batch, 32)
        self.c = torch.zeros(1, batch, 32)

    def forward(self, x):
        out, (self.h, self.c) = self.rnn(x.unsqueeze(1), (self.h, self.c))
        return self.head(out.squeeze(1))


class TruncatedRecurrent(Recurrent):
    """Detaches its state on every call: no graph outlives the call."""

    def forward(self, x):
        self.h, self.c = self.h.detach(), self.c.detach()
        out, (self.h, self.c) = self.rnn(x.unsqueeze(1), (self.h, self.c))
        return self.head(out.squeeze(1))


def train_recurrent(loader, batch):
    net = Recurrent(4, 2, batch)
    opt = torch.optim.Adam(net.parameters())
    for x, y in loader:
        loss = F.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward(retain_graph=True)  # ok: the next step's backward runs through this step's graph, kept in net.h and net.c
        opt.step()


def train_truncated(loader, batch):
    net = TruncatedRecurrent(4, 2, batch)
    opt = torch.optim.Adam(net.parameters())
    for x, y in loader:
        loss = F.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward(retain_graph=True)  # want: TL103 "is the last backward through this step's graph"
        opt.step()
