from .base import *


class DQNAgent(BaseAgent):
    def __init__(self, network, env):
        super().__init__(network, env)
        self.network = network

    # BaseAgent.eval_episode, in base.py, calls eval_step with grad on,
    # and the outputs only reach the host: nothing is taken on trust.
    def eval_step(self, state):
        q = self.network(state)  # want: TL201(high) "in `eval_step`"
        return q.argmax(-1).item()

    def learn(self, states, targets, optimizer):
        loss = (self.network(states) - targets).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
