"""TL102: an episode's lists on a module-level agent, back-propagated by another function at the episode's end."""
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.log_probs = []
        self.values = []

    def forward(self, x):
        return torch.distributions.Categorical(logits=self.fc(x))


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters())


def finish_episode(rewards):
    losses = []
    for log_prob, r in zip(policy.log_probs, rewards):
        losses.append(-log_prob * r)
    optimizer.zero_grad()
    torch.stack(losses).sum().backward()
    optimizer.step()
    del policy.log_probs[:]


def log_values():
    print(sum(v.item() for v in policy.values))
    del policy.values[:]


def run(env, episodes):
    for _ in range(episodes):
        state, rewards = env.reset(), []
        for t in range(1000):
            dist = policy(torch.as_tensor(state, dtype=torch.float32))
            action = dist.sample()
            policy.log_probs.append(dist.log_prob(action))  # ok: finish_episode back-propagates them
            policy.values.append(dist.logits.max())  # want: TL102(high)
            state, reward, done, _ = env.step(action.item())
            rewards.append(reward)
            if done:
                break
        finish_episode(rewards)
        log_values()


if __name__ == "__main__":
    run(None, 10)
