import torch
from torch import nn

from core import eval_quiet, eval_tgt, make_hook

if __name__ == "__main__":
    encoder, classifier = nn.Linear(4, 4), nn.Linear(4, 2)
    loader = [(torch.randn(2, 4), torch.tensor([0, 1]))]
    print(eval_tgt(encoder, classifier, loader))
    with torch.no_grad():
        print(eval_quiet(encoder, classifier, loader))
    callbacks = [make_hook(encoder, loader)]
