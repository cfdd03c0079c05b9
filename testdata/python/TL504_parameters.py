"""A model or a loss handed in as a parameter, known by what the calls of
its function in this file pass for it (or by its annotation)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProbNet(nn.Module):
    def __init__(self, n_in=16, n_classes=4):
        super().__init__()
        self.fc = nn.Linear(n_in, n_classes)

    def forward(self, x):
        return F.softmax(self.fc(x), dim=1)


class LogitNet(nn.Module):
    def __init__(self, n_in=16, n_classes=4):
        super().__init__()
        self.fc = nn.Linear(n_in, n_classes)

    def forward(self, x):
        return self.fc(x)


class LogProbNet(nn.Module):
    def __init__(self, n_in=16, n_classes=4):
        super().__init__()
        self.fc = nn.Linear(n_in, n_classes)

    def forward(self, x):
        return F.log_softmax(self.fc(x), dim=1)


def train_epoch(model, loader, optimizer):
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)  # want: TL504 "`model\(x\)` is the output of a softmax \(`F.softmax\(self.fc\(x\), dim=1\)`, TL504_parameters.py:14\)"
        loss.backward()
        optimizer.step()


def fit(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()  # want: TL504 "log_softmax .*computed twice"
        optimizer.step()


def fit_annotated(model, loader, optimizer, criterion: nn.CrossEntropyLoss):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()  # want: TL504 "output of a softmax"
        optimizer.step()


def fit_default(model, loader, optimizer, criterion=nn.CrossEntropyLoss()):
    net = model.to("cpu")
    for x, y in loader:
        optimizer.zero_grad()
        criterion(net(x), y).backward()  # want: TL504 "output of a softmax"
        optimizer.step()


def fit_any(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()  # ok: called with a softmax model and with a logit model: no one answer
        optimizer.step()


def fit_nll(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()  # ok: NLLLoss on log-probabilities, as every call passes
        optimizer.step()


def fit_callback(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()  # ok: also handed on as a callback, called where this file cannot see
        optimizer.step()


def fit_unpacked(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()  # ok: its one call passes its arguments unpacked, unseen
        optimizer.step()


class Trainer:
    """The model and the loss given to the constructor."""

    def __init__(self, model, criterion, lr=0.1):
        self.model = model
        self.criterion = criterion
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    def step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(x), y)  # want: TL504 "`self.model\(x\)` is the output of a softmax"
        loss.backward()
        self.optimizer.step()


class Learner(nn.Module):
    """The loss given by a setter, after construction."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 4), nn.Softmax(dim=1))

    def forward(self, x):
        return self.net(x)

    def use_loss(self, loss_fn):
        self.loss_fn = loss_fn

    def step(self, x, y):
        return self.loss_fn(self.forward(x), y)  # want: TL504 "`self.forward\(x\)` is the output of a softmax"


class UnusedSetter(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 4), nn.Softmax(dim=1))

    def forward(self, x):
        return self.net(x)

    def use_loss(self, loss_fn):
        self.loss_fn = loss_fn

    def step(self, x, y):
        return self.loss_fn(self.forward(x), y)  # ok: no call of use_loss in the file says which loss it is


def main(loader, use_logits):
    prob_net, logit_net, log_prob_net = ProbNet(), LogitNet(), LogProbNet()
    opt = torch.optim.SGD(prob_net.parameters(), lr=0.1)
    train_epoch(prob_net, loader, opt)
    fit(log_prob_net, loader, opt, nn.CrossEntropyLoss())
    fit_annotated(ProbNet().cuda(), loader, opt, nn.CrossEntropyLoss())
    fit_default(model=prob_net, loader=loader, optimizer=opt)
    fit_any(prob_net, loader, opt, nn.CrossEntropyLoss())
    fit_any(logit_net, loader, opt, nn.CrossEntropyLoss())
    fit_nll(log_prob_net, loader, opt, nn.NLLLoss())
    torch.multiprocessing.spawn(fit_callback, args=(loader, opt, nn.CrossEntropyLoss()))
    fit_callback(prob_net, loader, opt, nn.CrossEntropyLoss())
    args = (prob_net, loader, opt, nn.CrossEntropyLoss())
    fit_unpacked(*args)
    Trainer(ProbNet(), nn.CrossEntropyLoss()).step(*next(iter(loader)))
    learner = Learner()
    learner.use_loss(nn.CrossEntropyLoss())
    UnusedSetter()
