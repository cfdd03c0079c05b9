"""The outputs of a pass go to a function of another file: its facts say
whether the graph ends there, goes on in what it returns, or is
back-propagated."""
import torch
from torch import nn

from choose import ArgmaxChooser, Logger, probabilities, remember, sample_index, td_step


class QNet(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.body = nn.Linear(n_in, n_out)

    def forward(self, x):
        return self.body(x)


class Policy:
    def __init__(self, n_in, n_out):
        self.net = QNet(n_in, n_out)
        self.chooser = ArgmaxChooser()
        self.logger = Logger()
        self.memory = []
        self.optimizer = torch.optim.Adam(self.net.parameters())

    def scores(self, obs):
        return self.net(obs)

    def act(self, obs, legal):
        scores = self.scores(obs)  # want: TL201 "only reach the host, through `Policy.scores`"
        return self.chooser.choose(scores, legal)

    def explore(self, obs):
        out = self.net(obs)  # want: TL201 "only reach the host"
        return sample_index(out).tolist()

    def learn(self, obs, target):
        # ok: td_step back-propagates what it is given
        return td_step(self.net(obs), target, self.optimizer)

    def entropy_step(self, obs):
        # ok: probabilities hands on the graph in its result, which is back-propagated here
        p = probabilities(self.net(obs))
        loss = (p * p.log()).sum()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def act_and_keep(self, obs):
        # ok: remember keeps the scores in a list, which replay() back-propagates
        return remember(self.net(obs), self.memory)

    def act_logged(self, obs):
        # ok: the logger keeps the scores in an attribute of its own
        return self.logger.pick(self.net(obs))

    def replay(self):
        loss = torch.stack(self.memory).logsumexp(-1).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.memory.clear()
