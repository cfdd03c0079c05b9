"""TL503: a model switched to evaluation mode by a validation after each
epoch and never switched back, against the same loop calling
`model.train()` at the start of every epoch.

The CNN of training.py trained on its synthetic task, 15 epochs in
batches of 64 with SGD (learning rate 0.01, momentum 0.9, weight decay
5e-4), validated after each epoch. `--model cnn` has batch norm and
dropout; `--model plain` is the same network without either, which
evaluation mode does not change. --repeat seeds, each a fresh model and
batch order.

    python3 evidence/tl503_eval_mode.py bad_left_in_eval --model cnn --repeat 5
"""
import torch
import torch.nn.functional as F

from common import cli
from training import repeat

EPOCHS = 15
BATCH = 64


def validate(model, log):
    """A validation that switches the model to evaluation mode and leaves it there."""
    model.eval()
    log.epoch(model)


def bad_left_in_eval(model, optimizer, data, epochs, log):
    model.train()
    for epoch in range(epochs):
        for x, y in data.batches(epoch, BATCH):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            log.step(loss)
        validate(model, log)  # evidence: TL503


def fixed_train_each_epoch(model, optimizer, data, epochs, log):
    for epoch in range(epochs):
        model.train()
        for x, y in data.batches(epoch, BATCH):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            log.step(loss)
        validate(model, log)


def run(variant, args):
    def sgd(model):
        return torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)

    return repeat(variant, args, sgd, EPOCHS, plain=args.model == "plain")


if __name__ == "__main__":
    cli(run)
