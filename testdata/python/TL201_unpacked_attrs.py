"""TL201: an attribute of self bound by unpacking what a function of the
file returns (`self.netG, self.inception_model, step = load_network()`)
is, at its place, what every return of that function builds: a scoring
network its constructor freezes records no graph."""
import numpy as np
import torch
from torch import nn


class Inception(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Linear(16, 10)
        for param in self.model.parameters():
            param.requires_grad = False

    def forward(self, x):
        return nn.functional.softmax(self.model(x), dim=-1)


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Linear(16, 10)

    def forward(self, x):
        return self.model(x)


def load_network():
    netG = nn.Linear(4, 16)
    inception_model = Inception()
    inception_model.eval()
    return netG, inception_model, 0


def load_scored():
    netG = nn.Linear(4, 16)
    scorer = Scorer()
    scorer.eval()
    return netG, scorer, 0


class Trainer:
    def train(self, steps):
        self.netG, self.inception_model, start = load_network()
        opt = torch.optim.Adam(self.netG.parameters())
        predictions = []
        for step in range(start, steps):
            fake = self.netG(torch.randn(8, 4))
            loss = fake.pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            pred = self.inception_model(fake.detach())  # ok: its constructor freezes it
            predictions.append(pred.data.cpu().numpy())
        return np.concatenate(predictions)


class ScoredTrainer:
    def train(self, steps):
        self.netG, self.score_model, start = load_scored()
        opt = torch.optim.Adam(self.netG.parameters())
        predictions = []
        for step in range(start, steps):
            fake = self.netG(torch.randn(8, 4))
            loss = fake.pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            pred = self.score_model(fake.detach())  # want: TL201(medium) "self.score_model\(fake.detach\(\)\)"
            predictions.append(pred.data.cpu().numpy())
        return np.concatenate(predictions)


class Runner:
    """Binds an attribute again from a method that returns it."""

    def __init__(self, model):
        self.model = model

    def step_fn(self, x):
        pred = self.model(x)
        return pred, self.head_model

    def run(self, x):
        self.pred, self.head_model = self.step_fn(x)
        return self.head_model(x).argmax(-1).tolist()  # want: TL201(low) "self.head_model\(x\)"


if __name__ == "__main__":
    print(Trainer().train(10).shape, ScoredTrainer().train(10).shape)
