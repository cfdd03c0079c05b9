"""TL503: a loop that builds its model afresh at the top of each iteration
(a grid search) trains a new module, in training mode, each time: the
switch to evaluation mode at the end of one iteration reaches a model no
later step trains. A model built once, or only moved, read from an
attribute or wrapped at the top of each iteration, is trained in
evaluation mode by the later iterations."""
import copy

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.2), nn.Linear(8, 2))

    def forward(self, x):
        return self.body(x)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    return sum((model(x).argmax(1) == y).sum().item() for x, y in loader)


def train(model, optimizer, loader, epochs):
    for _ in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()


def grid_search(grid, loader, val_loader):
    best = None
    for params in grid:
        model = Net()
        optimizer = torch.optim.Adam(model.parameters(), lr=params["lr"])
        train(model, optimizer, loader, 3)
        score = evaluate(model, val_loader)  # ok: the next iteration builds a new model
        if best is None or score > best[0]:
            best = (score, model)
    return best


def grid_search_one_model(grid, loader, val_loader):
    model = Net()
    for params in grid:
        optimizer = torch.optim.Adam(model.parameters(), lr=params["lr"])
        train(model, optimizer, loader, 3)
        evaluate(model, val_loader)  # want: TL503 "switches `model` to evaluation mode"


def grid_search_moved(grid, loader, val_loader, device):
    model = Net()
    for params in grid:
        model = model.to(device)
        optimizer = torch.optim.Adam(model.parameters(), lr=params["lr"])
        train(model, optimizer, loader, 3)
        evaluate(model, val_loader)  # want: TL503 "switches `model` to evaluation mode"


class Trainer:
    def __init__(self, loader, val_loader):
        self.model = Net()
        self.loader, self.val_loader = loader, val_loader

    def fit(self, epochs):
        for _ in range(epochs):
            model = self.model
            optimizer = torch.optim.Adam(model.parameters())
            train(model, optimizer, self.loader, 1)
            evaluate(model, self.val_loader)  # want: TL503 "switches `model` to evaluation mode"


def fit_parallel(net, loader, val_loader, epochs):
    for _ in range(epochs):
        model = nn.DataParallel(net)
        optimizer = torch.optim.Adam(model.parameters())
        train(model, optimizer, loader, 1)
        evaluate(model, val_loader)  # want: TL503 "switches `model` to evaluation mode"


def grid_search_copies(base, grid, loader, val_loader):
    for params in grid:
        model = copy.deepcopy(base).to("cpu")
        optimizer = torch.optim.Adam(model.parameters(), lr=params["lr"])
        train(model, optimizer, loader, 3)
        evaluate(model, val_loader)  # ok: a new copy each iteration


class KFold:
    def __init__(self, model_cls, folds):
        self.model_cls, self.folds = model_cls, folds

    def build_model(self):
        return Net()

    def run(self, val_loader):
        for loader in self.folds:
            model = self.build_model()
            optimizer = torch.optim.Adam(model.parameters())
            train(model, optimizer, loader, 3)
            evaluate(model, val_loader)  # ok: a new model each fold
        for loader in self.folds:
            model = self.model_cls()
            optimizer = torch.optim.Adam(model.parameters())
            train(model, optimizer, loader, 3)
            evaluate(model, val_loader)  # ok: the same, from the class it was given


def seeds(arch, seed_list, loader, val_loader):
    for seed in seed_list:
        torch.manual_seed(seed)
        if arch == "net":
            net = Net()
        else:
            net = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.1), nn.Linear(8, 2))
        optimizer = torch.optim.Adam(net.parameters())
        for _ in range(3):
            train(net, optimizer, loader, 1)
        evaluate(net, val_loader)  # ok: the next seed builds its net again, whichever arch


def seeds_first_only(seed_list, loader, val_loader):
    for i, seed in enumerate(seed_list):
        if i == 0:
            net = Net()
        optimizer = torch.optim.Adam(net.parameters())
        train(net, optimizer, loader, 1)
        evaluate(net, val_loader)  # want: TL503 "switches `net` to evaluation mode"
