"""TL102: what a policy's forward pass returns is tensors, or a
distribution where it is sampled: a draw from it (`dist.sample()`)
carries no graph, stored or not (`rsample` does). An actor-critic's
outputs stored for a loss that back-propagates the policies and the
Q-values share the pass the backward runs through: the values stored
beside them, in lists made anew for each rollout, keep nothing past it;
kept across rollouts, or where no backward runs through the pass, they
do."""
import torch
from torch import nn
from torch.distributions import Categorical, Normal


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu = nn.Linear(4, 2)
        self.value = nn.Linear(4, 1)

    def forward(self, state):
        return Normal(self.mu(state), 1.0), self.value(state)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.policy = nn.Linear(4, 2)
        self.q = nn.Linear(4, 2)
        self.v = nn.Linear(4, 1)

    def forward(self, state):
        return self.policy(state).softmax(-1), self.q(state), self.v(state)


def collect(env, model, steps):
    actions, noisy = [], []
    state = env.reset()
    for _ in range(steps):
        dist, value = model(torch.as_tensor(state))
        action = dist.sample()
        actions.append(action)  # ok: TL102 a draw carries no graph
        noisy.append(dist.rsample())  # want: TL102 "no backward\(\) of this step"
        state, reward, done, _ = env.step(action.numpy())
    return actions, noisy


def acer_loss(policies, q_values, values, actions, optimizer):
    loss = 0
    for step in range(len(policies)):
        advantage = (q_values[step] - values[step]).detach()
        loss = loss - (policies[step].gather(1, actions[step]).log() * advantage).mean()
        loss = loss + ((q_values[step].gather(1, actions[step]) - values[step].detach()) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train(env, model, optimizer, frames, num_steps):
    state = env.reset()
    for _ in range(frames):
        policies, q_values, values, actions = [], [], [], []
        for step in range(num_steps):
            policy, q_value, value = model(torch.as_tensor(state).unsqueeze(0))
            action = policy.multinomial(1)
            state, reward, done, _ = env.step(action.item())
            policies.append(policy)
            q_values.append(q_value)
            values.append(value)  # ok: TL102 the backward runs through the pass, and the list ends with the rollout
            actions.append(action)
        acer_loss(policies, q_values, values, actions, optimizer)


def train_keeping_values(env, model, optimizer, frames, num_steps):
    state = env.reset()
    all_values = []
    for _ in range(frames):
        policies, q_values, actions = [], [], []
        for step in range(num_steps):
            policy, q_value, value = model(torch.as_tensor(state).unsqueeze(0))
            action = policy.multinomial(1)
            state, reward, done, _ = env.step(action.item())
            policies.append(policy)
            q_values.append(q_value)
            all_values.append(value)  # want: TL102 "all_values"
            actions.append(action)
        acer_loss(policies, q_values, [v.detach() for v in all_values[-num_steps:]], actions, optimizer)


def rollout_only(env, model, num_steps):
    state = env.reset()
    values = []
    for step in range(num_steps):
        policy, q_value, value = model(torch.as_tensor(state).unsqueeze(0))  # want: TL201 "reach no backward\(\)"
        state, reward, done, _ = env.step(policy.multinomial(1).item())
        values.append(value)  # want: TL102 "no backward\(\) of this step"
    return torch.cat(values).detach()
