import copy


def hard_update(target, source):
    target.load_state_dict(source.state_dict())  # optimizers have state dicts too: no module shown


def soft_update(target, source, tau):
    for t, s in zip(target.parameters(), source.parameters()):
        t.data.copy_((1 - tau) * t.data + tau * s.data)


class Agent:
    def __init__(self, make, env):
        self.f = make()
        self.f_target = copy.deepcopy(self.f)
        self.g = make()
        self.g_target = copy.deepcopy(self.g)
        self.env = env

    def sync(self):
        # `soft_update` reads the parameters of what it is given: `self.f`
        # is a module, whatever its name.
        soft_update(self.f_target, self.f, 0.01)
        hard_update(self.g_target, self.g)

    def collect(self, steps):
        state = self.env.reset()
        for _ in range(steps):
            action = self.f(state).argmax(-1).tolist()  # want: TL201(high)
            state, reward, done, info = self.env.step(action)

    def probe(self, steps):
        state = self.env.reset()
        for _ in range(steps):
            action = self.g(state).argmax(-1).tolist()  # nothing shows that `self.g` is a module
            state, reward, done, info = self.env.step(action)


def main(env, make):
    agent = Agent(make, env)
    for epoch in range(10):
        agent.collect(1000)
        agent.probe(1000)
        agent.sync()


if __name__ == "__main__":
    main(make_env(), make_net)
