import torch


def run_episodes(env, agent, episodes):
    # `agent` is a parameter: `get_action` is known by its name alone.
    for _ in range(episodes):
        state, done = env.reset(), False
        while not done:
            action = agent.get_action(state)
            state, reward, done, _ = env.step(action)


def run_quietly(env, agent, steps):
    state = env.reset()
    with torch.no_grad():
        for _ in range(steps):
            state, reward, done, _ = env.step(agent.quiet(state))
