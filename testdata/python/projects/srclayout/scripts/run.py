import torch

from rlkit.agents import Policy


def evaluate_quiet(states):
    pi = Policy()
    with torch.no_grad():
        return [pi(s) for s in states]  # ok: grad disabled


def evaluate(states):
    pi = Policy()
    return [pi(s) for s in states]  # want: TL201(low)
