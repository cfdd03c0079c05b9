# A module made by a factory function of the file is an instance of the
# class the factory builds; a decorator factory of the file that applies
# torch.inference_mode() to the function it is given disables grad.
import torch
import torch.nn as nn


def smart_inference_mode():
    def decorate(fn):
        return torch.inference_mode()(fn)

    return decorate


class AutoWrap(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model.eval()

    @smart_inference_mode()
    def forward(self, x):
        return self.model(x)


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def create(path):
    net = nn.Linear(4, 2)
    net.load_state_dict(torch.load(path))
    return AutoWrap(net)


def create_plain():
    return Plain()


def detect(path, batches):
    model = create(path)
    return [model(x).argmax(1).tolist() for x in batches]  # ok: TL201 AutoWrap.forward runs under inference_mode


def detect_direct(batches):
    model = AutoWrap(nn.Linear(4, 2))
    return [model(x).argmax(1).tolist() for x in batches]  # ok: TL201 AutoWrap.forward runs under inference_mode


def detect_plain(batches):
    model = create_plain()
    model.eval()
    return [model(x).argmax(1).tolist() for x in batches]  # want: TL201 "model\(x\)"
