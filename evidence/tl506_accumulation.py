"""TL506: gradient accumulation over 4 micro-batches whose loss is not
divided by 4, against the same loop dividing it.

The CNN of training.py trained on its synthetic task, 15 epochs in
micro-batches of 16, the optimizer stepping every 4 (64 samples a step,
as the other training-step programs), with SGD (`--model sgd`: learning
rate 0.01, momentum 0.9, weight decay 5e-4), the same SGD at a quarter
of that learning rate (`--model sgd_low_lr`: 0.0025, so that the
undivided loss gives 0.01), Adam (`--model adam`: learning rate 1e-3), or
SGD or Adam with `clip_grad_norm_(..., 1.0)` before the step
(`sgd_clip`, `adam_clip`). The training loss is that of each
micro-batch, undivided in both variants. --repeat seeds, each a fresh
model and batch order.

    python3 evidence/tl506_accumulation.py bad_unscaled --model sgd --repeat 5
"""
import torch
import torch.nn.functional as F

from common import cli
from training import repeat

EPOCHS = 15
MICRO_BATCH = 16
ACCUM = 4
OPTIMIZERS = {
    "sgd": lambda model: torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4),
    "sgd_low_lr": lambda model: torch.optim.SGD(model.parameters(), lr=0.0025, momentum=0.9, weight_decay=5e-4),
    "adam": lambda model: torch.optim.Adam(model.parameters(), lr=1e-3),
}
OPTIMIZERS["sgd_clip"], OPTIMIZERS["adam_clip"] = OPTIMIZERS["sgd"], OPTIMIZERS["adam"]
MAX_NORM = 1.0


def bad_unscaled(model, optimizer, data, epochs, log, clip=False):
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        for i, (x, y) in enumerate(data.batches(epoch, MICRO_BATCH)):
            loss = F.cross_entropy(model(x), y)
            log.step(loss)
            loss.backward()
            if (i + 1) % ACCUM == 0:
                if clip:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
                optimizer.step()  # evidence: TL506
                optimizer.zero_grad()
        log.epoch(model)


def fixed_scaled(model, optimizer, data, epochs, log, clip=False):
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        for i, (x, y) in enumerate(data.batches(epoch, MICRO_BATCH)):
            loss = F.cross_entropy(model(x), y)
            log.step(loss)
            loss = loss / ACCUM
            loss.backward()
            if (i + 1) % ACCUM == 0:
                if clip:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
                optimizer.step()
                optimizer.zero_grad()
        log.epoch(model)


def run(variant, args):
    clip = args.model.endswith("_clip")

    def train(model, optimizer, data, epochs, log):
        variant(model, optimizer, data, epochs, log, clip=clip)

    return repeat(train, args, OPTIMIZERS[args.model], EPOCHS)


if __name__ == "__main__":
    cli(run)
