import torch
from torch import nn


class Pix2Pix(nn.Module):
    # Every arm trains but the inference arm, which binds its result under
    # no_grad and returns it after the block.
    def __init__(self, width):
        super().__init__()
        self.netG = nn.Conv2d(width, 3, 3, padding=1)
        self.netD = nn.Conv2d(3, 1, 3, padding=1)

    def encode(self, data):
        return torch.cat([data["label"], data["edge"]], 1)

    def forward(self, data, mode):
        x = self.encode(data)
        if mode == "generator":
            return -self.netD(self.netG(x)).mean()
        elif mode == "discriminator":
            return self.netD(data["image"]).mean()
        elif mode == "inference":
            with torch.no_grad():
                fake = self.netG(x)
            return fake
        raise ValueError(mode)


class Stem(nn.Module):
    # The stem runs in the caller's mode before the dispatch.
    def __init__(self, width):
        super().__init__()
        self.stem = nn.Conv2d(width, width, 1)
        self.netG = nn.Conv2d(width, 3, 3, padding=1)

    def forward(self, x, mode):
        h = self.stem(x)
        if mode == "inference":
            with torch.no_grad():
                return self.netG(h)
        return self.netG(h).abs().mean()
