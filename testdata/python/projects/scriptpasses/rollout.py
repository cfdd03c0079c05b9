"""A script's rollout at module level: the values it stores reach the
update detached, and nothing else back-propagates the pass."""
import torch

from model import Policy


def update(policy, optimizer, states, returns, values):
    values = values.detach()
    probs, new_values = policy(states)
    loss = -(probs.max(-1).values.log() * (returns - values)).mean() + (returns - new_values).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters())
for episode in range(10):
    states, values, rewards = [], [], []
    for step in range(20):
        state = torch.randn(1, 4)
        probs, value = policy(state)  # want: TL201 "reach no backward\(\)"
        rewards.append(float(probs.multinomial(1).item()))
        states.append(state)
        values.append(value)
    update(policy, optimizer, torch.cat(states), torch.tensor(rewards).unsqueeze(1), torch.cat(values))
