import torch
import torch.nn as nn

from registry import register


@register
class KeypointHead(nn.Module):
    def __init__(self, dim=8, n=3):
        super().__init__()
        self.fc = nn.Linear(dim, n)

    def forward(self, x):
        return self.fc(x)

    def inference_model(self, x):
        # Only a detector's forward_test calls it, which a framework's test
        # loop out of sight runs (under no_grad, as such loops do).
        out = self.forward(x)  # want: TL201(low) "only reach the host"
        return out.detach().cpu().numpy()

    def decode_model(self, x):
        # The one method of its name: the detector's call runs it, in a
        # mode the framework's loop sets.
        out = self.forward(x)  # want: TL201(medium) "only reach the host"
        return out.detach().cpu().numpy()

    def predict_points(self, x):
        # A script's loop calls it by name, with grad enabled.
        out = self.forward(x)  # want: TL201(high) "only reach the host"
        return out.detach().cpu().numpy()


@register
class BoxHead(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.fc = nn.Linear(dim, 4)

    def forward(self, x):
        return self.fc(x)

    def inference_model(self, x):
        # A second class with a method of that name: the detector's call
        # may run either.
        out = self.forward(x)  # want: TL201(low) "only reach the host"
        return out.detach().cpu().numpy()
