"""TL102: Lightning calls training_step with grad enabled, whoever else calls a method of its name."""
import lightning as L
import torch.nn.functional as F
from torch import nn


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 1)
        self.outs = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        self.outs.append(loss)  # want: TL102(high) "after its backward"
        return loss

    def on_train_epoch_end(self):
        self.outs.clear()


class Classifier(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 3)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.net(x), y)


def smoke(module, batch):
    # A call of a method of that name on an object of no known class.
    return module.training_step(batch, 0)
