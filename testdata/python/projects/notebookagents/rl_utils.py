import torch


def train_agent(env, agent, episodes):
    returns = []
    for _ in range(episodes):
        state, done, total = env.reset(), False, 0.0
        while not done:
            action = agent.select_action(state)
            state, reward, done, _ = env.step(action)
            total += reward
        agent.learn()
        returns.append(total)
    return returns


def report(env, agent, episodes):
    with torch.no_grad():
        return [agent.critic_value(env.reset()) for _ in range(episodes)]
