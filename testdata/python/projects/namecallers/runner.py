import torch
import torch.nn as nn
import torch.nn.functional as F


class Runner:
    def __init__(self):
        self.model = nn.Linear(16, 4)

    def load_model(self, path):
        self.model.load_state_dict(torch.load(path, map_location="cpu"))

    def eval_model(self, batches):
        # Its forward passes run under its own no_grad.
        self.model.eval()
        losses = []
        with torch.no_grad():
            for x, y in batches:
                losses.append(F.cross_entropy(self.model(x), y).item())
        return losses

    def probe_model(self, batches):
        self.model.eval()
        with torch.no_grad():
            return [self.model(x).argmax(1).tolist() for x, _ in batches]


class GradRunner(Runner):
    def probe_model(self, batches):
        # The same name, with its forward passes in its caller's mode.
        return [self.model(x).argmax(1).tolist() for x, _ in batches]  # want: TL201 "outputs only reach the host"

