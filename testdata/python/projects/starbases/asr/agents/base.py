class BaseAgent:
    def __init__(self, network, env):
        self.network = network
        self.env = env

    def eval_step(self, state):
        raise NotImplementedError

    def eval_episode(self):
        state = self.env.reset()
        done = False
        while not done:
            action = self.eval_step(state)
            state, reward, done, info = self.env.step(action)
