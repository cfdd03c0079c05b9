import torch
import torch.nn as nn

from evaluator import decode_all, sweep
from scorers import Beam, Euler, Greedy, Heun


def main(batches, make_searcher):
    net = nn.Linear(4, 4)
    print(decode_all(net, batches, Greedy))
    print(sweep(torch.randn(2, 4), Euler(net)), sweep(torch.randn(2, 4), Heun(net)))
    searcher = make_searcher(net)
    with torch.no_grad():
        print(searcher.search(torch.randn(2, 4)))
    net.eval()
    print(searcher.search(torch.randn(2, 4)))
    return Beam
