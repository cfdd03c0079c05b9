"""An actor-critic whose forward hands the environment a plain action."""
import torch
from torch import nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, n_in, n_actions):
        super().__init__()
        self.pi = nn.Linear(n_in, n_actions)
        self.v = nn.Linear(n_in, 1)

    def forward(self, state):
        dist = Categorical(logits=self.pi(state))
        action = dist.sample()
        return action.numpy()[0], self.v(state), dist.log_prob(action)
