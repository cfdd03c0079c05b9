# The base class calls `self._predict`, which it never defines: the
# subclasses in scorers.py do. Every call of a method by that name in the
# project runs with grad disabled, so the subclasses' methods do too.
import torch


class Evaluator:
    def run(self, batches, model):
        model.eval()
        hits = 0
        with torch.no_grad():
            for x, y in batches:
                hits += (self._predict(x, model).argmax(1) == y).sum().item()
        return hits


@torch.no_grad()
def decode_all(model, batches, decoder_cls):
    # The class comes in as a parameter: `dec.decode` is known by its name only.
    out = []
    for x in batches:
        dec = decoder_cls(model)
        out.append(dec.decode(x))
    return out


def sweep(x, stepper, steps=4):
    # `stepper` may be either class of scorers.py; both define `advance`.
    for t in range(steps):
        with torch.inference_mode():
            x = stepper.advance(t, x)
    return x
