"""TL201: a method named for evaluation that switches its model itself opens the region its helpers run in."""
import numpy as np
import torch
from torch import nn


class Experiment:
    def __init__(self, data):
        self.model = nn.Linear(8, 2)
        self.data = data

    def _one_batch(self, batch_x, batch_y):
        outputs = self.model(batch_x.float())
        if self.data.inverse:
            outputs = self.data.inverse_transform(outputs)
        return outputs, batch_y

    def test(self, loader):
        self.model.eval()
        preds = []
        for batch_x, batch_y in loader:
            pred, _ = self._one_batch(batch_x, batch_y)  # want: TL201 "in `test`, through `Experiment._one_batch`"
            preds.append(pred.detach().cpu().numpy())
        return np.concatenate(preds)

    def predict(self, loader):
        # ok: no switch of its own, and its callers are not seen
        return [self._one_batch(batch_x, batch_y)[0].detach() for batch_x, batch_y in loader]

    def train(self, loader, optimizer):
        self.model.train()
        for batch_x, batch_y in loader:
            pred, true = self._one_batch(batch_x, batch_y)
            loss = nn.functional.mse_loss(pred, true)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
