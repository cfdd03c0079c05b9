import numpy as np
import torch
from torch import nn

actor = nn.Linear(8, 2)


def act(state):
    # Hands the pass's outputs back: its callers say where they go.
    return actor(state).clamp(-1, 1)


def act_logged(state, log):
    out = actor(state)
    log.append(out)  # kept in a list of the caller's: not handed back only
    return out


class Team:
    def __init__(self, n):
        self.n = n
        self.actors = [nn.Linear(8, 2) for _ in range(n)]

    def select(self, states):
        # Each agent's action, with noise, stored into a buffer the
        # method returns.
        actions = torch.zeros(self.n, 2)
        for i in range(self.n):
            a = self.actors[i](states[i]).squeeze()
            a += torch.from_numpy(np.random.randn(2)).float()
            actions[i, :] = torch.clamp(a, -1.0, 1.0)
        return actions
