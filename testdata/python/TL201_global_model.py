"""TL201: an evaluation that switches the module's model to evaluation mode, then runs it through a function of the module that uses it by its global name."""
import torch
import torch.nn as nn

from scoring import post


class Ranker(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 1)

    def emit_one(self, x):
        return self.lin(torch.FloatTensor(x)).sigmoid()

    def forward(self, x, y):
        return ((self.emit_one(x) - y) ** 2).mean()


def retrieve(docs):
    res = []
    for d in docs:
        res.append(post(model.emit_one(d)))
    return res


def own_model(docs):
    model = Ranker()
    return [post(model.emit_one(d)) for d in docs]


def use_frozen(docs):
    return [post(frozen.emit_one(d)) for d in docs]


def get_one_map(data):
    model.eval()
    out = []
    for q in data:
        out.append(retrieve(q))  # want: TL201 "after `model.eval\(\)`, through `retrieve`"
    return len(out)


def get_own(data):
    model.eval()
    return len([own_model(q) for q in data])  # ok: TL201 the function runs a model of its own, not the one switched


def score_frozen(data):
    frozen.eval()
    return len([use_frozen(q) for q in data])  # ok: TL201 the module freezes that model


def train_one(data, opt):
    model.train()
    for x, y in data:
        loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()


frozen = Ranker()
for p in frozen.parameters():
    p.requires_grad = False

for run in range(3):
    model = Ranker()
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(10):
        train_one(torch.load("train.pt"), optimizer)
        print(get_one_map(torch.load("dev.pt")), get_own(torch.load("dev.pt")), score_frozen(torch.load("dev.pt")))
