"""A model that trains itself: `self(x)` and `self.__call__(x)` run the
class's forward, or its own __call__ where it defines one."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfTrainingClassifier(nn.Module):
    def __init__(self, n_in=32, n_classes=10):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, n_classes))
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return F.softmax(self.body(x), dim=-1)

    def fit(self, loader, optimizer, epochs=1):
        for _ in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                probs = self(x)
                loss = self.criterion(probs, y)  # want: TL504 "`probs` is the output of a softmax \(`F.softmax\(self.body\(x\), dim=-1\)`, TL504_self_call.py:15\)"
                loss.backward()
                optimizer.step()

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.__call__(x), y)  # want: TL504 "`self.__call__\(x\)` is the output of a softmax"

    def predict(self, x):
        with torch.no_grad():
            return self(x).argmax(dim=-1)  # ok: probabilities for a prediction, no loss


class TemperatureHead(SelfTrainingClassifier):
    """A subclass runs the forward it inherits."""

    def distill_step(self, x, y):
        return F.cross_entropy(self(x), y)  # want: TL504 "output of a softmax"


class GatedClassifier(nn.Module):
    def __init__(self, n_in=32, n_classes=10):
        super().__init__()
        self.fc = nn.Linear(n_in, n_classes)

    def forward(self, x, return_probs=False):
        logits = self.fc(x)
        if return_probs:
            logits = F.softmax(logits, dim=-1)
        return logits

    def step(self, x, y):
        return F.cross_entropy(self(x), y)  # ok: the softmax is behind a flag this call leaves off


class CalibratedClassifier(nn.Module):
    """__call__ is overridden to return logits divided by a temperature."""

    def __init__(self, n_in=32, n_classes=10):
        super().__init__()
        self.fc = nn.Linear(n_in, n_classes)
        self.temperature = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return F.softmax(self.fc(x), dim=-1)

    def __call__(self, x):
        return self.fc(x) / self.temperature

    def calibration_loss(self, x, y):
        return F.cross_entropy(self(x), y)  # ok: this class's __call__ returns scaled logits, not its forward


class Scorer:
    """Not a module: calling it runs nothing it does not define."""

    def __init__(self):
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        return F.softmax(self.fc(x), dim=-1)

    def __call__(self, x):
        return self.fc(x)

    def loss(self, x, y):
        return F.cross_entropy(self(x), y)  # ok: __call__ returns the logits
