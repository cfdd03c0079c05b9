"""A collector that runs its policy under its own no_grad unless asked to keep the graph."""
import torch


class Collector:
    def __init__(self, policy, env):
        self.policy, self.env = policy, env

    def collect(self, n_step, no_grad=True):
        rewards = []
        obs = self.env.reset()
        for _ in range(n_step):
            if no_grad:
                with torch.no_grad():
                    act = self.policy(obs)
            else:
                act = self.policy(obs)  # ok: the branch its default leaves untaken
            obs, reward, done, _ = self.env.step(act.argmax().item())
            rewards.append(reward)
        return rewards


def watch(policy, env, n_step):
    obs = env.reset()
    for _ in range(n_step):
        obs = env.step(policy(obs).argmax().item())[0]  # want: TL201 "policy\(obs\)"
