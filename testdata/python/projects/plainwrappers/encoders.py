"""Text encoders: a plain wrapper around a frozen module, which records no
graph, one around a trainable module, which does, a module built on
another library's class, and a loss written as a plain class."""
import torch
import torch.nn as nn
from transformers import AutoTokenizer, PreTrainedModel


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
        self.dtype = dtype
        model = build_embedder(dtype=dtype).eval().requires_grad_(False)
        self.model = model.to(device)

    def __call__(self, ids, device):
        return self.model(ids.to(device))


class PromptEncoder(object):
    """No module either, on `object`: a tokenizer, and a frozen model it runs."""

    def __init__(self, name="clip", device="cuda"):
        self.device = device
        self.tokenizer = AutoTokenizer.from_pretrained(name)
        self.model = build_embedder().to(device).eval().requires_grad_(False)

    def __call__(self, prompts):
        ids = self.tokenizer(prompts, return_tensors="pt")["input_ids"]
        return self.model(ids.to(self.device))


class WordIds:
    """A tokenizer of the project's own."""

    def __init__(self, vocab):
        self.vocab = vocab

    def __call__(self, texts):
        return torch.tensor([[self.vocab.get(w, 0) for w in t.split()] for t in texts])


class ShardedEncoder:
    """A frozen model, sharded again under a flag, and a tokenizer."""

    def __init__(self, shard_fn=None):
        model = build_embedder().eval().requires_grad_(False)
        self.model = model
        if shard_fn is not None:
            self.model = shard_fn(self.model)
        self.words = WordIds({})

    def __call__(self, texts, device):
        return self.model(self.words(texts).to(device))


class Predictor:
    """No module: its forward runs the model it holds under no_grad."""

    def __init__(self):
        self.model = build_embedder()

    def forward(self, ids):
        with torch.no_grad():
            return self.model(ids)


class Captioner(nn.Module):
    """Freezes its encoder; the decoder its callers give it trains."""

    def __init__(self, decoder=None):
        super().__init__()
        self.encoder = Embedder().requires_grad_(False)
        self.decoder = decoder

    def forward(self, ids):
        return self.decoder(self.encoder(ids))


class TrainableEncoder:
    """No module: it holds one it trains, and runs it when called."""

    def __init__(self, dtype=torch.float32):
        self.dtype = dtype
        self.model = build_embedder(dtype=dtype)

    def __call__(self, ids):
        return self.model(ids)


class FocalLoss:
    def __init__(self, gamma=2.0):
        self.gamma = gamma

    def __call__(self, logits, target):
        ce = torch.nn.functional.cross_entropy(logits, target, reduction="none")
        p = torch.exp(-ce)
        return ((1 - p) ** self.gamma * ce).mean()


class HubEncoder(PreTrainedModel):
    """A module of another library's making: the project cannot see its base."""

    def forward(self, ids):
        return self.embeddings(ids)
