"""A function whose grad mode only calls from functions that nothing
calls leave enabled: each of those callers' mode is an assumption, and
so is the function's."""
import torch
import torch.nn as nn


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 4)
        self.dec = nn.Linear(4, 2)

    def forward(self, x):
        return self.dec(self.enc(x))

    def sample(self, x):
        z = self.enc(x)  # want: TL201(medium)
        logits = self.dec(z)
        xp = torch.distributions.Bernoulli(logits=logits).sample()
        return {"xp": xp}

    def sample_chain(self, x, steps=10):
        # No code calls it: grad is on here only if its caller leaves it on.
        outs = []
        for _ in range(steps):
            outs.append(self.sample(x)["xp"])
        return outs

    @torch.no_grad()
    def sample_grid(self, x):
        return self.sample(x)["xp"]


class Painter(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 4)
        self.dec = nn.Linear(4, 2)

    def forward(self, x):
        return self.dec(self.enc(x))

    def paint(self, x):
        z = self.enc(x)  # want: TL201(high)
        logits = self.dec(z)
        return torch.distributions.Bernoulli(logits=logits).sample()

    def paint_chain(self, x, steps=10):
        # Nothing calls it either, but `gallery` below runs `paint` with
        # grad enabled: that call alone shows its mode.
        return [self.paint(x) for _ in range(steps)]


def gallery(batches):
    painter = Painter()
    return [painter.paint(b) for b in batches]


if __name__ == "__main__":
    gallery([torch.randn(2, 4)])
    with torch.no_grad():
        Sampler().sample_grid(torch.randn(2, 4))


class Trainer:
    def __init__(self, net, loader):
        self.net, self.loader = net, loader
        self.opt = torch.optim.SGD(net.parameters(), lr=0.1)

    def train_epoch(self):
        self.net.train()
        for x, y in self.loader:
            self.opt.zero_grad()
            nn.functional.mse_loss(self.net(x), y).backward()
            self.opt.step()

    def test(self):
        self.net.eval()
        return [self.net(x).argmax(1).tolist() for x, _ in self.loader]  # want: TL201(high)


def train(argv):
    # Nothing calls it, but it trains through `train_epoch`: grad is on.
    trainer = Trainer(nn.Linear(4, 2), argv)
    for _ in range(3):
        trainer.train_epoch()
    trainer.test()
    scores = [trainer.net(x).sum().item() for x, _ in argv]  # want: TL201(medium)
    return scores
