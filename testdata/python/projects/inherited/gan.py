import torch

from steps import BaseTrainer


class Trainer(BaseTrainer):
    def __init__(self, dis):
        self.dis = dis
        self.opt = torch.optim.SGD(self.dis.parameters(), lr=0.1)

    def evolve(self, steps, batches):
        for _ in range(steps):
            d_loss = 0
            for real, fake in batches:
                d_loss += (self.dis(real) - self.dis(fake)).mean()  # ok: back-propagated by the base class's helper in steps.py
            self.optimize(self.opt, d_loss)

    def score(self, batches):
        total = 0
        for real, fake in batches:
            total += (self.dis(real) - self.dis(fake)).mean()  # want: TL101 "seen to run through"
        return total
