from torch import nn

from collector import Collector, watch


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, obs):
        return self.fc(obs)


def evaluate_dqn(env):
    policy = QNet()
    policy.eval()
    collector = Collector(policy, env)
    returns = collector.collect(n_step=1000)  # ok: the collector's own no_grad, by default
    watch(policy, env, 1000)  # ok: reported in `watch`, at its forward pass
    return returns
