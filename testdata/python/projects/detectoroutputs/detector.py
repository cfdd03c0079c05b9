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


class ProposalDetector(nn.Module):
    """Its losses come from a proposal network it is handed: the project
    does not show which element of its tuple holds a graph."""

    def __init__(self, rpn):
        super().__init__()
        self.backbone = nn.Conv2d(3, 8, 3)
        self.rpn = rpn

    def forward(self, images, targets=None):
        rois, loss_objectness, loss_box = self.rpn(self.backbone(images), targets)
        detections = None
        if not self.training:
            detections = self.post_process(rois)
        return detections, loss_objectness + loss_box

    def post_process(self, rois):
        return [{"boxes": r.detach()} for r in rois]
