"""A method's grad mode comes from its callers, through the instances they call it on."""
import torch


class Agent:
    def __init__(self, policy):
        self.policy = policy

    def act(self, obs):
        self.policy.eval()
        return self.policy(obs).argmax(-1).item()  # ok: every caller runs act under no_grad


class Greedy:
    def __init__(self, policy):
        self.policy = policy

    def act(self, obs):
        self.policy.eval()
        return self.policy(obs).argmax(-1).item()  # want: TL201 "after `self.policy.eval\(\)`"


def run(env, policy, episodes):
    agent = None
    agent = Agent(policy)  # bound twice, the first time to None
    for _ in range(episodes):
        obs = env.reset()
        with torch.no_grad():
            action = agent.act(obs)
        env.step(action)


def run_moved(env, policy, device):
    agent = Agent(policy)
    agent = agent.to(device)  # the same object, moved
    with torch.no_grad():
        agent.act(env.reset())


def run_greedy(env, policy, other):
    player = Greedy(policy)
    with torch.no_grad():
        player.act(env.reset())
    player = Greedy(other)
    player.act(env.reset())  # with grad enabled: act is reported in its body


class BaseTrainer:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader

    def validate(self):
        self.model.eval()
        total = 0.0
        with torch.no_grad():
            for x, y in self.loader:
                total += self.validate_step(x, y)
        return total

    def test(self):
        self.model.eval()
        return [self.test_step(x) for x, _ in self.loader]

    def validate_step(self, x, y):
        raise NotImplementedError

    def test_step(self, x):
        raise NotImplementedError


class RegressionTrainer(BaseTrainer):
    def validate_step(self, x, y):
        pred = self.model(x)  # ok: the base class calls validate_step under no_grad
        return (pred - y).pow(2).mean().item()

    def test_step(self, x):
        return self.model(x).tolist()  # want: TL201 "in `test_step`"
