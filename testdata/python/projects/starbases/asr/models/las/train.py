import torch
from ..trainer import *


class LASTrainer(NonSplitTrainer):
    # The base class comes in by a star import: the project resolves it,
    # whichever of the two files is linted first.
    def unit_validate(self, batch):
        xs, ys = batch
        hyps = self.model(xs)  # ok: the base's validate, in trainer.py, runs it under no_grad
        return hyps.argmax(-1).tolist()

    def unit_test(self, batch):
        xs, ys = batch
        return self.model(xs).argmax(-1).tolist()  # want: TL201(low) "in `unit_test`"
