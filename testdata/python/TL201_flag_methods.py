"""TL201: a trainer whose one loop trains or tests by a flag, every
backward() under `if train:`. Its `test` method passes train=False: the
call itself says that the passes it runs train nothing, though no model
is switched to evaluation mode."""
import torch
from torch import nn


class Trainer:
    def __init__(self, model: nn.Module, train_data, test_data):
        self.model = model
        self.train_data = train_data
        self.test_data = test_data
        self.optim = torch.optim.Adam(model.parameters())
        self.criterion = nn.NLLLoss()

    def train(self, epoch):
        return self.iteration(epoch, self.train_data)

    def test(self, epoch):
        return self.iteration(epoch, self.test_data, train=False)  # want: TL201(high) "with `train=False`, no backward\(\)"

    @torch.no_grad()
    def test_quietly(self, epoch):
        return self.iteration(epoch, self.test_data, train=False)  # ok: under the decorator's no_grad

    def validate(self, epoch):
        return self.iteration(epoch, self.test_data, train=True)  # ok: the flag keeps the backward

    def iteration(self, epoch, data_loader, train=True):
        total = 0.0
        for x, y in data_loader:
            loss = self.criterion(self.model(x), y)
            if train:
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()
            total += loss.item()
        return total / max(len(data_loader), 1)


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(4, 3), nn.LogSoftmax(-1))
    data = [(torch.randn(2, 4), torch.tensor([0, 1]))]
    trainer = Trainer(net, data, data)
    for epoch in range(3):
        trainer.train(epoch)
        trainer.test(epoch)
        trainer.test_quietly(epoch)
        trainer.validate(epoch)
