"""How sure a TL101 finding is."""
import torch
import torch.nn.functional as F


def train(model, loader, opt):
    # It back-propagates itself: grad is on, whoever calls it.
    total = 0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss  # want: TL101(high)
    return float(total)


def score(model, loader):
    # No code calls it: its caller may disable grad.
    total = 0
    for x, y in loader:
        total += F.cross_entropy(model(x), y)  # want: TL101(medium)
    return total.item()


def score_called(model, loader):
    total = 0
    for x, y in loader:
        total += F.cross_entropy(model(x), y)  # want: TL101(high)
    return total.item()


def tally(net, loader):
    # `net` is a model by its name alone, and no code calls `tally`.
    total = 0
    for x in loader:
        total += net(x).sum()  # want: TL101(low)
    return total


def tally_quiet(net, loader):
    total = 0
    for x in loader:
        with torch.no_grad():
            total += net(x).sum()  # ok: grad disabled, whoever calls it
    return total


print(score_called(None, []))


class Seq2Seq(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.out = torch.nn.Linear(8, 8)

    def forward(self, x):
        return self.out(x), self.out(x).softmax(-1)

    def batch_loss(self, probs, target):
        return F.nll_loss(probs.log(), target)


class CycleTrainer:
    def __init__(self, model, criterion):
        self.model = model  # a holder of generators of no class the file shows
        self.criterion = criterion

    def train(self, train_iter, optimizer):
        for real_a, real_b in train_iter:
            fake_b, probs = self.model.g_a(real_a)
            optimizer.zero_grad()
            self.model.g_a.batch_loss(probs, real_b).backward()
            optimizer.step()

    def evaluate(self, val_iter):
        self.model.g_a.eval()
        total, probs_total = 0, 0
        for real_a, real_b in val_iter:
            fake_b, probs = self.model.g_a(real_a)  # want: TL201
            total += self.model.g_a.batch_loss(probs, real_b)  # want: TL101(low) "accumulates a tensor"
            probs_total += probs.sum()  # want: TL101(medium)
        return total, probs_total


def evaluate_cycle(trainer, val_iter):
    return trainer.evaluate(val_iter)
