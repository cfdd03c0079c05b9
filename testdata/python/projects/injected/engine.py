"""Training code for the models of models.py, which it is handed."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from models import Backbone, LogitClassifier, ProbClassifier, run


def fit(model, loader, optimizer, criterion):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)  # want: TL504 "`model\(x\)` is the output of a softmax \(`F.softmax\(self.fc\(x\), dim=-1\)`, models.py:12\)"
        loss.backward()
        optimizer.step()


class FineTuner(Backbone):
    """Inherits its forward from models.py, and calls itself."""

    def step(self, x, y, optimizer):
        optimizer.zero_grad()
        loss = F.cross_entropy(self(x), y)  # want: TL504 "`self\(x\)` is the output of a softmax \(`self.softmax\(self.head\(x\)\)`, models.py:31\)"
        loss.backward()
        optimizer.step()


def logit_loss(x, y):
    return F.cross_entropy(run(LogitClassifier(), x), y)  # ok: run returns what it is given, here logits


def main(loader):
    net = ProbClassifier()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    fit(net, loader, optimizer, nn.CrossEntropyLoss())
