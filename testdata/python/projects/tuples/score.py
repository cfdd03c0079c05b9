import torch

from losses import generator_term


def score(net_d, batches):
    total = 0
    for x in batches:
        with torch.no_grad():
            d_fake = net_d(x)
        total += generator_term(d_fake)  # ok: a loss of another file given an output computed without grad
    return total


def score_with_grad(batches):
    net_d = torch.nn.Linear(8, 1)
    total = 0
    for x in batches:
        total += generator_term(net_d(x))  # want: TL101 "seen to run through"
    return total
