"""The environment loop: each step's losses replace the last ones."""
import torch

from agents import Agents


def run(env, steps, n_agents=3):
    agents = Agents(n_agents, 8, 2)
    obs = env.reset()
    for t in range(steps):
        obs, act, target = env.step(obs)
        a_loss = agents.update_policy(obs)
        c_loss = agents.update_critics(obs, act, target)
        if t % 100 == 0:
            print(t, [l.item() for l in a_loss], [l.item() for l in c_loss])
