"""TL201: a module that holds only torch losses and buffers (the losses
keep their weights as buffers) has no parameter to train, also when its
owner binds it through a local name moved to the device; one that holds
a linear layer has."""
import torch
from torch import nn


class SigmoidBin(nn.Module):
    def __init__(self, bins=10):
        super().__init__()
        self.register_buffer("bins", torch.arange(0.0, 1.0, 1.0 / bins))
        self.bce = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0]))
        self.mse = nn.MSELoss()

    def forward(self, pred):
        return (pred.sigmoid() * self.bins).sum(-1)


class LearnedBin(nn.Module):
    def __init__(self, bins=10):
        super().__init__()
        self.proj = nn.Linear(bins, bins)
        self.mse = nn.MSELoss()

    def forward(self, pred):
        return self.proj(pred).sum(-1)


class Matcher:
    def __init__(self, device):
        decode = SigmoidBin().to(device)
        self.decode = decode
        learned = LearnedBin().to(device)
        self.learned = learned

    def match(self, preds, anchors):
        out = []
        for p in preds:
            boxes = self.decode.forward(p)  # ok: SigmoidBin holds no parameter
            out.append((boxes - anchors).abs().argmin(0).tolist())
        return out

    def match_learned(self, preds, anchors):
        out = []
        for p in preds:
            boxes = self.learned.forward(p)  # want: TL201(medium) "only reach the host"
            out.append((boxes - anchors).abs().argmin(0).tolist())
        return out


def run(preds, anchors):
    matcher = Matcher("cuda")
    return matcher.match(preds, anchors), matcher.match_learned(preds, anchors)
