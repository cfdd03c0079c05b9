"""TL101: a storage the update reads back and back-propagates; the plain
element of a forward's tuple."""
import gym
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


class Rollout:
    def __init__(self):
        self.values = []
        self.log_probs = []
        self.rewards = []

    def remember(self, value, log_prob, reward):
        self.values.append(value)
        self.log_probs.append(log_prob)
        self.rewards.append(reward)

    def sample(self):
        return self.values, self.log_probs, self.rewards

    def clear(self):
        self.values, self.log_probs, self.rewards = [], [], []


class History:
    def __init__(self):
        self.actions = []
        self.values = []

    def record(self, action, value):
        self.actions.append(action)
        self.values.append(value)


def a2c(env_id, optimizer, updates, horizon):
    env = gym.make(env_id)
    agent = ActorCritic(4, 2)
    rollout = Rollout()
    for _ in range(updates):
        obs = env.reset()
        for _ in range(horizon):
            action, value, log_prob = agent(torch.tensor([obs]))
            obs, reward, done, _ = env.step(action)
            rollout.remember(value, log_prob, reward)
        values, log_probs, rewards = rollout.sample()
        returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
        advantage = returns - torch.cat(values).squeeze(-1)
        loss = -(torch.cat(log_probs) * advantage.detach()).sum() + advantage.pow(2).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        rollout.clear()


def a2c_logged(env_id, optimizer, updates):
    env = gym.make(env_id)
    agent = ActorCritic(4, 2)
    history = History()
    for _ in range(updates):
        obs = env.reset()
        action, value, log_prob = agent(torch.tensor([obs]))
        obs, reward, done, _ = env.step(action)
        history.record(action, value)  # want: TL101 "pass `value.detach\(\)` instead"
        loss = -(log_prob * reward).sum() + (value - reward).pow(2).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Replay:
    def __init__(self, capacity):
        self.capacity = capacity
        self.memory = []

    def push(self, state, target):
        self.memory.append((state, target))
        if len(self.memory) > self.capacity:
            self.memory.pop(0)

    def sample(self, n):
        return self.memory[-n:]


def dqn(encoder, q_net, env, optimizer, steps):
    # A replay buffer is sampled for the loss but never emptied: the
    # encoder's graphs it keeps stay alive, as many as it holds.
    replay = Replay(10000)
    obs = env.reset()
    for _ in range(steps):
        feat = encoder(torch.tensor(obs))
        obs, reward, done, _ = env.step(q_net(feat).argmax().item())  # want: TL201 "only reach the host"
        replay.push(feat, reward)  # want: TL101(medium) "adds it into `self.memory`.*as many steps' autograd graphs as it holds"
        batch = replay.sample(32)
        states = torch.stack([s for s, _ in batch])
        targets = torch.tensor([t for _, t in batch])
        loss = ((q_net(states).max(1).values - targets) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
