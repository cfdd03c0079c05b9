"""retain_graph=True in update methods, fresh forward passes and loops over module-level data."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


class ActorCritic:
    def __init__(self, n_obs=8, n_act=2):
        self.actor = nn.Linear(n_obs, n_act)
        self.critic = nn.Linear(n_obs + n_act, 1)
        self.value = nn.Linear(n_obs, 1)
        self.v_opt = torch.optim.Adam(self.value.parameters())
        self.a_opt = torch.optim.Adam(self.actor.parameters())

    def train_step(self, state):
        value = self.value(state)
        action = self.actor(state)
        q = self.critic(torch.cat([state, action], 1))
        self.v_opt.zero_grad()
        v_loss = F.mse_loss(value, q)
        v_loss.backward(retain_graph=True)  # want: TL103 "until `train_step` returns"
        self.v_opt.step()

        action = self.actor(state)
        q = self.critic(torch.cat([state, action], 1))
        a_loss = -q.mean()
        self.a_opt.zero_grad()
        a_loss.backward()
        self.a_opt.step()

    def train_step_scaled(self, state):
        action = self.actor(state)
        q = self.critic(torch.cat([state, action], 1))
        self.v_opt.zero_grad()
        v_loss = F.mse_loss(self.value(state), q)
        v_loss.backward(retain_graph=True)  # ok: `q = q * 2` keeps the graph that a_loss back-propagates
        self.v_opt.step()

        q = q * 2
        a_loss = -q.mean()
        self.a_opt.zero_grad()
        a_loss.backward()
        self.a_opt.step()

    def train_step_maybe_fresh(self, state, fresh):
        action = self.actor(state)
        q = self.critic(torch.cat([state, action], 1))
        self.v_opt.zero_grad()
        v_loss = F.mse_loss(self.value(state), q)
        v_loss.backward(retain_graph=True)  # ok: q is recomputed on some calls only; on the others a_loss runs through it
        self.v_opt.step()

        if fresh:
            q = self.critic(torch.cat([state, self.actor(state)], 1))
        a_loss = -q.mean()
        self.a_opt.zero_grad()
        a_loss.backward()
        self.a_opt.step()


class Agent:
    def __init__(self, n_obs=4):
        self.value = nn.Linear(n_obs, 1)
        self.critic = nn.Linear(n_obs, 1)
        self.v_opt = torch.optim.Adam(self.value.parameters())
        self.c_opt = torch.optim.Adam(self.critic.parameters())
        self.memory = []

    def learn(self):
        state, reward = self.memory[-1]
        self.v_opt.zero_grad()
        v_loss = F.mse_loss(self.value(state), self.critic(state).detach())
        v_loss.backward(retain_graph=True)  # want: TL103(high) "until `learn` returns"
        self.v_opt.step()
        self.c_opt.zero_grad()
        c_loss = F.mse_loss(self.critic(state), reward)
        c_loss.backward()
        self.c_opt.step()

    def learn_episode(self, log_probs, returns):
        loss = -(torch.stack(log_probs) * returns).sum()
        self.v_opt.zero_grad()
        loss.backward(retain_graph=True)  # ok: the graph comes from the caller, which may back-propagate it again
        self.v_opt.step()

    def td_error(self):
        state, reward = self.memory[-1]
        v_loss = F.mse_loss(self.value(state), reward)
        v_loss.backward(retain_graph=True)  # ok: no optimizer step here: not known to run once per step
        return v_loss.item()


def run(env, agent, n_games):
    for _ in range(n_games):
        obs, done = env.reset(), False
        while not done:
            obs, reward, done, _ = env.step(env.action_space.sample())
            agent.memory.append((torch.as_tensor(obs), torch.as_tensor(reward)))
            agent.learn()


G = nn.Sequential(nn.Linear(4, 4), nn.Sigmoid())
D = nn.Linear(4, 1)
d_opt = torch.optim.RMSprop(D.parameters())
data = np.random.rand(1000, 4).astype(np.float32)


def draw_rows(arr, size):
    i = np.random.randint(0, arr.shape[0] - size)
    return torch.from_numpy(arr[i:i + size])


for it in range(100):
    for _ in range(5):
        real = draw_rows(data, 32)
        fake = G(torch.randn(32, 4))
        d_loss = D(fake).mean() - D(real).mean()
        d_opt.zero_grad()
        d_loss.backward(retain_graph=True)  # want: TL103 "rebound in the next iteration"
        d_opt.step()

for it in range(100):
    fake = G(torch.randn(32, 4))
    for _ in range(5):
        real = draw_rows(data, 32)
        d_loss = D(fake).mean() - D(real).mean()
        d_opt.zero_grad()
        d_loss.backward(retain_graph=True)  # ok: fake's graph is built once, outside the critic loop, and reused by each critic step
        d_opt.step()
