"""A training loop that runs a step hook its base class leaves to subclasses, one of which flushes the cache."""
import abc

import torch
import torch.nn as nn


class ContinualModel(nn.Module):
    def meta_observe(self, inputs, labels):
        return self.observe(inputs, labels)

    @abc.abstractmethod
    def observe(self, inputs, labels):
        ...

    def end_task(self, dataset):
        pass

    def warmup(self, inputs):
        return inputs


class Replay(ContinualModel):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(16, 4)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def observe(self, inputs, labels):
        self.opt.zero_grad()
        loss = nn.functional.cross_entropy(self.net(inputs), labels)
        loss.backward()
        torch.cuda.empty_cache()
        self.opt.step()
        return loss.item()

    def end_task(self, dataset):
        torch.cuda.empty_cache()

    def warmup(self, inputs):
        torch.cuda.empty_cache()
        return inputs


class Plain(ContinualModel):
    def observe(self, inputs, labels):
        loss = nn.functional.cross_entropy(self.net(inputs), labels)
        loss.backward()
        return loss.item()


def train(model: ContinualModel, loader, tasks):
    for task in tasks:
        for inputs, labels in loader:
            model.meta_observe(inputs, labels)  # want: TL301(medium) "where `model` is a `Replay`: `ContinualModel.meta_observe` runs its `observe`"
        model.end_task(task)  # ok: once per task, between phases


def warm(model: ContinualModel, loader):
    for inputs, labels in loader:
        model.warmup(inputs)  # ok: `ContinualModel.warmup` has a body of its own
        model.meta_observe(inputs, labels)  # want: TL301(medium) "where `model` is a `Replay`"


def train_plain(loader):
    model = Plain()
    for inputs, labels in loader:
        model.meta_observe(inputs, labels)  # ok: a `Plain`, whose `observe` does not flush
