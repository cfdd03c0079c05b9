"""Synthesis scripts over the vocoders of models/: each pass runs with
grad enabled and its outputs are written to the host."""
import torch

from models.vocoders import ScaledVocoder, ScoredVocoder, Vocoder


def dump(wav, path):
    torch.save(wav.detach().cpu(), path)


def synthesize(codes, dim):
    vocoder = Vocoder(dim).cuda()
    vocoder.eval()
    for i, x in enumerate(codes):
        wav = vocoder(x)  # want: TL201 "`Vocoder.forward` returns `.detach\(\)` of what it computes, which frees them as the pass ends"
        dump(wav, f"{i}.pt")


def synthesize_scored(codes, dim):
    vocoder = ScoredVocoder(dim).cuda()
    vocoder.eval()
    for i, x in enumerate(codes):
        wav = vocoder(x)  # want: TL201 "`wav` holds the outputs, and the graph with them"
        dump(wav[0], f"{i}.pt")
        dump(wav[1], f"{i}.score.pt")


def synthesize_scaled(codes, dim):
    vocoder = ScaledVocoder(dim).cuda()
    vocoder.eval()
    for i, x in enumerate(codes):
        wav = vocoder(x)  # want: TL201 "`wav` holds the outputs, and the graph with them"
        dump(wav, f"{i}.pt")


def synthesize_quietly(codes, dim):
    vocoder = Vocoder(dim).cuda()
    vocoder.eval()
    with torch.no_grad():
        for i, x in enumerate(codes):
            wav = vocoder(x)  # ok: TL201
            dump(wav, f"{i}.pt")
