"""The probs of a distribution built from logits are the output of an
activation: a softmax for a Categorical, a sigmoid for a Bernoulli."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Bernoulli, Categorical
from torch.distributions.one_hot_categorical import OneHotCategorical


class ActorCritic(nn.Module):
    def __init__(self, n_obs=8, n_actions=4):
        super().__init__()
        self.actor = nn.Linear(n_obs, n_actions)
        self.gate = nn.Linear(n_obs, 1)

    def dist(self, obs):
        return Categorical(logits=self.actor(obs))

    def imitation_loss(self, obs, expert_actions):
        probs = Categorical(logits=self.actor(obs)).probs
        return F.cross_entropy(probs, expert_actions)  # want: TL504 "`probs` is the output of a softmax \(`Categorical\(logits=self.actor\(obs\)\)`, line 20\)"

    def imitation_loss_named(self, obs, expert_actions):
        pi = OneHotCategorical(logits=self.actor(obs))
        return F.cross_entropy(pi.probs, expert_actions)  # want: TL504 "`pi.probs` is the output of a softmax"

    def imitation_loss_helper(self, obs, expert_actions):
        return F.cross_entropy(self.dist(obs).probs, expert_actions)  # want: TL504 "TL504_distributions.py:17"

    def gate_loss(self, obs, opened):
        p = Bernoulli(logits=self.gate(obs).squeeze(-1)).probs
        return F.binary_cross_entropy_with_logits(p, opened)  # want: TL504 "output of a sigmoid"

    def gate_loss_probs(self, obs, opened):
        p = Bernoulli(logits=self.gate(obs).squeeze(-1)).probs
        return F.binary_cross_entropy(p, opened)  # ok: binary_cross_entropy expects probabilities

    def log_likelihood(self, obs, expert_actions):
        d = self.dist(obs)
        return F.nll_loss(torch.log(d.probs + 1e-8), expert_actions)  # ok: the log of the probabilities

    def normalized_logits(self, obs, expert_actions):
        d = Categorical(logits=self.actor(obs))
        return F.nll_loss(d.logits, expert_actions)  # ok: a Categorical's logits are log-probabilities

    def soft_targets(self, obs, teacher_logits):
        target = Categorical(logits=teacher_logits).probs
        return F.cross_entropy(self.actor(obs), target)  # ok: probabilities as the target, not the input

    def ppo_loss(self, obs, actions, old_log_probs, advantages):
        d = self.dist(obs)
        ratio = torch.exp(d.log_prob(actions) - old_log_probs)
        return -(ratio * advantages).mean() - 0.01 * d.entropy().mean()  # ok: no classification loss
