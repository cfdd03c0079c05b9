"""TL201: a rollout whose only way to a backward() would be a running
total that nothing ever reads (`entropy += dist.entropy().mean()`, left
out of the update) ends its graph: the total is TL101's finding, the
pass is an evaluation pass. Where the total goes into the loss, the
rollout trains."""
import torch
import torch.nn as nn
from torch.distributions import Normal


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.critic = nn.Linear(4, 1)
        self.actor = nn.Linear(4, 2)

    def forward(self, x):
        mu = self.actor(x)
        return Normal(mu, mu.exp()), self.critic(x)


def update(model, opt, states, actions, old_log_probs, returns):
    for _ in range(4):
        dist, value = model(states)  # ok: back-propagated below
        ratio = (dist.log_prob(actions) - old_log_probs).exp()
        loss = -(ratio * returns).mean() + (returns - value).pow(2).mean() - 0.001 * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def compute_gae(next_value, rewards, values, gamma=0.99, tau=0.95):
    values = values + [next_value]
    gae = 0
    returns = []
    for step in reversed(range(len(rewards))):
        delta = rewards[step] + gamma * values[step + 1] - values[step]
        gae = delta + gamma * tau * gae
        returns.insert(0, gae + values[step])
    return returns


def ppo(envs, model, opt, iterations):
    state = envs.reset()
    for _ in range(iterations):
        log_probs, values, states, actions, rewards = [], [], [], [], []
        entropy = 0
        for _ in range(20):
            state = torch.as_tensor(state)
            dist, value = model(state)  # want: TL201 "reach no backward"
            action = dist.sample()
            state, reward, done, _ = envs.step(action.cpu().numpy())
            entropy += dist.entropy().mean()  # want: TL101 "no backward"
            log_probs.append(dist.log_prob(action))
            values.append(value)  # want: TL102 "values"
            rewards.append(torch.as_tensor(reward))
            states.append(state)
            actions.append(action)
        _, next_value = model(torch.as_tensor(state))  # ok: TL201 (a note of the rollout's finding)
        returns = torch.cat(compute_gae(next_value, rewards, values)).detach()
        update(model, opt, torch.cat(states), torch.cat(actions), torch.cat(log_probs).detach(), returns)


def a2c(envs, model, opt, iterations):
    state = envs.reset()
    for _ in range(iterations):
        log_probs, values, rewards = [], [], []
        entropy = 0
        for _ in range(20):
            state = torch.as_tensor(state)
            dist, value = model(state)  # ok: the total below is back-propagated
            action = dist.sample()
            state, reward, done, _ = envs.step(action.cpu().numpy())
            entropy += dist.entropy().mean()  # ok: part of the loss
            log_probs.append(dist.log_prob(action))
            values.append(value)
            rewards.append(torch.as_tensor(reward))
        advantage = torch.cat(rewards) - torch.cat(values)
        loss = -(torch.cat(log_probs) * advantage.detach()).mean() + advantage.pow(2).mean() - 0.001 * entropy
        opt.zero_grad()
        loss.backward()
        opt.step()


def main(envs):
    model = ActorCritic()
    opt = torch.optim.Adam(model.parameters())
    ppo(envs, model, opt, 100)
    a2c(envs, model, opt, 100)
