import numpy as np
import torch
from torch import nn


class QAgent:
    """Acts on one observation a call; `loop.py` calls it on every step."""

    def __init__(self, n_obs=4, n_act=2):
        self.q = nn.Sequential(nn.Linear(n_obs, 64), nn.ReLU(), nn.Linear(64, n_act))

    def get_action(self, state, eps=0.1):
        state = torch.FloatTensor(state).unsqueeze(0)
        qvals = self.q(state)  # want: TL201(high) "only reach the host"
        if np.random.rand() < eps:
            return np.random.randint(2)
        return int(np.argmax(qvals.cpu().detach().numpy()))

    def greedy(self, state):
        return self.q(torch.FloatTensor(state).unsqueeze(0)).argmax().item()  # want: TL201(high) "only reach the host"

    def peek(self, state):
        # Nothing calls it in a loop: one sample, once.
        return self.q(torch.FloatTensor(state).unsqueeze(0)).argmax().item()  # want: TL201(low) "only reach the host"

    def quiet(self, state):
        # Every loop that runs it disables grad first.
        return self.q(torch.FloatTensor(state).unsqueeze(0)).argmax().item()  # ok: run under no_grad


class Runner:
    def __init__(self):
        self.agent = QAgent()

    def act(self, obs):
        return self.agent.greedy(obs)


class StepPolicy:
    """A method named `step`, as an environment's is: the loops' calls of
    `env.step(action)` say nothing of it."""

    def __init__(self):
        self.q = nn.Linear(4, 2)

    def step(self, state):
        return self.q(torch.FloatTensor(state).unsqueeze(0)).argmax().item()  # want: TL201(low) "only reach the host"


class Pilot:
    def __init__(self):
        self.actor = nn.Linear(4, 2)

    def choose_action(self, obs):
        # The squad's method of the same name runs it for each pilot: two
        # classes have the name, so which one it reaches is assumed.
        return self.actor(torch.tensor([obs], dtype=torch.float)).detach().numpy()[0]  # want: TL201(medium) "only reach the host"


class Squad:
    def __init__(self, n):
        self.pilots = [Pilot() for _ in range(n)]

    def choose_action(self, observations):
        return [pilot.choose_action(obs) for pilot, obs in zip(self.pilots, observations)]
