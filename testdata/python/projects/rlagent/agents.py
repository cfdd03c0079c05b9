import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical


class DQNAgent:
    def __init__(self, n_obs=4, n_act=2):
        self.q_net = nn.Linear(n_obs, n_act)
        self.v_net = nn.Linear(n_obs, 1)
        self.q_opt = torch.optim.Adam(self.q_net.parameters())
        self.v_opt = torch.optim.Adam(self.v_net.parameters())
        self.memory = []

    def remember(self, obs, action, reward):
        self.memory.append((obs, action, reward))

    def learn(self):
        obs, action, reward = self.memory[-1]
        self.q_opt.zero_grad()
        q = self.q_net(obs)[action]
        q_loss = F.mse_loss(q, reward)
        q_loss.backward(retain_graph=True)  # want: TL103(high) "until `learn` returns"
        self.q_opt.step()
        self.v_opt.zero_grad()
        v_loss = F.mse_loss(self.v_net(obs), reward)
        v_loss.backward()
        self.v_opt.step()


class ReinforceAgent:
    def __init__(self, n_obs=4, n_act=2):
        self.policy = nn.Linear(n_obs, n_act)
        self.opt = torch.optim.Adam(self.policy.parameters())
        self.log_probs = []
        self.rewards = []

    def act(self, obs):
        dist = Categorical(logits=self.policy(obs))
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        return action.item()

    def finish_episode(self):
        returns = torch.tensor(self.rewards)
        loss = -(torch.stack(self.log_probs) * returns).sum()
        self.opt.zero_grad()
        loss.backward(retain_graph=True)  # ok: the graph was built by `act` over the episode, outside this method
        self.opt.step()
        self.log_probs, self.rewards = [], []
