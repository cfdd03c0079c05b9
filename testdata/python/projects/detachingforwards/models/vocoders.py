"""Vocoders whose forward ends the graph of what it returns, and look-alikes
whose forward does not end all of it."""
import torch
import torch.nn as nn


class Vocoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.model = nn.Linear(dim, dim)

    def forward(self, x):
        wav = self.model(x)
        return wav.detach().squeeze()


class ScoredVocoder(nn.Module):
    """Detaches the waveform, not the score."""

    def __init__(self, dim):
        super().__init__()
        self.model = nn.Linear(dim, dim)
        self.score = nn.Linear(dim, 1)

    def forward(self, x):
        wav = self.model(x)
        return wav.detach(), self.score(wav)


class ScaledVocoder(nn.Module):
    """A detached waveform times a learned gain: the gain's graph."""

    def __init__(self, dim):
        super().__init__()
        self.model = nn.Linear(dim, dim)
        self.gain = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return self.model(x).detach().mul(self.gain)
