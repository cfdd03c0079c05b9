"""TL201: one epoch function that trains or evaluates by a flag."""
import torch
from torch import nn


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x)


def one_pass(net, opt, batches, learn=True):
    total = 0.0
    for x, y in batches:
        err = nn.functional.l1_loss(net(x), y)
        if learn:
            opt.zero_grad()
            err.backward()
            opt.step()
        total += err.item()
    return total


def main(train_batches, held_out, epochs=3):
    net = Regressor()
    opt = torch.optim.Adam(net.parameters())
    for epoch in range(epochs):
        net.train()
        one_pass(net, opt, train_batches)  # ok: the default flag trains
        net.eval()
        held = one_pass(net, opt, held_out, learn=False)  # want: TL201(high) "with `learn=False`, no backward"
        print(epoch, held)
    net.train()
    one_pass(net, opt, train_batches, True)  # ok: trains, after the switch back


def fine_tune(batches, flag):
    net = Regressor()
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    net.eval()  # batch statistics frozen on purpose
    one_pass(net, opt, batches, learn=True)  # ok: the flag is on, its backward runs
    one_pass(net, opt, batches, learn=flag)  # ok: the flag is not known here


# The backward is under an `if` that is not a parameter: the pass
# back-propagates whatever its caller says.
def every_other(net, opt, batches, learn=True):
    for i, (x, y) in enumerate(batches):
        err = nn.functional.l1_loss(net(x), y)
        if i % 2 == 0:
            opt.zero_grad()
            err.backward()
            opt.step()


def warm_up(batches):
    net = Regressor()
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    net.eval()
    every_other(net, opt, batches, learn=False)  # ok: its backward does not depend on the flag


# One backward under the flag, one outside it: the pass always trains.
def two_losses(net, opt, batches, learn=True):
    for x, y in batches:
        err = nn.functional.l1_loss(net(x), y)
        opt.zero_grad()
        if learn:
            err.backward(retain_graph=True)
        err.pow(2).backward()
        opt.step()


def distil(batches):
    net = Regressor()
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    net.eval()
    two_losses(net, opt, batches, learn=False)  # ok: the second backward runs anyway


# A solver's epoch method, evaluating by `if not cross_valid:`.
class Solver:
    def __init__(self, model, loaders):
        self.model = model
        self.loaders = loaders
        self.opt = torch.optim.Adam(model.parameters())

    def fit(self, epochs):
        for epoch in range(epochs):
            self.model.train()
            self._epoch(cross_valid=False)  # ok: trains
            self.model.eval()
            print(epoch, self._epoch(cross_valid=True))  # want: TL201(high) "with `cross_valid=True`, no backward"

    def _epoch(self, cross_valid=False):
        loader = self.loaders[1] if cross_valid else self.loaders[0]
        total = 0.0
        for x, y in loader:
            loss = nn.functional.mse_loss(self.model(x), y)
            if not cross_valid:
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            total += loss.item()
        return total

    def probe(self):
        self.model.eval()
        with torch.no_grad():
            return self._epoch(cross_valid=True)  # ok: under no_grad


if __name__ == "__main__":
    main([], [])
    distil([])
    warm_up([])
    fine_tune([], True)
    Solver(Regressor(), ([], [])).fit(2)


class Collector:
    """Runs its policy under its own no_grad unless asked to keep the graph."""

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


class GradCollector:
    """The same, told to keep the graph by a call of this file."""

    def __init__(self, policy, env):
        self.policy, self.env = policy, env

    def collect(self, n_step, no_grad=True):
        acts = []
        obs = self.env.reset()
        for _ in range(n_step):
            if no_grad:
                with torch.no_grad():
                    act = self.policy(obs)
            else:
                act = self.policy(obs)  # want: TL201 "self.policy\(obs\)"
            acts.append(act.argmax().item())
            obs = self.env.step(acts[-1])[0]
        return acts


def evaluate_policy(policy, env):
    policy.eval()
    return sum(Collector(policy, env).collect(1000))


def evaluate_with_graph(policy, env):
    policy.eval()
    collector = GradCollector(policy, env)
    return collector.collect(1000, no_grad=False)
