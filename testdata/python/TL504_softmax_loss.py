"""Probabilities fed to losses that expect logits, against the pairings
that are right: logits to cross_entropy, log_softmax to nll_loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return F.softmax(self.fc(x), dim=1)


class LogitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 10), nn.Softmax(dim=1))
        self.head = nn.Linear(16, 10)
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return self.head(x)

    def loss(self, x, y):
        return self.criterion(self.body(x), y)  # want: TL504 "`self.body\(x\)` is the output of a softmax"


def train(x, y):
    model = Classifier()
    loss = F.cross_entropy(model(x), y)  # want: TL504 "softmax \(`F.softmax\(self.fc\(x\), dim=1\)`, TL504_softmax_loss.py:14\)"
    loss.backward()


def train_probs(model, x, y):
    criterion = nn.CrossEntropyLoss()
    logits = model(x)
    probs = torch.softmax(logits, dim=-1)
    return criterion(probs.view(-1, 10), y)  # want: TL504 "`probs.view\(-1, 10\)` is the output of a softmax \(`torch.softmax\(logits, dim=-1\)`, line 40\)"


def train_binary(model, x, y):
    pred = torch.sigmoid(model(x))
    return F.binary_cross_entropy_with_logits(pred, y)  # want: TL504 "applies one itself"


def train_nll_probs(model, x, y):
    return F.nll_loss(F.softmax(model(x), dim=1), y)  # want: TL504 "`nll_loss` expects log-probabilities"


def train_log_softmax_twice(model, x, y):
    return F.cross_entropy(model(x).log_softmax(-1), y)  # want: TL504 "the loss is the same, but computed twice"


def train_logits(model, x, y):
    logits = model(x)
    loss = F.cross_entropy(logits, y)  # ok: logits
    probs = F.softmax(logits, dim=1)  # ok: probabilities for metrics, not for the loss
    return loss, probs.argmax(1)


def train_nll(model, x, y):
    return F.nll_loss(F.log_softmax(model(x), dim=1), y)  # ok: log-probabilities are what nll_loss expects


def train_bce(model, x, y):
    return F.binary_cross_entropy(torch.sigmoid(model(x)), y)  # ok: binary_cross_entropy expects probabilities


def train_bce_logits(model, x, y):
    return nn.BCEWithLogitsLoss()(model(x), y)  # ok: logits


def train_reassigned(model, x, y):
    out = F.softmax(model(x), dim=1)
    out = torch.log(out + 1e-8)
    return F.nll_loss(out, y)  # ok: the log of the probabilities


def distill(student, teacher, x, y, T):
    soft_targets = F.softmax(teacher(x) / T, dim=1)
    return F.cross_entropy(student(x) / T, soft_targets)  # ok: probabilities as the target, not the input


def train_mixed(x, y, use_probs):
    def head(z):
        if use_probs:
            return F.softmax(z, dim=1)
        return z

    return F.cross_entropy(head(x), y)  # ok: the helper returns logits on one path


def train_sequential(loader, device):
    model = nn.Sequential(nn.Linear(16, 10), nn.Softmax(dim=1)).to(device)
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        out = model(x.to(device))
        criterion(out, y).backward()  # want: TL504 "`out` is the output of a softmax"


def train_sequential_cuda(x, y):
    model = nn.Sequential(nn.Linear(16, 10), nn.Softmax(dim=1))
    model = model.cuda()
    return F.cross_entropy(model(x), y)  # want: TL504 "`model\(x\)` is the output of a softmax"


def train_sequential_logits(x, y, device):
    model = nn.Sequential(nn.Linear(16, 10), nn.ReLU(), nn.Linear(10, 10)).to(device)
    return F.cross_entropy(model(x), y)  # ok: the last layer is linear: logits


@torch.no_grad()
def predict_sequential(x, device):
    model = nn.Sequential(nn.Linear(16, 10)).to(device)
    probs = nn.Softmax(dim=1).to(device)
    return probs(model(x)).argmax(1)  # ok: probabilities for a prediction, no loss


class LogProbHead(nn.Module):
    """Modules are read by what they are bound to, not by their names."""

    def __init__(self, hidden, n):
        super().__init__()
        self.proj = nn.Linear(hidden, n)
        self.softmax = nn.LogSoftmax(dim=-1)  # log-probabilities, despite the name
        self.probs = nn.Softmax(dim=-1)
        self.criterion = nn.NLLLoss()

    def forward(self, x, tgt):
        # ok: NLLLoss on log-probabilities
        return self.criterion(self.softmax(self.proj(x)), tgt)

    def wrong(self, x, tgt):
        return self.criterion(self.probs(self.proj(x)), tgt)  # want: TL504 "expects log-probabilities"


class OwnSoftmax(nn.Module):
    def __init__(self, hidden, n):
        super().__init__()
        self.proj = nn.Linear(hidden, n)

    def softmax(self, x):
        return F.softmax(self.proj(x), dim=-1)

    def loss(self, x, y):
        return F.cross_entropy(self.softmax(x), y)  # want: TL504 "output of a softmax"


class FlaggedClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 5)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x, softmax=False):
        x = self.fc(x)
        if softmax:
            x = self.softmax(x)
        return x


class AlwaysSoftmax(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 5)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        x = self.fc(x)
        x = self.softmax(x)
        return x


def train_flagged(loader, optimizer):
    model, other = FlaggedClassifier(), AlwaysSoftmax()
    for x, y in loader:
        loss = F.cross_entropy(model(x, softmax=False), y)  # ok: the softmax is behind a flag the call leaves off
        loss = loss + F.cross_entropy(other(x), y)  # want: TL504 "output of a softmax"
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class BatchSoftmaxNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return F.log_softmax(self.fc(x), dim=0)


def train_batch_softmax(loader, optimizer):
    model = BatchSoftmaxNet()
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        loss = criterion(model(x), y)  # want: TL504 "over dim 0 .*the loss mixes the samples"
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class SoftmaxClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 10)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        return self.softmax(self.fc(x))


def validate(model: SoftmaxClassifier, loader):
    # Under no_grad the loss is only measured: the finding says the figure
    # is wrong, and claims nothing about gradients.
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += F.cross_entropy(model(x), y).item()  # want: TL504 "the loss measured here can never approach zero and is not the model's cross-entropy; pass the logits$"
            total += F.nll_loss(model(x), y).item()  # want: TL504 "so the loss measured here is not the model's"
    return total


def fit_step(model: SoftmaxClassifier, x, y):
    return F.cross_entropy(model(x), y)  # want: TL504 "gradients shrink, which slows training"


def validate_logits(model: LogitNet, loader):
    total, hits = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            probs = F.softmax(logits, dim=1)
            total += F.cross_entropy(logits, y).item()  # ok: the loss gets the logits
            hits += (probs.argmax(1) == y).sum().item()  # ok: probabilities for accuracy, no loss
    return total, hits


def predict_classes(model: SoftmaxClassifier, x):
    with torch.no_grad():
        return model(x).argmax(1)  # ok: probabilities for a prediction, no loss
