"""TL201: a module's own method that runs its forward and returns a loss
of the outputs hands the graph back: where a caller only reads the loss
on the host, with grad enabled, the pass is reported at that call; where
a caller back-propagates it, or runs it under no_grad, nothing is."""
import torch
from torch import nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)

    def batch_nll(self, inp, target):
        loss_fn = nn.NLLLoss()
        out = self.forward(inp)
        return loss_fn(out, target)

    def batch_error(self, inp, target):
        return nn.functional.mse_loss(self(inp), target)


def oracle_nll(oracle, batches):
    total = 0
    for inp, target in batches:
        loss = oracle.batch_nll(inp, target)  # want: TL201(high) "through `Generator.batch_nll`"
        total += loss.item()
    return total


def oracle_error(oracle, batches):
    return sum(oracle.batch_error(x, y).item() for x, y in batches)  # want: TL201(high) "through `Generator.batch_error`"


@torch.no_grad()
def oracle_nll_quietly(oracle, batches):
    total = 0
    for inp, target in batches:
        total += oracle.batch_nll(inp, target).item()  # ok: under the decorator's no_grad
    return total


def train(gen, opt, batches):
    for inp, target in batches:
        opt.zero_grad()
        loss = gen.batch_nll(inp, target)  # ok: back-propagated
        loss.backward()
        opt.step()


def train_error(gen, opt, batches):
    for inp, target in batches:
        opt.zero_grad()
        gen.batch_error(inp, target).backward()  # ok: back-propagated
        opt.step()


if __name__ == "__main__":
    gen = Generator()
    oracle = Generator()
    opt = torch.optim.Adam(gen.parameters())
    data = [(torch.randn(2, 4), torch.tensor([0, 1]))]
    for epoch in range(3):
        train(gen, opt, data)
        train_error(gen, opt, data)
        print(oracle_nll(oracle, data), oracle_error(oracle, data), oracle_nll_quietly(oracle, data))
