"""TL201: an attribute that a subclass's factory fills is known as a module
by what the code does with it: only a module can be wrapped in
`nn.DataParallel`, as only a module has `.parameters()`."""
import torch
import torch.nn as nn


class BaseGAN:
    def __init__(self, device):
        self.device = device
        self.synth = self.build_synth()

    def to_devices(self, gpus):
        if gpus > 1 and not isinstance(self.synth, nn.DataParallel):
            self.synth = nn.DataParallel(self.synth)

    def load(self, path):
        self.synth = self.build_synth()
        self.synth.load_state_dict(torch.load(path, map_location="cpu"))

    def build_synth(self):
        raise NotImplementedError

    def test(self, z):
        return self.synth(z.to(self.device)).detach().cpu()  # want: TL201 "in `test`"


class Sampler:
    def __init__(self, factory):
        self.net = factory()

    def draw(self, z):
        return self.net(z).detach().cpu()  # ok: nothing shows `self.net` is a module
