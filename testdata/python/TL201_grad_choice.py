"""TL201: a function whose parameter picks the grad mode: with grad on,
it runs where a caller asks for it."""
import torch
from torch import nn

DEBUG = False


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 8)
        self.decoder = nn.Linear(8, 4)

    def forward(self, x):
        return self.decoder(self.encoder(x))

    def generate(self, images, no_grad=True):
        self.eval()
        if no_grad:
            with torch.no_grad():
                return self(images).log_softmax(-1)
        return self(images).log_softmax(-1)

    def describe(self, images, train=False):
        self.eval()
        if not train:
            with torch.no_grad():
                feats = self.encoder(images)
        else:
            feats = self.encoder(images)
        return feats

    def score(self, images, no_grad=True):
        # Picked by the caller, but what the pass gives only reaches the
        # host: nothing can back-propagate it.
        self.eval()
        if no_grad:
            with torch.no_grad():
                return self(images).argmax(-1).tolist()
        return self(images).argmax(-1).tolist()  # want: TL201 "after `self.eval\(\)`"

    def caption(self, images):
        self.eval()
        if DEBUG:
            with torch.no_grad():
                print(self.encoder(images).shape)
        return self.encoder(images).argmax(-1).tolist()  # want: TL201 "after `self.eval\(\)`"
