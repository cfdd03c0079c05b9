import torch

from agent import Agent


def test(env, steps):
    agent = Agent()
    agent.actor.eval()
    state = env.reset()
    for _ in range(steps):
        action = agent.select_action(state)  # ok: TL201 (reported in agent.py)
        state, reward, done, _ = env.step(action)
        print(agent.value(torch.as_tensor(state)).mean().item())  # want: TL201 "through `Agent.value`"


if __name__ == "__main__":
    import gym

    test(gym.make("Pendulum-v1"), 200)
