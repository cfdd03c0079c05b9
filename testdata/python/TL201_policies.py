"""TL201: actions drawn from a distribution a policy's outputs parameterise."""
import torch
from torch import nn


class Gaussian(nn.Module):
    def __init__(self, obs, act):
        super().__init__()
        self.mu = nn.Linear(obs, act)
        self.log_std = nn.Linear(obs, act)

    def forward(self, s):
        return self.mu(s), self.log_std(s).exp()

    def act(self, s):
        mu, std = self.forward(s)  # want: TL201 "only reach the host"
        return torch.distributions.Normal(mu, std).sample().tanh()

    def act_reparameterised(self, s):
        mu, std = self.forward(s)  # ok: rsample keeps the graph, for the actor's loss
        return torch.distributions.Normal(mu, std).rsample().tanh()

    def log_prob(self, s, a):
        mu, std = self.forward(s)  # ok: a log-probability is a loss term
        return torch.distributions.Normal(mu, std).log_prob(a).sum(-1)


class Agent:
    def __init__(self, obs, act):
        self.pi = Gaussian(obs, act)
        self.opt = torch.optim.Adam(self.pi.parameters())

    def step(self, env_state):
        return self.pi.act(torch.as_tensor(env_state)).numpy()  # ok: reported in `Gaussian.act`

    def update(self, s, a, adv):
        loss = -(self.pi.log_prob(s, a) * adv).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return self.pi.act_reparameterised(s)


if __name__ == "__main__":
    agent = Agent(3, 2)
    print(agent.step([0.0, 1.0, 2.0]))
    agent.update(torch.randn(4, 3), torch.randn(4, 2), torch.randn(4))
