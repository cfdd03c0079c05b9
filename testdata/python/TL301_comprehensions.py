"""TL301: a comprehension is a loop: a cache flush in its element runs on
every item, as in a for loop's body."""
import torch


def encode_all(model, chunks):
    with torch.no_grad():
        return [(model(c).cpu(), torch.cuda.empty_cache())[0] for c in chunks]  # want: TL301 "each of which runs the model"


def embed_lazily(encoder, batches):
    return (encoder(b).detach().cpu() for b in batches if torch.cuda.empty_cache() is None)  # want: TL301


def sizes(tensors):
    # No model runs here: a comprehension over tensors already made.
    return [(t.numel(), torch.cuda.empty_cache())[0] for t in tensors]  # ok: no hot loop
