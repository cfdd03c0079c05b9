"""A softmax returned as one element of a tuple, unpacked or indexed by
the caller."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PolicyNet(nn.Module):
    def __init__(self, n_obs=8, n_actions=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_actions)
        self.v = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        logits = self.pi(h)
        return logits, F.softmax(logits, dim=-1), self.v(h)


class Agent:
    def __init__(self, n_obs=8, n_actions=4):
        self.actor = nn.Linear(n_obs, n_actions)
        self.net = PolicyNet(n_obs, n_actions)

    def policy(self, states):
        logits = self.actor(states)
        probs = F.softmax(logits, dim=-1)
        return logits, probs

    def behaviour_cloning(self, states, actions):
        logits, probs = self.policy(states)
        return F.cross_entropy(probs, actions)  # want: TL504 "`probs` is the output of a softmax \(`F.softmax\(logits, dim=-1\)`, TL504_tuples.py:28\)"

    def behaviour_cloning_logits(self, states, actions):
        logits, probs = self.policy(states)
        entropy = -(probs * probs.log()).sum(-1).mean()
        return F.cross_entropy(logits, actions) - 0.01 * entropy  # ok: the logits, the first element

    def indexed(self, states, actions):
        out = self.policy(states)
        return F.cross_entropy(out[1], actions)  # want: TL504 "`out\[1\]` is the output of a softmax"

    def unpacked_later(self, states, actions):
        out = self.policy(states)
        logits, probs = out
        return F.cross_entropy(probs, actions)  # want: TL504 "output of a softmax"

    def indexed_from_end(self, states, actions):
        return F.cross_entropy(self.policy(states)[-1], actions)  # want: TL504 "output of a softmax"

    def indexed_logits(self, states, actions):
        return F.cross_entropy(self.policy(states)[0], actions)  # ok: the logits

    def model_tuple(self, states, actions):
        _, probs, value = self.net(states)
        return F.cross_entropy(probs, actions)  # want: TL504 "TL504_tuples.py:18"

    def model_tuple_starred(self, states, actions):
        logits, *rest = self.net(states)
        return F.cross_entropy(logits, actions)  # ok: the logits, the first element

    def written_out(self, states, actions):
        probs, target = F.softmax(self.actor(states), dim=-1), actions
        return F.cross_entropy(probs, target)  # want: TL504 "output of a softmax"


def head(z, training):
    if training:
        return z, None
    return F.softmax(z, dim=-1), z


def mixed(z, y):
    out, _ = head(z, True)
    return F.cross_entropy(out, y)  # ok: the first element is the logits on one return, a softmax on the other


def split(z):
    return torch.chunk(z, 2, dim=0)


def chunks(z, y):
    a, b = split(z)
    return F.cross_entropy(a, y[: len(a)])  # ok: the function returns no tuple of its own
