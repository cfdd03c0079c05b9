"""TL201: a rollout's value estimate handed to an update that detaches
it first (`advantages = advantages.detach()`) reaches no backward there:
every use of the parameter ends its graph. An update that back-propagates
through its parameter, or uses it undetached too, takes the graph."""
import torch
import torch.nn.functional as F
from torch import distributions, nn


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Linear(4, 2)
        self.critic = nn.Linear(4, 1)

    def forward(self, state):
        return self.actor(state), self.critic(state)


def update_policy(policy, states, advantages, optimizer):
    advantages = advantages.detach()
    action_pred, _ = policy(states)
    loss = -(action_pred * advantages).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def update_critic(policy, values, returns, optimizer):
    loss = F.mse_loss(values, returns)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def update_mixed(policy, states, advantages, optimizer):
    baseline = advantages.detach().mean()
    action_pred, _ = policy(states)
    loss = -(action_pred * (advantages - baseline)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def rollout(env, policy, optimizer):
    state, done = env.reset(), False
    while not done:
        state = torch.FloatTensor(state).unsqueeze(0)
        action_pred, value_pred = policy(state)  # want: TL201(high) "only reach the host"
        action = distributions.Categorical(F.softmax(action_pred, dim=-1)).sample()
        state, reward, done, _ = env.step(action.item())
        update_policy(policy, state, value_pred, optimizer)


def rollout_critic(env, policy, optimizer):
    state, done = env.reset(), False
    while not done:
        state = torch.FloatTensor(state).unsqueeze(0)
        action_pred, value_pred = policy(state)  # ok: the critic's loss back-propagates value_pred
        action = distributions.Categorical(F.softmax(action_pred, dim=-1)).sample()
        state, reward, done, _ = env.step(action.item())
        update_critic(policy, value_pred, torch.tensor([reward]), optimizer)


def rollout_mixed(env, policy, optimizer):
    state, done = env.reset(), False
    while not done:
        state = torch.FloatTensor(state).unsqueeze(0)
        action_pred, value_pred = policy(state)  # ok: the update uses advantages undetached too
        action = distributions.Categorical(F.softmax(action_pred, dim=-1)).sample()
        state, reward, done, _ = env.step(action.item())
        update_mixed(policy, state, value_pred, optimizer)


def main(env):
    policy = ActorCritic()
    optimizer = torch.optim.Adam(policy.parameters())
    for _ in range(100):
        rollout(env, policy, optimizer)
        rollout_critic(env, policy, optimizer)
        rollout_mixed(env, policy, optimizer)
