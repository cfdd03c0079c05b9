import torch.nn as nn


class Greedy:
    def __init__(self, n_obs, n_actions):
        self.q = nn.Linear(n_obs, n_actions)

    def act(self, obs):
        # rollout.py calls `act` on an agent of no known class, with grad
        # enabled in the mode of `rollout`, which no code of the project
        # calls: its callers' mode is assumed.
        return self.q(obs).argmax(-1).tolist()  # want: TL201(medium)

    def explore(self, obs):
        # No code of the project calls a method of this name.
        return self.q(obs).softmax(-1).tolist()  # want: TL201(medium)


class Sampler:
    def __init__(self, n_obs, n_actions):
        self.pi = nn.Linear(n_obs, n_actions)

    def decide(self, obs):
        # rollout.py calls `decide` on an agent of no known class, and two
        # classes have a method of that name: which one it calls is assumed,
        # and so is the mode of `plan`, which no code of the project calls.
        return self.pi(obs).argmax(-1).tolist()  # want: TL201(low)


class Planner:
    def __init__(self, n_obs, n_actions):
        self.v = nn.Linear(n_obs, n_actions)

    def decide(self, obs):
        return self.v(obs).argmax(-1).tolist()  # want: TL201(low)
