"""TL201: models called as `self.__call__(x)` or as elements of a list of modules."""
import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)

    def fit(self, batches, held_out, opt):
        for x, y in batches:
            loss = nn.functional.cross_entropy(self.__call__(x), y)  # ok: back-propagated
            opt.zero_grad()
            loss.backward()
            opt.step()
        self.eval()
        tags = []
        for x, _ in held_out:
            tags.extend(self.__call__(x).argmax(1).tolist())  # want: TL201 "after `self.eval\(\)`"
        self.train()
        return tags


class Scaler:
    def __call__(self, x):
        return x * 2

    def apply(self, xs):
        return [self.__call__(x).sum().item() for x in xs]  # ok: not a module


class Actor(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, 2)

    def forward(self, obs):
        return torch.tanh(self.fc(obs))


class Team:
    def __init__(self, n_agents, n):
        self.actors = [Actor(n) for _ in range(n_agents)]
        self.scorers = [torch.tanh, torch.sigmoid]
        self.opts = [torch.optim.Adam(a.parameters()) for a in self.actors]

    def act(self, states):
        moves = []
        for i in range(len(self.actors)):
            moves.append(self.actors[i](states[i]).detach().numpy())  # want: TL201 "only reach the host"
        return moves

    def score(self, states):
        return [self.scorers[i](s).sum().item() for i, s in enumerate(states)]  # ok: functions, not modules

    def learn(self, states, targets):
        for i in range(len(self.actors)):
            loss = (self.actors[i](states[i]) - targets[i]).pow(2).mean()  # ok: back-propagated
            self.opts[i].zero_grad()
            loss.backward()
            self.opts[i].step()


class SharedTeam:
    # One actor repeated: `[Actor(n)] * n_agents` holds the same instance.
    def __init__(self, n_agents, n):
        self.actors = [Actor(n)] * n_agents
        self.gates = [torch.tanh] * n_agents

    def act(self, states):
        return [self.actors[i](s).detach().numpy() for i, s in enumerate(states)]  # want: TL201 "only reach the host"

    def gate(self, states):
        return [self.gates[i](s).sum().item() for i, s in enumerate(states)]  # ok: functions, repeated


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])

    def forward(self, x):
        for i in range(len(self.blocks)):
            x = self.blocks[i](x)  # ok: a module's own forward runs in its caller's grad mode
        return x


if __name__ == "__main__":
    team = Team(2, 3)
    team.learn([torch.randn(3)] * 2, [torch.zeros(2)] * 2)
    print(team.act([torch.randn(3)] * 2), team.score([torch.randn(3)] * 2))


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)

    def valid_model(self, feed):
        with torch.no_grad():
            return [self.forward(x).sum().item() for x in feed]


class Wide(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x):
        return self.fc(x)

    def valid_model(self, feed):
        return [self.forward(x).sum().item() for x in feed]  # want: TL201 "outputs only reach the host"


def run_either(wide, feed, held_out):
    if wide:
        model = Wide()
    else:
        model = Small()
    model.eval()
    print(model.valid_model(held_out))  # want: TL201 "after `model.eval\(\)`"


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)

    def valid_model(self, feed):
        with torch.no_grad():
            return [self.forward(x).sum().item() for x in feed]


def run_small_or_tiny(tiny, held_out):
    if tiny:
        model = Tiny()
    else:
        model = Small()
    model.eval()
    print(model.valid_model(held_out))  # ok: the valid_model of either class runs its forward under no_grad


class QuietA(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        with torch.no_grad():
            return self.fc(x)


class QuietB(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))

    def forward(self, x):
        with torch.no_grad():
            return self.fc(x)


class Scorer:
    def __init__(self, wide):
        if wide:
            self.model = QuietB()
        else:
            self.model = QuietA()

    def score(self, batches):
        return [self.model(x).sum().item() for x in batches]  # ok: the forward of either class runs under its own no_grad
