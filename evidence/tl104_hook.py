"""TL104: a forward hook that keeps the module's output with its graph.

Two situations, each flagged (bad_*) and fixed (fixed_*): collecting
features in an evaluation loop that leaves grad enabled (extract), and a
training loop whose hook keeps each step's features for logging (train).
The hook is on the model's body, the part before its linear head.

    python3 evidence/tl104_hook.py bad_extract --model cnn --steps 300
"""

from common import cli, train_variant

features = []
logged = []


def keep_features(module, inputs, output):
    features.append(output)  # evidence: TL104


def keep_features_detached(module, inputs, output):
    features.append(output.detach())


def log_features(module, inputs, output):
    logged.append(output)  # evidence: TL104


def log_features_detached(module, inputs, output):
    logged.append(output.detach())


def bad_extract(model, criterion, optimizer, loader, probe):
    model.body.register_forward_hook(keep_features)
    model.eval()
    for step, (x, y) in enumerate(loader):
        model(x)  # evidence: TL201
        probe(step)


def fixed_extract(model, criterion, optimizer, loader, probe):
    model.body.register_forward_hook(keep_features_detached)
    model.eval()
    for step, (x, y) in enumerate(loader):
        model(x)  # evidence: TL201
        probe(step)


def bad_train(model, criterion, optimizer, loader, probe):
    model.body.register_forward_hook(log_features)
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        probe(step)


def fixed_train(model, criterion, optimizer, loader, probe):
    model.body.register_forward_hook(log_features_detached)
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        probe(step)


if __name__ == "__main__":
    cli(train_variant)
