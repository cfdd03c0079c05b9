"""What the training-step programs (TL502 to TL506) share: a synthetic
image task made from a fixed seed, a small CNN, the held-out evaluation,
and the repetition over seeds.

The task: 10 classes of 32x32 colour images. Each class has a smooth
random template; an image is its class's template, scaled and shifted by
up to 4 pixels, plus a weaker template of another class and Gaussian
noise. 20% of the training labels are replaced by random ones, as real
labels are noisy; the held-out labels are clean. The task is made on the
CPU from seed 0, the same in every run; each repetition seeds the
weights and the batch order with its own seed (0, 1, 2, ...).

Each variant trains a fresh model in every repetition and records the
training loss of every step, the held-out accuracy and loss after every
epoch, and the final figures: their median, minimum, maximum and
standard deviation over the repetitions.
"""
import math
import os
import statistics

import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = 10
SIZE = 32
SHIFT = 4
TRAIN = 5000
TEST = 5000
DEVICE = os.environ.get("EVIDENCE_DEVICE", "cuda")  # "cpu" to try a program without a GPU
LABEL_NOISE = 0.2
BASE = 8  # the templates' resolution before upsampling
MIX = 0.8  # the largest weight of the other class's template
NOISE = 2.0  # the noise's standard deviation (a template's is 1)
LOG_EVERY = 10  # steps per point of the training-loss curve


def make_images(gen, templates, labels):
    """Images of the given labels: shifted, scaled templates, a weaker
    template of another class, and noise."""
    n = len(labels)
    other = (labels + torch.randint(1, CLASSES, (n,), generator=gen)) % CLASSES
    scale = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=gen)
    mix = MIX * torch.rand(n, 1, 1, 1, generator=gen)
    big = scale * templates[labels] + mix * templates[other]
    dx = torch.randint(0, 2 * SHIFT + 1, (n,), generator=gen)
    dy = torch.randint(0, 2 * SHIFT + 1, (n,), generator=gen)
    images = torch.empty(n, 3, SIZE, SIZE)
    for i in range(2 * SHIFT + 1):
        for j in range(2 * SHIFT + 1):
            sel = (dx == i) & (dy == j)
            images[sel] = big[sel, :, i:i + SIZE, j:j + SIZE]
    return images + NOISE * torch.randn(n, 3, SIZE, SIZE, generator=gen)


def make_task(train=TRAIN, test=TEST, seed=0):
    """(x_train, y_train, x_test, y_test) on the CPU."""
    gen = torch.Generator().manual_seed(seed)
    low = torch.randn(CLASSES, 3, BASE, BASE, generator=gen)
    templates = F.interpolate(low, size=SIZE + 2 * SHIFT, mode="bicubic", align_corners=False)
    templates = templates / templates.flatten(1).std(1).view(-1, 1, 1, 1)
    y_train = torch.randint(0, CLASSES, (train,), generator=gen)
    x_train = make_images(gen, templates, y_train)
    noisy = torch.rand(train, generator=gen) < LABEL_NOISE
    y_train = torch.where(noisy, torch.randint(0, CLASSES, (train,), generator=gen), y_train)
    y_test = torch.randint(0, CLASSES, (test,), generator=gen)
    x_test = make_images(gen, templates, y_test)
    return x_train, y_train, x_test, y_test


class CNN(nn.Module):
    """Four 3x3 convolutions with batch norm, two max-pools, and a
    two-layer head with dropout: a CIFAR tutorial's network. plain=True
    leaves out the batch norm and the dropout."""

    def __init__(self, plain=False, classes=CLASSES):
        super().__init__()

        def block(cin, cout):
            return [nn.Conv2d(cin, cout, 3, padding=1)] + ([] if plain else [nn.BatchNorm2d(cout)]) + [nn.ReLU()]

        drop = [] if plain else [nn.Dropout(0.5)]
        self.body = nn.Sequential(*block(3, 32), *block(32, 32), nn.MaxPool2d(2),
                                  *block(32, 64), *block(64, 64), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), *drop, nn.Linear(64 * 8 * 8, 128), nn.ReLU(), *drop,
                                  nn.Linear(128, classes))

    def forward(self, x):
        return self.head(self.body(x))


class Data:
    """The task on the GPU (and, for a DataLoader, on the CPU), and a
    repetition's seed: batches(epoch, size) yields the training set in
    a new random order each epoch."""

    def __init__(self, task, seed, device):
        x_train, y_train, x_test, y_test = task
        self.train_set = torch.utils.data.TensorDataset(x_train, y_train)
        self.x_train, self.y_train = x_train.to(device), y_train.to(device)
        self.x_test, self.y_test = x_test.to(device), y_test.to(device)
        self.seed, self.device = seed, device

    def batches(self, epoch, size):
        gen = torch.Generator().manual_seed(1000 * self.seed + epoch)
        order = torch.randperm(len(self.y_train), generator=gen).to(self.device)
        for i in range(0, len(order) - size + 1, size):
            idx = order[i:i + size]
            yield self.x_train[idx], self.y_train[idx]


def evaluate(model, data, batch=1000):
    """Held-out accuracy (%) and mean cross-entropy of the model's
    logits; restores the mode it found."""
    was_training = model.training
    model.eval()
    correct, loss = 0.0, 0.0
    with torch.no_grad():
        for i in range(0, len(data.y_test), batch):
            logits = model(data.x_test[i:i + batch]).float()
            y = data.y_test[i:i + batch]
            correct += (logits.argmax(1) == y).sum()
            loss += F.cross_entropy(logits, y, reduction="sum")
    model.train(was_training)
    n = len(data.y_test)
    return float(100 * correct / n), float(loss / n)


class Log:
    """Per-step training losses, kept on the GPU and read once an epoch,
    and held-out figures after each epoch."""

    def __init__(self, data):
        self.data = data
        self.pending, self.losses, self.test_acc, self.test_loss = [], [], [], []

    def step(self, loss):
        self.pending.append(loss.detach().float())

    def epoch(self, model):
        if self.pending:
            self.losses += torch.stack(self.pending).tolist()
            self.pending = []
        acc, loss = evaluate(model, self.data)
        self.test_acc.append(acc)
        self.test_loss.append(loss)


def finite(v):
    return v if v is not None and math.isfinite(v) else None


def spread(values):
    """Median, minimum, maximum and standard deviation of the finite values."""
    values = [v for v in values if finite(v) is not None]
    if not values:
        return {"median": None, "min": None, "max": None, "std": None}
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "std": statistics.stdev(values) if len(values) > 1 else 0.0}


def windows(losses, every=LOG_EVERY):
    """Mean loss over each run of `every` steps (None where not finite)."""
    out = []
    for i in range(0, len(losses) - every + 1, every):
        chunk = losses[i:i + every]
        out.append(finite(sum(chunk) / every) if all(math.isfinite(v) for v in chunk) else None)
    return out


def curve(runs):
    """Median, minimum and maximum at each point over the repetitions'
    curves; None where no repetition has a finite value."""
    n = min(len(r) for r in runs)
    med, lo, hi = [], [], []
    for i in range(n):
        s = spread([r[i] for r in runs])
        med.append(s["median"])
        lo.append(s["min"])
        hi.append(s["max"])
    return med, lo, hi


def repeat(variant, args, make_optimizer, epochs, plain=False, device=DEVICE):
    """Trains a fresh model with variant(model, optimizer, data, epochs,
    log) once per seed (args.repeat seeds) and returns the figures over
    the seeds and their median curves. args.epochs, where given,
    replaces the program's number of epochs (for a quick test)."""
    epochs = args.epochs or epochs
    torch.set_num_threads(4)  # runs in parallel with others: the CPU only makes the task and batches
    task = make_task()
    runs = []
    for seed in range(args.repeat):
        torch.manual_seed(seed)
        model = CNN(plain=plain).to(device)
        optimizer = make_optimizer(model)
        data = Data(task, seed, device)
        log = Log(data)
        variant(model, optimizer, data, epochs, log)
        runs.append(log)
    per_epoch_losses = [[finite(sum(l.losses[i:i + len(l.losses) // epochs]) / (len(l.losses) // epochs))
                         for i in range(0, len(l.losses) // epochs * epochs, len(l.losses) // epochs)] for l in runs]
    figures = {
        "test_acc": spread([r.test_acc[-1] for r in runs]),
        "test_loss": spread([r.test_loss[-1] for r in runs]),
        "best_test_acc": spread([max(r.test_acc) for r in runs]),
        "first_epoch_test_acc": spread([r.test_acc[0] for r in runs]),
        "train_loss": spread([p[-1] for p in per_epoch_losses]),
        "diverged": sum(any(not math.isfinite(v) for v in r.losses) for r in runs),
        "seeds": len(runs),
        "epochs": epochs,
        "steps_per_epoch": len(runs[0].losses) // epochs,
    }
    trace = {}
    for key, series in (("test_acc", [r.test_acc for r in runs]), ("test_loss", [r.test_loss for r in runs]),
                        ("train_loss", [windows(r.losses) for r in runs])):
        trace[key], trace[key + "_min"], trace[key + "_max"] = curve(series)
    return {"figures": figures, "trace": trace, "repeats": args.repeat}
