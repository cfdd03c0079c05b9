"""Runs from its own folder, with the library put on the path by a relative literal."""
import sys

import torch

sys.path.append("../lib")

if __name__ == "__main__":
    from nets import Scorer, Standardize

    thing = Scorer(4, 2)
    thing.load_state_dict(torch.load("scorer.pt"))
    norm = Standardize([0.5] * 4, [0.2] * 4)
    data = torch.load("test.pt")
    thing.eval()
    norm.eval()
    print([norm(x).mean().item() for x, _ in data])  # ok: TL201 Standardize holds no parameter
    hits = 0
    for x, y in data:
        hits += (thing.classify(x).argmax(-1) == y).sum().item()  # want: TL201 "through `Scorer.classify`"
    print(hits)
