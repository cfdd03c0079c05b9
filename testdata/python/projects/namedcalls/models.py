"""Methods known only by name: `recognize` is a method of two classes,
called on objects of no known class from a decoder's scorer (grad
enabled) and from a decoding script (under no_grad). Which call reaches
which class is not seen, so the calls disagree and each finding rests
on two assumptions."""
import torch.nn as nn

from scoring import Scorer


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = nn.Linear(4, 4)

    def recognize(self, h):
        return self.out(h).argmax(-1).tolist()  # want: TL201(low) "only reach the host"


class Speech(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(4, 4)
        self.decoder = Decoder()
        self.scorer = Scorer(self.decoder)

    def forward(self, x):
        return self.encoder(x).sum() + self.scorer(x)  # ok: the training forward, back-propagated by its callers

    def encode(self, x):
        self.eval()
        return self.encoder(x)  # want: TL201(low) "after `self.eval\(\)`"

    def recognize(self, x, retry=True):
        best = self.encode(x).argmax(-1).tolist()
        if not best and retry:
            return self.recognize(x, retry=False)
        return best


class Tagger(nn.Module):
    """`tag` is called by name only where grad is enabled: one assumption."""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 2)

    def tag(self, x):
        self.eval()
        return self.head(x).argmax(-1)  # want: TL201(low) "after `self.eval\(\)`"


class Chunker(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 2)

    def tag(self, x):
        return self.head(x)  # ok: its output goes back to the caller
