"""TL201: a function whose parameter picks the grad mode: with grad on,
it runs where a caller asks for it."""
import torch
from torch import nn

DEBUG = False


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 8)
        self.decoder = nn.Linear(8, 4)

    def forward(self, x):
        return self.decoder(self.encoder(x))

    def generate(self, images, no_grad=True):
        self.eval()
        if no_grad:
            with torch.no_grad():
                return self(images).log_softmax(-1)
        return self(images).log_softmax(-1)

    def describe(self, images, train=False):
        self.eval()
        if not train:
            with torch.no_grad():
                feats = self.encoder(images)
        else:
            feats = self.encoder(images)
        return feats

    def score(self, images, no_grad=True):
        # Picked by the caller, but what the pass gives only reaches the
        # host: nothing can back-propagate it.
        self.eval()
        if no_grad:
            with torch.no_grad():
                return self(images).argmax(-1).tolist()
        return self(images).argmax(-1).tolist()  # want: TL201 "after `self.eval\(\)`"

    def caption(self, images):
        self.eval()
        if DEBUG:
            with torch.no_grad():
                print(self.encoder(images).shape)
        return self.encoder(images).argmax(-1).tolist()  # want: TL201 "after `self.eval\(\)`"


def load_frozen(path):
    torch.set_grad_enabled(False)  # for the whole process, from here on
    net = nn.Linear(4, 2)
    net.load_state_dict(torch.load(path, map_location="cpu"))
    return net.eval()


def load_maybe_frozen(path, frozen):
    if frozen:
        torch.set_grad_enabled(False)
    net = nn.Linear(4, 2)
    net.load_state_dict(torch.load(path, map_location="cpu"))
    return net.eval()


def predict_frozen(x, path):
    model = load_frozen(path)
    return model(x).argmax(1).tolist()  # ok: load_frozen turned grad off for the process


def predict_maybe(x, path):
    model = load_maybe_frozen(path, False)
    return model(x).argmax(1).tolist()  # want: TL201


def predict_any(x, model):
    if isinstance(model, str):
        model = load_frozen(model)
    return model(x).argmax(1).tolist()  # ok: grad is off after the if on one path, on the other not known


def train_then_test(model, loader, test_loader, opt, crit, epochs):
    for _ in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            crit(model(x), y).backward()
            opt.step()
        torch.set_grad_enabled(False)
        model.eval()
        print(sum(crit(model(x), y).item() for x, y in loader))
        torch.set_grad_enabled(True)
        model.train()
    model.eval()
    correct = 0
    for x, y in test_loader:
        out = model(x)  # want: TL201 "after `model.eval\(\)`"
        correct += (out.argmax(1) == y).sum().item()
    return correct


def export_or_test(model, loader, export):
    if export:
        torch.set_grad_enabled(False)
        torch.onnx.export(model, next(iter(loader))[0], "m.onnx")
        return None
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x)  # want: TL201
        correct += (out.argmax(1) == y).sum().item()
    return correct


def grad_off(model):
    torch.set_grad_enabled(False)
    model.eval()


def grad_on(model):
    torch.set_grad_enabled(True)
    model.train()


def fit_switching(model, loader, val_loader, opt, crit):
    for _ in range(3):
        grad_off(model)
        print([model(x).argmax(1).tolist() for x, _ in val_loader])  # ok: grad_off turned grad off
        grad_on(model)
        for x, y in loader:
            opt.zero_grad()
            crit(model(x), y).backward()
            opt.step()
    model.eval()
    return [model(x).argmax(1).tolist() for x, _ in val_loader]  # want: TL201


class Detector:
    """Its constructor turns grad off for the process: every method runs
    on an instance built after that."""

    def __init__(self, path):
        torch.set_grad_enabled(False)
        self.net = nn.Linear(4, 2)
        self.net.load_state_dict(torch.load(path, map_location="cpu"))
        self.net.eval()

    def detect(self, x):
        return self.net(x).argmax(1).tolist()  # ok: the constructor turned grad off for the process

    def detect_all(self, loader):
        return [self.net(x).argmax(1).tolist() for x, _ in loader]  # ok: the same, over a loader

    @staticmethod
    def probe(net, x):
        # Called on the class: no instance, no constructor run before it.
        net.eval()
        return net(x).argmax(1).tolist()  # want: TL201


class MaybeDetector:
    def __init__(self, path, frozen):
        if frozen:
            torch.set_grad_enabled(False)
        self.net = nn.Linear(4, 2)
        self.net.load_state_dict(torch.load(path, map_location="cpu"))
        self.net.eval()

    def detect(self, x):
        return self.net(x).argmax(1).tolist()  # want: TL201


def run_phase(model, loader, opt, crit, phase="train"):
    model.train() if phase == "train" else model.eval()
    torch.set_grad_enabled(True) if phase == "train" else torch.set_grad_enabled(False)
    total = 0.0
    for x, y in loader:
        loss = crit(model(x), y)  # ok: set_grad_enabled(phase == "train"), one arm at a time
        if phase == "train":
            opt.zero_grad()
            loss.backward()
            opt.step()
        total += loss.item()
    return total
