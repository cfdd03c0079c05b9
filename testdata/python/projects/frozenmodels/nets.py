# Modules whose calls record no graph on inputs that need none, seen by
# the files that use them: frozen by their constructor, running their
# forward under no_grad, or holding no parameters; and one that trains.
import torch
import torch.nn as nn
import torchaudio
from librosa.filters import mel as librosa_mel_fn


class Backbone(nn.Module):
    def __init__(self, freeze=True):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1))
        if freeze:
            for p in self.features.parameters():
                p.requires_grad = False

    def forward(self, x):
        return self.features(x).flatten(1)


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(6, 2, 3, padding=1)

    def forward(self, a, b):
        with torch.no_grad():
            flow = self.net(torch.cat([a, b], dim=1))
            return flow, flow.abs()


class Noise(nn.Module):
    def __init__(self, std=0.1):
        super().__init__()
        self.std = std

    def forward(self, x):
        return x + torch.randn_like(x) * self.std


class Audio2Mel(nn.Module):
    """Buffers only: a window and a mel filter bank that librosa computes."""

    def __init__(self, n_fft=1024, sampling_rate=22050, n_mels=80):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft).float())
        self.register_buffer("mel_basis", torch.from_numpy(librosa_mel_fn(sr=sampling_rate, n_fft=n_fft, n_mels=n_mels)).float())

    def forward(self, audio):
        spec = torch.stft(audio, self.n_fft, window=self.window, return_complex=True).abs()
        return torch.log(torch.clamp(torch.matmul(self.mel_basis, spec), min=1e-5))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Linear(8, 10)

    def forward(self, x):
        return self.head(self.backbone(x))


flow = Flow()


class Stretch(torchaudio.transforms.MelSpectrogram):
    """A transform of torchaudio's, extended: no parameters."""

    def __init__(self):
        super().__init__(sample_rate=16000)
        self.stft = torchaudio.transforms.Spectrogram(n_fft=self.n_fft, power=None)

    def forward(self, wave):
        return self.mel_scale(self.stft(wave).abs().pow(2))


class Lowpass(nn.Module):
    """A fixed filter: a convolution without bias whose weight the constructor freezes by default."""

    def __init__(self, freeze_weights=True):
        super().__init__()
        self.lp = nn.Conv2d(3, 3, kernel_size=5, padding=2, groups=3, bias=False)
        self.lp.weight.requires_grad = not freeze_weights

    def forward(self, x):
        return self.lp(x)


class BinKernel(nn.Module):
    """A smoothed histogram bin: buffers only, a method its subclasses call."""

    def __init__(self, low, high):
        super().__init__()
        self.register_buffer("low", torch.tensor(low))
        self.register_buffer("high", torch.tensor(high))

    def as_tensors(self, *values):
        return [torch.as_tensor(v) for v in values]

    def forward(self, x):
        return ((x > self.low) & (x < self.high)).float()


class Vgg(nn.Module):
    """Trainable by default; frozen when built with `requires_grad=False`."""

    def __init__(self, requires_grad=True):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())
        for p in self.parameters():
            p.requires_grad = requires_grad

    def forward(self, x):
        return self.features(x)
