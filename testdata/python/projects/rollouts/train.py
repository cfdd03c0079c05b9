"""A rollout storage back-propagated by each update, beside a history that
only keeps; the action the forward returns is a NumPy number."""
import gym
import torch

from nets import ActorCritic
from storage import History, ImagePool, Rollout


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


def gan(gen, disc, loader, opt_g, opt_d):
    # The pool holds at most fifty generated images: it does not grow.
    pool = ImagePool()
    for z, real in loader:
        fake = gen(z)
        g_loss = -disc(fake).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        fake = pool.query(fake)
        d_loss = disc(fake.detach()).mean() - disc(real).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
