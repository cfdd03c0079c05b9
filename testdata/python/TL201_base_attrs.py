import torch


class Agent:
    def __init__(self, f, env):
        self.f = f
        self.env = env

    def run_episode(self):
        state, done = self.env.reset(), False
        while not done:
            state, reward, done, info = self.env.step(self.act(state))

    def act(self, state):
        raise NotImplementedError


class QAgent(Agent):
    # `self.f` is assigned by the base class: a value, not a method, so
    # the backward in `learn` shows that it is a module, whatever its name.
    def learn(self, states, targets, optimizer):
        loss = (self.f(states) - targets).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    def act(self, state):
        return self.f(state).argmax(-1).item()  # want: TL201(high)


class Policy:
    def __init__(self, env):
        self.env = env


class Greedy(Policy):
    # `self.g` is assigned by no class of the file: a base class elsewhere
    # may define it as a method, so the backward proves nothing of it.
    def learn(self, states, targets, optimizer):
        loss = (self.g(states) - targets).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    def act(self, state):
        return self.g(state).argmax(-1).item()
