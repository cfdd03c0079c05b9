# A model that a function of the file builds and freezes before returning
# it (itself, or on the path the call's arguments take) records no graph
# on inputs that need none; one the same function returns trainable does.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 2)

    def forward(self, x):
        return self.fc(x)


def create_frozen():
    model = Net()
    for p in model.parameters():
        p.requires_grad = False
    return model


def create_model(ema=False):
    model = Net()
    if ema:
        for p in model.parameters():
            p.detach_()
    return model


def create_early(frozen=True):
    model = Net()
    if not frozen:
        return model
    model.requires_grad_(False)
    return model


def embed_all(loader):
    teacher = create_frozen()
    teacher.eval()
    return [teacher(x).cpu() for x in loader]  # ok: TL201 frozen where it is made


def embed_ema(loader):
    teacher = create_model(ema=True)
    teacher.eval()
    return [teacher(x).cpu() for x in loader]  # ok: TL201 frozen on the path `ema=True` takes


def evaluate(loader):
    student = create_model()
    student.eval()
    return [student(x).cpu() for x in loader]  # want: TL201


def evaluate_early(loader):
    net = create_early(frozen=False)
    net.eval()
    return [net(x).cpu() for x in loader]  # want: TL201


def score(teacher, loader):
    teacher.eval()
    return [teacher(x).cpu() for x in loader]  # ok: TL201 every call hands it a model frozen where it is made


def main(loader):
    print(score(create_frozen(), loader))
    frozen = create_model(ema=True)
    print(score(frozen, loader))
