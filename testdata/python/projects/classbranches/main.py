import sys

import torch

from models import Sampler, WideSampler

if __name__ == "__main__":
    if sys.argv[1] == "wide":
        sampler = WideSampler()
    else:
        sampler = Sampler()
    sampler.fit(100)
    sampler.show(100)
    with torch.no_grad():
        sampler.preview()
