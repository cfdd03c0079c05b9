"""TL201: a method named forward_* of a module whose class is outside the
project (a timm backbone's `forward_features`, a SyncNet's `forward_lip`)
runs a forward pass, as `forward` does; a class of the project says what
its own method does."""
import timm
import torch
import torch.nn as nn


class Extractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)

    @torch.no_grad()
    def forward_frozen(self, x):
        return self.body(x)


def extract(loader):
    backbone = timm.create_model("resnet50", pretrained=True)
    backbone.eval()
    feats = []
    for x in loader:
        feats.extend(backbone.forward_features(x).mean((2, 3)).tolist())  # want: TL201 "forward_features"
    return feats


def finetune(loader, head, opt):
    backbone = timm.create_model("resnet50", pretrained=True)
    for x, y in loader:
        loss = nn.functional.cross_entropy(head(backbone.forward_features(x).mean((2, 3))), y)  # ok: back-propagated
        opt.zero_grad()
        loss.backward()
        opt.step()


def extract_frozen(loader):
    ext = Extractor()
    ext.eval()
    return [ext.forward_frozen(x).cpu() for x in loader]  # ok: its own no_grad
