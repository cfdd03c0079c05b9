# A base trainer that back-propagates what the subclass's
# _compute_losses returns, every step.
import torch


class BaseTrainer:
    def __init__(self, model, loader, lr=1e-3):
        self._model = model
        self._loader = loader
        self._opt = torch.optim.Adam(model.parameters(), lr=lr)

    def run(self, steps):
        for step, batch in zip(range(steps), self._loader):
            self._model.train()
            self._opt.zero_grad()
            losses = self._compute_losses(batch)
            losses["total"].backward()
            self._opt.step()
            self._on_step_end(step)

    def _compute_losses(self, batch):
        raise NotImplementedError

    def _on_step_end(self, step):
        pass
