"""Per-agent updates, each run once per environment step by train.py."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Agents:
    def __init__(self, n_agents, obs_dim, act_dim):
        self.actors = nn.ModuleList(nn.Linear(obs_dim, act_dim) for _ in range(n_agents))
        self.critics = nn.ModuleList(nn.Linear(obs_dim + act_dim, 1) for _ in range(n_agents))
        self.actor_opts = [torch.optim.Adam(a.parameters(), lr=1e-3) for a in self.actors]
        self.critic_opts = [torch.optim.Adam(c.parameters(), lr=1e-3) for c in self.critics]
        self.critic_log = []

    def update_policy(self, obs):
        a_loss = []
        for i in range(len(self.actors)):
            self.actor_opts[i].zero_grad()
            act = self.actors[i](obs)
            actor_loss = -self.critics[i](torch.cat([obs, act], dim=1)).mean()
            actor_loss.backward()
            self.actor_opts[i].step()
            a_loss.append(actor_loss)  # ok: a list of this call, one back-propagated loss per agent
        return a_loss

    def update_critics(self, obs, act, target):
        c_loss = []
        for i, critic in enumerate(self.critics):
            opt = self.critic_opts[i]
            opt.zero_grad()
            loss_q = F.mse_loss(critic(torch.cat([obs, act], dim=1)), target.detach())
            loss_q.backward()
            opt.step()
            c_loss.append(loss_q)  # ok: a list of this call, one back-propagated loss per agent
            self.critic_log.append(loss_q)  # want: TL102 "after its backward"
        return c_loss


def update_shared(critic, optimizer, batches):
    losses = []
    for obs, act, target in batches:
        optimizer.zero_grad()
        loss_q = F.mse_loss(critic(torch.cat([obs, act], dim=1)), target)
        loss_q.backward()
        optimizer.step()
        losses.append(loss_q)  # want: TL102 "after its backward"
    return losses
