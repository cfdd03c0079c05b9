"""TL201: a method called on a parameter, where every call of the
function in the file passes an instance of one class of the file
(`test(i, model)` after `model = ActorCritic()`), is that class's method."""
import gym
import torch
from torch import nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 64)
        self.fc_pi = nn.Linear(64, 2)
        self.fc_v = nn.Linear(64, 1)

    def pi(self, x, softmax_dim=1):
        return torch.softmax(self.fc_pi(torch.relu(self.fc1(x))), dim=softmax_dim)

    def v(self, x):
        return self.fc_v(torch.relu(self.fc1(x)))


def test(step_idx, model):
    env = gym.make("CartPole-v1")
    score, done = 0.0, False
    s = env.reset()
    while not done:
        prob = model.pi(torch.from_numpy(s).float(), softmax_dim=0)  # want: TL201(medium) "through `ActorCritic.pi`"
        a = Categorical(prob).sample().item()
        s, r, done, _ = env.step(a)
        score += r
    print(step_idx, score)


@torch.no_grad()
def test_quietly(step_idx, model):
    env = gym.make("CartPole-v1")
    s, done = env.reset(), False
    while not done:
        prob = model.pi(torch.from_numpy(s).float(), softmax_dim=0)  # ok: under no_grad
        s, _, done, _ = env.step(Categorical(prob).sample().item())


def train(model, optimizer, batches, steps):
    for step_idx in range(steps):
        for s, a, ret in batches:
            pi = model.pi(s)  # ok: back-propagated below
            loss = -(torch.log(pi.gather(1, a)) * (ret - model.v(s).detach())).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        test(step_idx, model)
        test_quietly(step_idx, model)


model = ActorCritic()
train(model, torch.optim.Adam(model.parameters()), [], 10)
