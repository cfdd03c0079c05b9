"""Training loops that run the step hooks of a base class's subclasses."""
import torch
from learner import Learner


def train_epoch(model: Learner, loader):
    for inputs, labels in loader:
        model.learn(inputs, labels)  # want: TL301(medium) "where `model` is a `FlushingLearner`: `Learner.learn` runs its `observe`, which calls it"


def train_direct(model: Learner, loader):
    for inputs, labels in loader:
        model.observe(inputs, labels)  # want: TL301(medium) "where `model` is a `FlushingLearner`, whose `observe` calls it"


def train_refreshed(model: Learner, loader):
    for inputs, labels in loader:
        model.refresh(inputs)  # ok: `Learner.refresh` has a body of its own, run unless a subclass overrides it
        model.opt.step()


def train_finished(model: Learner, loader):
    for inputs, labels in loader:
        model.finish(inputs)  # ok: the only override that flushes does so on large inputs alone
        model.opt.step()


def train_tasks(model: Learner, tasks):
    for task in tasks:
        model.learn(task.inputs, task.labels)  # ok: once per task, a loop of no steps
        print(task.name)


if __name__ == "__main__":
    train_epoch(Learner(), [(torch.randn(8, 16), torch.randint(0, 4, (8,)))])
