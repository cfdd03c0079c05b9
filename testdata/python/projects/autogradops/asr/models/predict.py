"""Decoding with operations of another file, through its package: no
model's forward pass. The acoustic model beside them is still judged."""
import torch

from ..decoding import CTCLatticeDecoder, LatticeDecoder


class Predictor:
    def __init__(self, encoder):
        self.encoder = encoder
        self.decoder = CTCLatticeDecoder()

    def decode(self, feats):
        with torch.no_grad():
            scores = self.encoder(feats)
        return self.decoder(torch.log(scores))


def decode_all(predictor, batches):
    return [predictor.decode(x).tolist() for x in batches]  # ok: TL201 the decoder holds no parameter


def lattice_all(scores):
    decoder = LatticeDecoder()
    return [decoder(torch.log(s)).tolist() for s in scores]  # ok: TL201 an autograd operation


def encode_all(encoder: torch.nn.Module, batches):
    encoder.eval()
    return [encoder(x).tolist() for x in batches]  # want: TL201
