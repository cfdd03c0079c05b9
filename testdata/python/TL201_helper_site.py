"""TL201: where a helper's forward pass is reported."""
import torch
from torch import nn


def logits_of(net, x):
    return net(x).softmax(-1)  # ok: a module-level helper is reported at its call


def accuracy(net, batches):
    net.eval()

    def guess(x):
        return net(x).softmax(-1)  # want: TL201 "in `guess`, which `accuracy` calls only after `net.eval\(\)`"

    hits = [(guess(x).argmax(-1) == y).float().mean().item() for x, y in batches]  # ok: reported in `guess`
    return sum(hits) / len(hits)


def mixed(net, batches, opt):
    def run(x):
        return net(x)  # ok: called by training too, reported at the evaluation's call

    for x, y in batches:
        loss = (run(x) - y).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    return [run(x).sum().item() for x, _ in batches]  # want: TL201 "through `run`, which runs `net\(x\)` \(TL201_helper_site.py:22\)"


net = nn.Linear(4, 2)
net.eval()
for x in torch.randn(3, 8, 4):
    print(logits_of(net, x).max().item())  # want: TL201 "through `logits_of`"




class Recommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(10, 4)
        self.items = nn.Embedding(10, 4)

    def forward(self, u, i):
        return (self.users(u) * self.items(i)).sum(-1)

    def prediction(self, u, i):
        scores = self.forward(u, i)
        return scores.detach()

    def embed(self, u, i):
        # Its outputs only reach the host: reported here, for every caller.
        return self.users(u).detach().cpu().numpy(), self.items(i).detach().cpu().numpy()  # want: TL201 "drops the output at once"


def fit(model, pairs, opt):
    for u, i in pairs:
        opt.zero_grad()
        model(u, i).sum().backward()
        opt.step()
        print(model.prediction(u, i), model.embed(u, i))


def test_scores(pairs):
    model = Recommender()
    model.eval()
    out = []
    for u, i in pairs:
        out.append(model.prediction(u, i))  # want: TL201 "`Recommender.prediction` returns `.detach\(\)` of what it computes, which frees them, but each pass still holds them all at its peak"
    return out


def test_embeddings(model, pairs):
    model.eval()
    return [model.embed(u, i) for u, i in pairs]  # ok: reported in `embed`
