"""A holder, no module itself, of the modules it builds, moved and
switched on the way, and of a scorer that runs no model."""
import numpy as np
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(8, 16, batch_first=True)

    def forward(self, x):
        return self.rnn(x)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = nn.Linear(16, 8)

    def forward(self, h):
        return self.out(h)


class Scorer:
    def __call__(self, logits, gold):
        return float(np.mean(np.argmax(logits, -1) == gold))


class Seq2Seq(object):
    def __init__(self, is_eval=False):
        encoder = Encoder()
        decoder = Decoder()
        if is_eval:
            encoder = encoder.eval()
            decoder = decoder.eval()
        if torch.cuda.is_available():
            encoder = encoder.cuda()
            decoder = decoder.cuda()
        self.encoder = encoder
        self.decoder = decoder
        self.scorer = Scorer()
