"""TL103: `backward(retain_graph=True)` as the last backward of a training step.

    python3 evidence/tl103_retain_graph.py bad_retain --model cnn --steps 300
"""
import torch
import torch.nn as nn

from common import Probe, cli, small_model, synthetic_batches


def bad_retain(model, criterion, optimizer, loader, probe):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_graph=True)  # evidence: TL103
        optimizer.step()
        probe(step)


def fixed_retain(model, criterion, optimizer, loader, probe):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        probe(step)


def run(variant, args):
    model = small_model(args.model)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    probe = Probe()
    probe.start()
    variant(model, criterion, optimizer, synthetic_batches(args.model, args.steps), probe)
    return probe.result()


if __name__ == "__main__":
    cli(run)
