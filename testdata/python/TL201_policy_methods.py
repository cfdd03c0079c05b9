"""TL201: a policy's own method that runs its forward and hands back what
it draws and the log-probability of the draw (`act`, `sample_normal`),
called to act with the log-probability dropped and the action read on
the host, and called again to learn with the log-probability
back-propagated: the acting call is the evaluation pass, the learning
call is not."""
import torch
import torch.nn as nn
from torch.distributions import Categorical
from torch.distributions.normal import Normal


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return torch.softmax(self.fc(x), dim=1)

    def act(self, state):
        state = torch.from_numpy(state).float().unsqueeze(0)
        probs = self.forward(state).cpu()
        m = Categorical(probs)
        action = m.sample()
        return action.item(), m.log_prob(action)


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu = nn.Linear(8, 2)
        self.sigma = nn.Linear(8, 2)

    def forward(self, state):
        return self.mu(state), self.sigma(state).exp()

    def sample_normal(self, state, reparameterize=True):
        mu, sigma = self.forward(state)
        probabilities = Normal(mu, sigma)
        if reparameterize:
            actions = probabilities.rsample()
        else:
            actions = probabilities.sample()
        action = torch.tanh(actions)
        log_probs = probabilities.log_prob(actions)
        log_probs -= torch.log(1 - action.pow(2) + 1e-6)
        return action, log_probs.sum(1, keepdim=True)


def reinforce(env, policy, opt, episodes):
    for _ in range(episodes):
        saved = []
        state, done = env.reset(), False
        while not done:
            action, log_prob = policy.act(state)  # ok: the log-probabilities are back-propagated below
            saved.append(log_prob)
            state, reward, done, _ = env.step(action)
        loss = -torch.cat(saved).sum() * reward
        opt.zero_grad()
        loss.backward()
        opt.step()


def watch(env, policy):
    state, done = env.reset(), False
    while not done:
        action, _ = policy.act(state)  # want: TL201 "policy.act"
        state, reward, done, _ = env.step(action)


class Agent:
    def __init__(self):
        self.actor = Actor()
        self.opt = torch.optim.Adam(self.actor.parameters())

    def choose_action(self, observation):
        state = torch.tensor([observation])
        actions, _ = self.actor.sample_normal(state, reparameterize=False)  # want: TL201 "sample_normal"
        return actions.cpu().detach().numpy()[0]

    def learn(self, state):
        actions, log_probs = self.actor.sample_normal(state, reparameterize=True)  # ok: back-propagated
        loss = (log_probs - actions).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


def run(env, steps):
    agent = Agent()
    obs = env.reset()
    for _ in range(steps):
        a = agent.choose_action(obs)
        obs, r, done, _ = env.step(a)
        agent.learn(torch.tensor(obs))


def main(env):
    policy = Policy()
    reinforce(env, policy, torch.optim.Adam(policy.parameters()), 1000)
    watch(env, policy)
    run(env, 1000)
