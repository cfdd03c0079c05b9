# A sum followed, on every path, by a statement that leaves its loop runs
# once: nothing is carried to a later iteration.
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.step = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.postnet = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())

    def forward(self, h):
        return self.out(h)

    def inference(self, h, steps):
        outs = []
        x = torch.zeros_like(h)
        while True:
            h = self.step(x, h)
            x = self.out(h)
            outs += [x]
            if len(outs) >= steps:
                outs = torch.stack(outs, 1)
                if self.postnet is not None:
                    outs = outs + self.postnet(outs)  # ok: once, just before the break that ends the decode
                break
        return outs

    def evaluate_first(self, h, limit):
        score = torch.zeros(())
        for i in range(limit):
            h = self.step(h, h)
            if h.norm() > 10:
                score = score + self.out(h).sum()  # ok: once, the return follows
                return score
        return score


def train(model, loader, optimizer, crit):
    running = 0.0
    for x, y in loader:
        loss = crit(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss  # want: TL101 "after its backward"
        if running > 1e6:
            break  # only sometimes: the sum is carried to the next batch
    return running


def probe(model, loaders, crit):
    # One batch of each loader: the break leaves the inner loop, but the
    # outer loop sums the batches of every loader.
    total = 0.0
    for loader in loaders:
        for x, y in loader:
            total += crit(model(x), y)  # want: TL101 "no backward"
            break
    return total
