import torch


class BaseTrainer:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader

    def validate(self):
        self.model.eval()
        total = 0.0
        with torch.no_grad():
            for x, y in self.loader:
                total += self.validate_step(x, y)
        return total

    def validate_step(self, x, y):
        raise NotImplementedError
