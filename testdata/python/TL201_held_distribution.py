"""TL201: a policy that keeps its distribution's class on itself (`self.distribution = torch.distributions.Normal`)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.a1 = nn.Linear(s_dim, 200)
        self.mu = nn.Linear(200, a_dim)
        self.sigma = nn.Linear(200, a_dim)
        self.v = nn.Linear(200, 1)
        self.distribution = torch.distributions.Normal

    def forward(self, x):
        a1 = F.relu6(self.a1(x))
        return 2 * torch.tanh(self.mu(a1)), F.softplus(self.sigma(a1)) + 0.001, self.v(a1)

    def choose_action(self, s):
        self.training = False
        mu, sigma, _ = self.forward(s)  # want: TL201(high) "only reach the host"
        m = self.distribution(mu.view(1, ).data, sigma.view(1, ).data)
        return m.sample().numpy()

    def loss_func(self, s, a, v_t):
        self.train()
        mu, sigma, values = self.forward(s)  # ok: TL201 its log-probability is back-propagated
        td = v_t - values
        m = self.distribution(mu, sigma)
        return (td.pow(2) - m.log_prob(a) * td.detach()).mean()


def work(env, steps):
    net = Net(3, 1)
    opt = torch.optim.Adam(net.parameters())
    s = env.reset()
    for _ in range(steps):
        a = net.choose_action(torch.as_tensor(s[None, :], dtype=torch.float32))
        s, r, done, _ = env.step(a)
        loss = net.loss_func(torch.as_tensor(s[None, :], dtype=torch.float32), torch.as_tensor(a), torch.tensor([[r]]))
        opt.zero_grad()
        loss.backward()
        opt.step()
