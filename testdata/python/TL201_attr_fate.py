"""TL201: outputs kept in an attribute of self that another method back-propagates."""
import torch
import torch.nn.functional as F
from torch import nn


class Learner:
    def __init__(self):
        self.main = nn.Linear(4, 2)
        self.target = nn.Linear(4, 2)
        self.optimizer = torch.optim.Adam(self.main.parameters())

    def expected_values(self, states, actions, rewards, next_states):
        self.main.eval()
        self.target.eval()
        self.values = self.main(states).gather(1, actions)  # ok: TL201 update back-propagates self.values
        best = self.target(next_states).max(1)[0].detach()  # want: TL201 "after `self.target.eval\(\)`"
        return rewards + 0.99 * best

    def update(self, expected):
        self.main.train()
        loss = F.smooth_l1_loss(self.values, expected.unsqueeze(1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class Monitor:
    def __init__(self):
        self.net = nn.Linear(4, 2)

    def watch(self, states):
        self.net.eval()
        self.last = self.net(states)  # want: TL201(low) "after `self.net.eval\(\)`"

    def report(self):
        return self.last.argmax(1).tolist()
