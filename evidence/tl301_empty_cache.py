"""TL301: `torch.cuda.empty_cache()` on every training step, never, or
once per epoch.

ResNet-18 (random weights, 10 classes) trained on random 128x128 images
in batches of 64; the first epoch is warmup, throughput is measured over
the others. --repeat runs it all again in the same process, from an
empty cache (the medians are reported).

    python3 evidence/tl301_empty_cache.py bad_every_step --steps 25
"""
import gc

import torch
import torch.nn as nn
import torchvision

from common import Probe, SyntheticLoader, cli, median_of

EPOCHS = 4


def bad_every_step(model, criterion, optimizer, loader, probe):
    step = 0
    for epoch in range(EPOCHS):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            torch.cuda.empty_cache()  # evidence: TL301
            probe(step)
            step += 1


def fixed_never(model, criterion, optimizer, loader, probe):
    step = 0
    for epoch in range(EPOCHS):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            probe(step)
            step += 1


def fixed_per_epoch(model, criterion, optimizer, loader, probe):
    step = 0
    for epoch in range(EPOCHS):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            probe(step)
            step += 1
        torch.cuda.empty_cache()


def run(variant, args):
    reps = []
    for _ in range(args.repeat):
        torch.manual_seed(0)
        model = torchvision.models.resnet18(num_classes=10).to("cuda")
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        loader = SyntheticLoader("images", args.steps, batch=64, size=128)
        probe = Probe(rss=False)
        probe.start()
        variant(model, criterion, optimizer, loader, probe)
        # The time from one probe to the next includes an empty_cache() that
        # ends an epoch, so throughput is total steps over total time.
        measured = probe.trace["ms"][args.steps:]
        reps.append({
            "epochs": EPOCHS,
            "steps_per_s": 1000 * len(measured) / sum(measured),
            "peak_reserved_mib": max(probe.trace["peak_reserved_mib"]),
            "peak_alloc_mib": max(probe.trace["peak_mib"]),
            "reserved_after_mib": probe.trace["reserved_mib"][-1],
        })
        # The next repetition starts, like a new process, from an empty cache.
        del model, optimizer, probe
        gc.collect()
        torch.cuda.empty_cache()
    return {"figures": median_of(reps), "repeats": args.repeat}


if __name__ == "__main__":
    cli(run)
