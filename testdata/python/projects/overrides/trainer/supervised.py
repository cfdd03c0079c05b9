from trainer.base import BaseTrainer


class SupervisedTrainer(BaseTrainer):
    def validate_step(self, x, y):
        pred = self.model(x)  # ok: the base class, in base.py, calls validate_step under no_grad
        return (pred - y).pow(2).mean().item()

    def test_step(self, x):
        return self.model(x).tolist()  # want: TL201 "in `test_step`"
