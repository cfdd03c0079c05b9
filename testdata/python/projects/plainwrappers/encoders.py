"""Text encoders: a plain wrapper around a frozen module, which records no
graph, and a module built on another library's class."""
import torch
import torch.nn as nn
from transformers import PreTrainedModel


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 8)

    def forward(self, ids):
        return self.emb(ids)


def build_embedder(dtype=torch.float32):
    return Embedder().to(dtype)


class TextEncoder:
    """No module: it holds one, frozen, and runs it when called."""

    def __init__(self, dtype=torch.bfloat16, device="cuda"):
        model = build_embedder(dtype=dtype).eval().requires_grad_(False)
        self.model = model.to(device)

    def __call__(self, ids, device):
        return self.model(ids.to(device))


class HubEncoder(PreTrainedModel):
    """A module of another library's making: the project cannot see its base."""

    def forward(self, ids):
        return self.embeddings(ids)
