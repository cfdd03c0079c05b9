"""Losses computed on the models of models.py."""
import torch.nn as nn
import torch.nn.functional as F

from models import LogProbNet, ProbNet, class_probabilities


def classification_loss(x, y):
    net = ProbNet()
    return F.cross_entropy(net(x), y)  # want: TL504 "softmax \(`F.softmax\(self.fc\(x\), dim=-1\)`, models.py:12\)"


def helper_loss(model, x, y):
    criterion = nn.CrossEntropyLoss()
    return criterion(class_probabilities(model, x), y)  # want: TL504 "models.py:25"


def nll(x, y):
    net = LogProbNet()
    return F.nll_loss(net(x), y)  # ok: log-probabilities, as nll_loss expects
