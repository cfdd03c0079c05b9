import torch

from engines import SimpleEngine


class DomainTrainer(SimpleEngine):
    def __init__(self, optimizer):
        super().__init__(None, optimizer)
        self.head = torch.nn.Linear(8, 1)

    def forward_backward(self, domains):
        loss = 0
        for x, y in domains:
            loss += (self.head(x) - y).pow(2).mean()  # ok: back-propagated by a method two classes up, in steps.py
        self.model_backward_and_update(loss)

    def score(self, domains):
        total = 0
        for x, y in domains:
            total += (self.head(x) - y).pow(2).mean()  # want: TL101 "seen to run through"
        print(float(total))
