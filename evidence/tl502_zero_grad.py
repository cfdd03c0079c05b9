"""TL502: a training loop that never clears the gradients, against the
same loop with `optimizer.zero_grad()` before every backward.

The CNN of training.py (batch norm and dropout) trained on its synthetic
task, 15 epochs in batches of 64, with SGD (`--model sgd`: learning rate
0.01, momentum 0.9, weight decay 5e-4) or Adam (`--model adam`: learning
rate 1e-3); --repeat seeds, each a fresh model and batch order.

    python3 evidence/tl502_zero_grad.py bad_no_zero_grad --model sgd --repeat 5
"""
import torch
import torch.nn.functional as F

from common import cli
from training import repeat

EPOCHS = 15
BATCH = 64
OPTIMIZERS = {
    "sgd": lambda model: torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4),
    "adam": lambda model: torch.optim.Adam(model.parameters(), lr=1e-3),
}


def bad_no_zero_grad(model, optimizer, data, epochs, log):
    for epoch in range(epochs):
        model.train()
        for x, y in data.batches(epoch, BATCH):
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()  # evidence: TL502
            log.step(loss)
        log.epoch(model)


def fixed_zero_grad(model, optimizer, data, epochs, log):
    for epoch in range(epochs):
        model.train()
        for x, y in data.batches(epoch, BATCH):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            log.step(loss)
        log.epoch(model)


def run(variant, args):
    return repeat(variant, args, OPTIMIZERS[args.model], EPOCHS)


if __name__ == "__main__":
    cli(run)
