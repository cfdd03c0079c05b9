"""Puts the library on the path from its own location, through os.path and pathlib."""
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "unused"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from nets import Scorer  # noqa: E402


def dump(path, batches):
    thing = Scorer(4, 2)
    thing.load_state_dict(torch.load(path))
    thing.eval()
    return [thing.classify(x).argmax(-1).tolist() for x in batches]  # want: TL201 "through `Scorer.classify`"
