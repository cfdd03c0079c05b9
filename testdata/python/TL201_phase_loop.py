"""TL201: one loop body that trains in one phase and evaluates in the
other, its backward() under a test that the switch to evaluation mode
sits in the other arm of: the evaluating phase runs with grad enabled. A
switch whose mode the same test decides (`model.train(phase == "train")`)
switches to evaluation mode where the test does not hold."""
import torch


def train_model(model, loaders, criterion, optimizer, epochs):
    for epoch in range(epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            running = 0.0
            for inputs, labels in loaders[phase]:
                optimizer.zero_grad()
                outputs = model(inputs)  # want: TL201 "where `phase == \"train\"` does not hold.*set_grad_enabled\(phase == \"train\"\)"
                loss = criterion(outputs, labels)
                if phase == "train":
                    loss.backward()
                    optimizer.step()
                running += loss.item()
            print(phase, running)


def run_epoch(model, loader, criterion, optimizer, train):
    if train:
        model.train()
    else:
        model.eval()
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)  # want: TL201 "where `train` does not hold"
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def train_model_fixed(model, loaders, criterion, optimizer):
    for phase in ("train", "val"):
        if phase == "train":
            model.train()
        else:
            model.eval()
        for inputs, labels in loaders[phase]:
            optimizer.zero_grad()
            with torch.set_grad_enabled(phase == "train"):
                loss = criterion(model(inputs), labels)  # ok: grad only in the training phase
                if phase == "train":
                    loss.backward()
                    optimizer.step()


def train_both(model, loaders, criterion, optimizer):
    for phase in ["train", "val"]:
        if phase == "train":
            model.train()
        else:
            model.eval()
        for inputs, labels in loaders[phase]:
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)  # ok: back-propagated in both phases (a backward under no test)
            loss.backward()
            if phase == "train":
                optimizer.step()


def train_relabelled(model, loaders, criterion, optimizer, schedule):
    for phase in ["train", "val"]:
        if phase == "train":
            model.train()
        else:
            model.eval()
            phase = schedule(phase)
        for inputs, labels in loaders[phase]:
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)  # ok: the phase is named again before its test
            if phase == "train":
                loss.backward()
                optimizer.step()


def epoch(model, loader, criterion, optimizer, train):
    if train:
        model.train()
    else:
        model.eval()
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)  # ok: every call that evaluates runs under no_grad
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def iterate(mode, model, loader, criterion, optimizer):
    if mode == "train":
        model.train()
    else:
        model.eval()
    for x, y in loader:
        loss = criterion(model(x), y)  # want: TL201 "where `mode == \"train\"` does not hold"
        if mode == "train":
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def fit(model, loaders, criterion, optimizer):
    for _ in range(10):
        epoch(model, loaders["train"], criterion, optimizer, True)
        with torch.no_grad():
            epoch(model, loaders["val"], criterion, None, False)
        iterate("train", model, loaders["train"], criterion, optimizer)
        iterate("val", model, loaders["val"], criterion, None)


def fgsm(model, x, y, eps):
    x = x.clone().requires_grad_(True)
    loss = torch.nn.functional.cross_entropy(model(x)[1], y)
    (grad,) = torch.autograd.grad(loss, x)
    return (x + eps * grad.sign()).detach()


def robust_accuracy(model, loader, eps):
    model.eval()
    correct = 0
    for x, y in loader:
        x_adv = fgsm(model, x, y, eps)
        _, logits = model(x_adv)  # want: TL201 "read on the host before any backward"
        correct += (logits.argmax(1) == y).sum().item()
    return correct


def robust_loss(model, loader, eps, optimizer):
    model.eval()
    for x, y in loader:
        x_adv = fgsm(model, x, y, eps)
        _, logits = model(x_adv)  # ok: back-propagated
        loss = torch.nn.functional.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_renamed(model, loaders, criterion, optimizer, schedule):
    for phase in ["train", "val"]:
        if phase == "train":
            model.train()
        else:
            model.eval()
        for inputs, labels in loaders[phase]:
            if (renamed := schedule(phase)) and (phase := renamed) == "skip":
                continue
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)  # ok: the walrus names the phase again between its tests
            if phase == "train":
                loss.backward()
                optimizer.step()


class Runner:
    def __init__(self, net, optimizer, loaders):
        self.net, self.optimizer, self.loaders = net, optimizer, loaders

    def forward(self, x, y):
        out = self.net(x)
        return torch.nn.functional.cross_entropy(out, y), out

    def iterate(self, phase):
        self.net.train(phase == "train")
        total = 0.0
        for x, y in self.loaders[phase]:
            loss, out = self.forward(x, y)  # want: TL201 "after `self.net.train\(phase == \"train\"\)`, where `phase == \"train\"` does not hold"
            if phase == "train":
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            total += loss.item()
        return total

    def flagged(self, training):
        self.net.train(training)
        total = 0.0
        for x, y in self.loaders["val"]:
            loss, out = self.forward(x, y)  # ok: every call that evaluates runs under no_grad
            if training:
                loss.backward()
            total += loss.item()
        return total

    def restored(self, was_training):
        self.net.eval()
        scores = [self.net(x).argmax(1).tolist() for x, _ in self.loaders["val"]]  # want: TL201 "after `self.net.eval\(\)`"
        self.net.train(was_training)
        return scores

    def contexts(self, training):
        self.net.train(training)
        context = torch.enable_grad() if training else torch.no_grad()
        total = 0.0
        with context:
            for x, y in self.loaders["val"]:
                loss, out = self.forward(x, y)  # ok: grad is disabled where training does not hold
                if training:
                    loss.backward()
                total += loss.item()
        with (torch.enable_grad() if training else torch.no_grad()):
            for x, y in self.loaders["val"]:
                loss, out = self.forward(x, y)  # ok: the same, the switch written in the with
                if training:
                    loss.backward()
        return total

    def fit(self, epochs):
        for _ in range(epochs):
            self.iterate("train")
            self.iterate("val")
            self.contexts(True)
            self.contexts(False)
            self.flagged(True)
            with torch.no_grad():
                self.flagged(False)


def adversarial_epoch(model, loader, optimizer, training, eps=0.03):
    model.train(training)
    for x, y in loader:
        x_adv = x.clone().requires_grad_(True)
        (grad,) = torch.autograd.grad(torch.nn.functional.cross_entropy(model(x_adv), y), x_adv)
        out = model((x + eps * grad.sign()).detach())  # ok: every call of the file trains (training=True)
        loss = torch.nn.functional.cross_entropy(out, y)
        if training:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def phases_then_sample(model, loaders, optimizer, fixed, epochs):
    for epoch in range(epochs):
        for phase in ["train", "val"]:
            model.train(phase == "train")
            for x, y in loaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
        model.eval()
        sample = model(fixed)  # want: TL201 "after `model.eval\(\)`: autograd"
        torch.save(sample.argmax(1), f"sample_{epoch}.pt")


def context_classes(model, loader, optimizer, training):
    model.train(training)
    grad_ctx = torch.enable_grad if training else torch.no_grad
    for x, y in loader:
        with grad_ctx():
            loss = torch.nn.functional.cross_entropy(model(x), y)  # ok: grad is disabled where it evaluates
        if training:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def adversarial_fit(model, loader, optimizer):
    adversarial_epoch(model, loader, optimizer, True)
    context_classes(model, loader, optimizer, True)
    context_classes(model, loader, optimizer, False)


def run_epoch_shared(model, loader, optimizer, train):
    model.train() if train else model.eval()
    total = 0.0
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)  # want: TL201 "after `model.train\(\) if train else model.eval\(\)`, where `train` does not hold"
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def run_fit(model, train_loader, val_loader, optimizer):
    run_epoch_shared(model, train_loader, optimizer, True)
    run_epoch_shared(model, val_loader, optimizer, False)


def train_only(model, loader, optimizer, train):
    model.train() if train else model.eval()
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)  # ok: TL201 every call trains
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_only_fit(model, loader, optimizer):
    train_only(model, loader, optimizer, True)
