# A base trainer that back-propagates what the subclass's predict
# returns, every step.
import torch
import torch.nn.functional as F


class BaseTrainer:
    def __init__(self, model, loader, lr=1e-3):
        self._model = model
        self._loader = loader
        self._opt = torch.optim.Adam(model.parameters(), lr=lr)

    def run(self, steps):
        for step, (x, y) in zip(range(steps), self._loader):
            self._model.train()
            self._opt.zero_grad()
            loss = F.mse_loss(self.predict(x), y)
            loss.backward()
            self._opt.step()
            self._on_step_end(step)

    def predict(self, x):
        raise NotImplementedError

    def _on_step_end(self, step):
        pass
