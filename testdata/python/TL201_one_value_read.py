# An agent's action for one observation: the forward pass's output is read
# as one value (`.item()`, `.argmax()` over all of it, a draw from the
# distribution it parametrizes) of what the caller hands in, so each call
# records one sample's graph. Such a finding is of low confidence. An
# output read per row (`argmax(dim=1)`), or reduced first (`.mean()`),
# holds a batch: its level is not lowered.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class Agent:
    def __init__(self, device="cpu"):
        self.q = nn.Linear(4, 2)
        self.policy = nn.Linear(4, 2)
        self.device = device

    def select_action(self, state):
        action = self.q(torch.FloatTensor(state).to(self.device)).argmax()  # want: TL201(low) "whose outputs only reach the host"
        return action.detach().cpu().numpy()

    def get_action(self, state):
        state = torch.FloatTensor(state).to(self.device)
        logits = self.policy(state)  # want: TL201(low) "whose outputs only reach the host"
        probs = Categorical(F.softmax(logits, dim=0))
        return probs.sample().cpu().detach().item()

    def choose_action(self, observation):
        observation = observation[np.newaxis, :]
        state = torch.tensor(observation).to(self.device)
        return torch.argmax(self.q(state)).item()  # want: TL201(low) "whose outputs only reach the host"

    def select_actions(self, states):
        actions = self.q(torch.FloatTensor(states)).argmax(dim=1)  # want: TL201(medium) "whose outputs only reach the host"
        return actions.cpu().numpy()

    def mean_value(self, states):
        return self.q(torch.FloatTensor(states)).mean().item()  # want: TL201(medium) "whose outputs only reach the host"

    def act(self, state):
        # A tensor made on the spot of a parameter whose name says it is
        # one observation.
        state = torch.FloatTensor(state).to(self.device)
        mu = self.policy(state)  # want: TL201(low) "whose outputs only reach the host"
        return mu.detach().cpu().numpy()

    def act_all(self, states):
        states = torch.FloatTensor(states).to(self.device)
        mu = self.policy(states)  # want: TL201(medium) "whose outputs only reach the host"
        return mu.detach().cpu().numpy()


# Through a helper of the file: a distribution it returns, drawn once, or
# its own pass on one observation made a batch of one inside it.
logits_net = nn.Linear(4, 2)


def get_policy(obs):
    logits = logits_net(obs)
    return Categorical(logits=logits)


def get_action(obs):
    return get_policy(obs).sample().item()  # want: TL201(low) "through `get_policy`"


def get_actions(obs):
    return get_policy(obs).sample().tolist()  # want: TL201(medium) "through `get_policy`"


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)

    def get_action(self, state):
        state = torch.FloatTensor(state).unsqueeze(0)
        return self.forward(state).squeeze(0)

    def get_actions(self, states):
        return self.forward(torch.FloatTensor(states))


class Runner:
    def __init__(self):
        self.actor = Actor()
        self.critic = nn.Linear(4, 1)

    def choose_action(self, s):
        a = self.actor.get_action(s)  # want: TL201(low) "through `Actor.get_action`"
        return a.detach().cpu().numpy()

    def choose_actions(self, s):
        a = self.actor.get_actions(s)  # want: TL201(medium) "through `Actor.get_actions`"
        return a.detach().cpu().numpy()

    def value(self, s):
        s = s[np.newaxis, :].astype(np.float32)
        s = torch.Tensor(s)
        return self.critic(s).detach().cpu().numpy()[0]  # want: TL201(low) "whose outputs only reach the host"
