import torch

import generator
from generator import Generator


def oracle_nll(oracle, batches):
    total = 0
    for inp, target in batches:
        total += oracle.batch_nll(inp, target).item()  # want: TL201(high) "through `Generator.batch_nll`"
    return total


def validate(disc, val_inp, val_target):
    pred = disc.batch_classify(val_inp)  # want: TL201(medium) "through `Generator.batch_classify`"
    return ((pred > 0.5) == (val_target > 0.5)).float().mean().item()


def validate_quietly(disc, val_inp, val_target):
    with torch.no_grad():
        pred = disc.batch_classify(val_inp)  # ok: under no_grad
    return ((pred > 0.5) == (val_target > 0.5)).float().mean().item()


def train(gen, opt, batches):
    for inp, target in batches:
        opt.zero_grad()
        loss = gen.batch_nll(inp, target)  # ok: back-propagated
        loss.backward()
        opt.step()


if __name__ == "__main__":
    gen = Generator()
    oracle = generator.Generator()
    opt = torch.optim.Adam(gen.parameters())
    data = [(torch.randn(2, 4), torch.tensor([0, 1]))]
    for epoch in range(3):
        train(gen, opt, data)
        print(oracle_nll(oracle, data))
        print(validate(oracle, data[0][0], data[0][1]), validate_quietly(oracle, data[0][0], data[0][1]))
