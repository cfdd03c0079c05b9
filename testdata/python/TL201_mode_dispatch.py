"""TL201: a module whose forward picks what it runs by a mode string.

A call that passes the mode of an arm that computes under no_grad what it
returns, and runs no other pass in the caller's mode, records no graph.
"""
import torch
from torch import nn


class Translator(nn.Module):
    # GAN code's dispatch: every arm but one trains; the inference arm
    # binds its result under no_grad and returns it after the block.
    def __init__(self):
        super().__init__()
        self.netG = nn.Linear(8, 8)
        self.netD = nn.Linear(8, 1)

    def preprocess(self, data):
        return torch.cat([data, data.flip(1)], 1)[:, :8]

    def forward(self, data, mode):
        x = self.preprocess(data)
        if mode == "generator":
            return self.netD(self.netG(x)).mean()
        elif mode == "discriminator":
            return self.netD(x).mean()
        elif mode == "inference":
            with torch.no_grad():
                fake = self.netG(x)
            return fake
        else:
            raise ValueError(mode)


class EarlyExit(nn.Module):
    # The no_grad arm returns early; the training path follows it.
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x, mode="train"):
        if mode == "predict":
            with torch.no_grad():
                return self.fc(x)
        return self.fc(x).sum()


class SharedTrunk(nn.Module):
    # The trunk runs before the dispatch, in the caller's mode.
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(4, 4)
        self.head = nn.Linear(4, 2)

    def forward(self, x, mode):
        h = self.trunk(x)
        if mode == "inference":
            with torch.no_grad():
                return self.head(h)
        return self.head(h).sum()


class Rebound(nn.Module):
    # The mode is rewritten before it is tested: not known from the call.
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x, mode):
        mode = mode.lower()
        if mode == "inference":
            with torch.no_grad():
                return self.fc(x)
        return self.fc(x)


class GradArm(nn.Module):
    # The arm of the mode runs with grad.
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x, mode):
        if mode == "score":
            return self.fc(x)
        with torch.no_grad():
            return self.fc(x)


def test(loader):
    model = Translator()
    model.eval()
    for data in loader:
        fake = model(data, mode="inference")  # ok: the inference arm runs under no_grad
        print(fake.mean().item())
    for data in loader:
        print(model(data, "inference").mean().item())  # ok: the same mode, by position
    for data in loader:
        loss = model(data, mode="generator")  # want: TL201(medium) "`model\(data, mode=\"generator\"\)`"
        print(loss.item())


def predict(loader):
    net = EarlyExit()
    net.eval()
    for x in loader:
        print(net(x, mode="predict").argmax(1).tolist())  # ok: its arm returns before the training path
    for x in loader:
        print(net(x).item())  # want: TL201(medium) "`net\(x\)`"


def shared(loader):
    trunk = SharedTrunk()
    trunk.eval()
    for x in loader:
        print(trunk(x, mode="inference").argmax(1).tolist())  # want: TL201(medium) "`trunk\(x, mode=\"inference\"\)`"


def shared_any(loader, mode):
    trunk = SharedTrunk()
    trunk.eval()
    for x in loader:
        print(trunk(x, mode=mode).sum().item())  # want: TL201(medium) "`trunk\(x, mode=mode\)`"


def others(loader):
    rebound = Rebound()
    rebound.eval()
    graded = GradArm()
    graded.eval()
    for x in loader:
        print(rebound(x, "inference").argmax(1).tolist())  # want: TL201(medium) "`rebound\(x, \"inference\"\)`"
        print(graded(x, "score").argmax(1).tolist())  # want: TL201(medium) "`graded\(x, \"score\"\)`"


class KeywordMode(nn.Module):
    # A keyword-only mode, tested with the literal first.
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x, *, mode="train"):
        if "sample" == mode:
            with torch.no_grad():
                out = self.fc(x).softmax(-1)
            return out
        return self.fc(x).sum()


class Sampler:
    def __init__(self):
        self.model = Translator()
        self.policy = KeywordMode()

    def sample(self, loader):
        self.model.eval()
        self.policy.eval()
        for data in loader:
            images = self.model(data, mode="inference")  # ok: an attribute that holds the class, the inference arm
            print(images.mean().item())
            print(self.policy(data, mode="sample").argmax(1).tolist())  # ok: a keyword-only mode
            print(self.policy(data).item())  # want: TL201(medium) "`self.policy\(data\)`"


def sample_all(loader):
    model = KeywordMode()
    model.eval()
    outs = [model(x, mode="sample") for x in loader]  # ok: each in the sampling arm
    return torch.cat(outs).argmax(1).tolist()


def train_step(model, opt, data):
    opt.zero_grad()
    loss = model(data, mode='discriminator')  # ok: a training arm, back-propagated
    loss.backward()
    opt.step()
    with torch.no_grad():
        return model(data, mode='inference')
