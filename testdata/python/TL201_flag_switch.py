"""TL201: a function of the file whose flag picks the mode it switches its modules to."""
import torch
from torch import nn


def set_mode(model, training):
    model.train(training)


class Trainer:
    def __init__(self):
        self.encoder = nn.Linear(8, 4)
        self.decoder = nn.Linear(4, 8)
        self.nets = [self.encoder, self.decoder]
        self.optim = torch.optim.Adam([p for n in self.nets for p in n.parameters()])

    def net_mode(self, train):
        for net in self.nets:
            if train:
                net.train()
            else:
                net.eval()

    def step(self, x):
        self.net_mode(train=True)
        loss = ((self.decoder(self.encoder(x)) - x) ** 2).mean()  # ok: TL201 training mode, back-propagated
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()

    def reconstruct_all(self, batches):
        self.net_mode(train=False)
        errors = []
        for x in batches:
            errors.append(((self.decoder(self.encoder(x)) - x) ** 2).mean().item())  # want: TL201 "after `self.net_mode\(train=False\)`"
        self.net_mode(train=True)
        return errors

    def reconstruct_some(self, batches, flag):
        self.net_mode(train=flag)
        return [self.decoder(self.encoder(x)).sum().item() for x in batches]  # want: TL201 "only reach the host"


def score(model, batches):
    set_mode(model, False)
    return [model(x).argmax(-1).tolist() for x in batches]  # want: TL201 "after `set_mode\(model, False\)`"
