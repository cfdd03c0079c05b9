# Modules that override __call__: calling an instance runs __call__, not
# forward. One routes to a predictor that runs under inference_mode; one
# hands the call back to nn.Module (so forward runs in the caller's mode).
import torch
import torch.nn as nn


class Predictor:
    @torch.inference_mode()
    def stream(self, model, x):
        return [model.net(x)]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)
        self.predictor = Predictor()

    def __call__(self, x):
        return self.predict(x)

    def predict(self, x):
        return self.predictor.stream(self, x)


class Detector(Model):
    pass


class Logged(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)

    def __call__(self, x):
        print("called")
        return super().__call__(x)

    def forward(self, x):
        return self.net(x)


def local_run(frames):
    model = Model()
    model.eval()
    return [model(f)[0].argmax(-1).tolist() for f in frames]  # ok: TL201 __call__ runs under inference_mode


def local_logged(frames):
    model = Logged()
    model.eval()
    return [model(f).argmax(-1).tolist() for f in frames]  # want: TL201 "model\(f\)"
