# Policy-gradient agents keep each step's log-probability with its graph
# on purpose: a method back-propagates the whole buffer at the end of the
# episode, which frees the graphs. A buffer nothing back-propagates keeps
# them for the object's life.
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Reinforce:
    def __init__(self):
        self.policy = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=1e-3)
        self.log_probs = []
        self.rewards = []
        self.entropy = 0

    def act(self, obs):
        dist = Categorical(logits=self.policy(obs))
        a = dist.sample()
        return a.item(), dist.log_prob(a)

    def remember(self, log_prob, reward):
        self.log_probs.append(log_prob)
        self.rewards.append(reward)
        self.entropy += log_prob

    def update(self):
        returns = torch.tensor(self.rewards).flip(0).cumsum(0).flip(0)
        loss = -(torch.stack(self.log_probs) * returns).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.log_probs, self.rewards = [], []


def run(env_step, episodes):
    agent = Reinforce()
    for _ in range(episodes):
        obs = torch.randn(4)
        for t in range(50):
            action, lp = agent.act(obs)
            agent.remember(lp, env_step(action))  # want: TL101 "self.entropy"
        agent.update()


class Sampler:
    def __init__(self):
        self.actor = nn.Linear(4, 2)
        self.opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.states, self.actions, self.old_log_probs = [], [], []
        self.total = 0

    def select_action(self, state):
        with torch.no_grad():
            probs = torch.softmax(self.actor(state), dim=-1)
        dist = Categorical(probs)
        action = dist.sample()
        return action, dist.log_prob(action)

    def store(self, state, action, log_prob):
        self.states.append(state)
        self.actions.append(action)
        self.total += log_prob

    def update(self):
        # `dist` here is another value than select_action's `dist`.
        dist = Categorical(logits=self.actor(torch.stack(self.states)))
        loss = -dist.log_prob(torch.stack(self.actions)).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.states, self.actions = [], []

    def run(self, steps):
        for t in range(steps):
            state = torch.randn(4)
            action, log_prob = self.select_action(state)
            self.store(state, action, log_prob)  # ok: the probabilities were computed under no_grad
            if t % 10 == 9:
                self.update()


class Memory:
    def __init__(self):
        self.actions = []

    def add(self, action):
        self.actions.append(action)


def rollout(policy, observations):
    memory = Memory()
    for obs in observations:
        dist = Categorical(logits=policy(obs))
        action = dist.sample()
        memory.add(action)  # ok: a draw from a distribution carries no graph
        memory.add(dist.log_prob(action))  # want: TL101 "self.actions"
    return memory


class NStepCritic:
    # The buffer of values is emptied by the update that back-propagates:
    # its graphs live for n steps, not for the run.
    def __init__(self):
        self.critic = nn.Linear(4, 1)
        self.opt = torch.optim.Adam(self.critic.parameters())
        self.values, self.rewards = [], []
        self.running = 0

    def store(self, value, reward):
        self.values.append(value)
        self.rewards.append(reward)
        self.running += value

    def update(self, states):
        targets = torch.tensor(self.rewards)
        loss = (self.critic(states).squeeze(-1) - targets).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.clear_storage()

    def clear_storage(self):
        self.values.clear()
        del self.rewards[:]
        self.running = 0


def run_critic(steps):
    agent = NStepCritic()
    for t in range(steps):
        s = torch.randn(4)
        agent.store(agent.critic(s), 1.0)  # want: TL101 "self.running"
        if t % 5 == 4:
            agent.update(torch.randn(5, 4))
