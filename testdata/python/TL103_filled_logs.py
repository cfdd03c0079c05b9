"""TL103: an agent's step whose loss function fills the step's log with
numbers and returns the loss; the step returns the log. A log of
numbers gives the caller nothing to back-propagate: the retained graph
is the step's own, and its last backward keeps it for nothing."""
import torch
from torch import nn


class Agent:
    def __init__(self, critic: nn.Module, critic_optimizer, alpha_optimizer):
        self.critic = critic
        self.critic_optimizer = critic_optimizer
        self.alpha_optimizer = alpha_optimizer
        self.log_alpha = torch.zeros(1, requires_grad=True)

    def _q_loss(self, obs, actions, target, log_dict):
        q = self.critic(obs, actions)
        qf_loss = ((q - target) ** 2).mean()
        alpha_loss = -(self.log_alpha * q.detach()).mean()
        log_dict.update(dict(qf_loss=qf_loss.item(), alpha_loss=alpha_loss.item()))
        return qf_loss, alpha_loss

    def train(self, batch):
        obs, actions, target = batch
        log_dict = dict(batch_size=len(obs))
        qf_loss, alpha_loss = self._q_loss(obs, actions, target, log_dict)
        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()
        self.critic_optimizer.zero_grad()
        qf_loss.backward(retain_graph=True)  # want: TL103(high) "last backward through this step's graph"
        self.critic_optimizer.step()
        return log_dict

    def train_returning_losses(self, batch):
        obs, actions, target = batch
        log_dict = dict(qf_loss=None)
        qf_loss, alpha_loss = self._q_loss(obs, actions, target, log_dict)
        self.critic_optimizer.zero_grad()
        qf_loss.backward(retain_graph=True)  # ok: the step hands the loss back, which the caller may back-propagate again
        self.critic_optimizer.step()
        log_dict["qf_loss"] = qf_loss
        return log_dict


def run(agent, replay_buffer, steps):
    for _ in range(steps):
        print(agent.train(replay_buffer.sample(256)))
        agent.train_returning_losses(replay_buffer.sample(256))
