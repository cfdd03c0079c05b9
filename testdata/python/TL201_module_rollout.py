"""TL201: a script's rollout, at module level, whose values reach no
backward: the update recomputes its pass and back-propagates that, and
takes the stored values detached. A policy sampled with
`.multinomial(1)` hands the environment a draw, which carries no
gradient: a test episode's pass reaches no backward either."""
import gym
import torch
from torch import nn


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.policy = nn.Linear(4, 2)
        self.value = nn.Linear(4, 1)

    def forward(self, state):
        return self.policy(state).softmax(-1), self.value(state)


def update(model, optimizer, states, returns, values):
    values = values.detach()
    advantages = returns - values
    probs, new_values = model(states)
    loss = -(probs.max(-1).values.log() * advantages).mean() + (returns - new_values).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def test_env(env, model):
    state, done, total = env.reset(), False, 0.0
    while not done:
        policy, _ = model(torch.as_tensor(state).unsqueeze(0))  # want: TL201(high) "in `test_env`"
        state, reward, done, _ = env.step(policy.multinomial(1).item())
        total += reward
    return total


env = gym.make("CartPole-v1")
model = ActorCritic()
optimizer = torch.optim.Adam(model.parameters())
for episode in range(100):
    states, values, rewards = [], [], []
    state, done = env.reset(), False
    while not done:
        state = torch.as_tensor(state).unsqueeze(0)
        policy, value = model(state)  # want: TL201(high) "reach no backward\(\)"
        state, reward, done, _ = env.step(policy.multinomial(1).item())
        states.append(state)
        values.append(value)  # want: TL102 "no backward\(\) of this step"
        rewards.append(reward)
    returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0).unsqueeze(1)
    update(model, optimizer, torch.cat(states), returns, torch.cat(values))
    print(test_env(env, model))
