import torch

from agents import DQNAgent, ReinforceAgent


def play(env, n_games):
    agent = DQNAgent()
    for _ in range(n_games):
        obs, done = env.reset(), False
        while not done:
            action = env.action_space.sample()
            obs, reward, done, _ = env.step(action)
            agent.remember(torch.as_tensor(obs), action, torch.as_tensor(reward))
            agent.learn()


def play_reinforce(env, n_games):
    agent = ReinforceAgent()
    for _ in range(n_games):
        obs, done = env.reset(), False
        while not done:
            obs, reward, done, _ = env.step(agent.act(torch.as_tensor(obs)))
            agent.rewards.append(reward)
        agent.finish_episode()
