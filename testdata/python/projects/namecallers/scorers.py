import torch.nn.functional as F

from evaluator import Evaluator


class TwoScale(Evaluator):
    def _predict(self, x, model):
        outs = []
        for s in (1.0, 0.5):
            y = model(F.interpolate(x, scale_factor=s))
            outs.append(F.interpolate(y, size=x.shape[2:]))
        return sum(outs)


class Greedy:
    def __init__(self, model):
        self.model = model

    def decode(self, x):
        logits = self.model(x)
        return logits.argmax(-1).tolist()


class Euler:
    def __init__(self, model):
        self.model = model

    def predict(self, t, x):
        return x - 0.1 * t * self.model(x)

    def advance(self, t, x):
        return self.predict(t, x)


class Heun(Euler):
    def advance(self, t, x):
        return 0.5 * (x + self.predict(t, x))


class Beam:
    # `search` is called by name twice: once under no_grad, once not.
    def __init__(self, model):
        self.model = model

    def search(self, x):
        scores = self.model(x)  # want: TL201 "outputs only reach the host"
        return scores.argmax(-1).tolist()


class Translator:
    def __init__(self, model):
        self.model = model

    def encode(self, x):
        self.model.eval()
        return self.model(x).argmax(-1).tolist()  # ok: every `.encode` of an object this project may define runs under no_grad
