"""TL103: `backward(retain_graph=True)` as the last backward of a training step.

    python3 evidence/tl103_retain_graph.py bad_retain --model cnn --steps 300
"""

from common import cli, train_variant


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


if __name__ == "__main__":
    cli(train_variant)
