"""A detector whose forward returns its post-processed detections, made
of detached tensors, beside its loss."""
import torch
from torch import nn


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(3, 8, 3)
        self.head = nn.Conv2d(8, 4, 1)

    def forward(self, images, targets=None):
        out = self.head(self.backbone(images))
        loss = ((out - targets) ** 2).mean()
        detections = self.post_process(out)
        return detections, loss

    def post_process(self, out):
        return [{"boxes": o.detach(), "scores": torch.sigmoid(o.detach())} for o in out]


class Scorer(nn.Module):
    """Returns its scores with their graph, beside a count."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc(x), x.size(0)
