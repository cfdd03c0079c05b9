"""Methods called through an attribute of self, assigned once in its class."""
import torch

from models import GPT


class Chat:
    def __init__(self):
        self.model = GPT()

    def reply(self, prompt):
        self.model.eval()
        return self.model.generate(prompt, 16)  # want: TL201

    def reply_quietly(self, prompt):
        self.model.eval()
        with torch.no_grad():
            return self.model.generate(prompt, 16)

    @torch.inference_mode()
    def reply_fast(self, prompt):
        self.model.eval()
        return self.model.generate(prompt, 16)


class Swappable:
    def __init__(self, other=None):
        self.model = GPT()
        if other is not None:
            self.model = other  # assigned twice: the attribute's class is not known

    def reply(self, prompt):
        self.model.eval()
        # The one class of the project with a `generate` method, by that
        # name alone: an assumption, low.
        return self.model.generate(prompt, 16)  # want: TL201(low)


class Decoder:
    def __init__(self, sampler):
        self.sampler = sampler

    def reply(self, prompt):
        # Nothing shows that `self.sampler` is a model: no name lookup.
        return self.sampler.generate(prompt, 16)  # ok: no module evidence
