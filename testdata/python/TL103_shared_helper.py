"""TL103: two losses built from values one helper returns together may share the pass it ran for both."""
import torch
import torch.nn.functional as F
from torch import nn


class CQL:
    def __init__(self):
        self.actor = nn.Linear(4, 2)
        self.critic1 = nn.Linear(6, 1)
        self.critic2 = nn.Linear(6, 1)
        self.opt1 = torch.optim.Adam(self.critic1.parameters())
        self.opt2 = torch.optim.Adam(self.critic2.parameters())

    def policy_values(self, obs):
        actions = self.actor(obs)  # both critics read the actor's graph
        x = torch.cat([obs, actions], 1)
        return self.critic1(x), self.critic2(x)

    def learn(self, batches):
        for obs, target in batches:
            q1, q2 = self.policy_values(obs)
            loss1 = F.mse_loss(q1, target)
            loss2 = F.mse_loss(q2, target)
            self.opt1.zero_grad()
            loss1.backward(retain_graph=True)  # ok: loss2's backward runs through the actor's graph again
            self.opt1.step()
            self.opt2.zero_grad()
            loss2.backward()
            self.opt2.step()

    def learn_apart(self, batches):
        for obs, target in batches:
            q1 = self.critic1(torch.cat([obs, self.actor(obs).detach()], 1))
            q2 = self.critic2(torch.cat([obs, self.actor(obs).detach()], 1))
            self.opt1.zero_grad()
            F.mse_loss(q1, target).backward(retain_graph=True)  # want: TL103
            self.opt1.step()
            self.opt2.zero_grad()
            F.mse_loss(q2, target).backward()
            self.opt2.step()
