import torch.nn as nn


class Greedy:
    def __init__(self, n_obs, n_actions):
        self.q = nn.Linear(n_obs, n_actions)

    def act(self, obs):
        # rollout.py calls `act` on an agent of no known class, with grad
        # enabled: the call by its name sets the mode, and is seen.
        return self.q(obs).argmax(-1).tolist()  # want: TL201(high)

    def explore(self, obs):
        # No code of the project calls a method of this name.
        return self.q(obs).softmax(-1).tolist()  # want: TL201(medium)


class Sampler:
    def __init__(self, n_obs, n_actions):
        self.pi = nn.Linear(n_obs, n_actions)

    def decide(self, obs):
        # rollout.py calls `decide` on an agent of no known class, and two
        # classes have a method of that name: which one it calls is assumed.
        return self.pi(obs).argmax(-1).tolist()  # want: TL201(medium)


class Planner:
    def __init__(self, n_obs, n_actions):
        self.v = nn.Linear(n_obs, n_actions)

    def decide(self, obs):
        return self.v(obs).argmax(-1).tolist()  # want: TL201(medium)
