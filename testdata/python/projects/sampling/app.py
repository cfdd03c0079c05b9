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
            self.model = other  # ok: assigned twice, the attribute's class is not known

    def reply(self, prompt):
        self.model.eval()
        return self.model.generate(prompt, 16)
