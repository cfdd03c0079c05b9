"""TL201: outputs that reach the host through a helper of the project, or a forward that returns NumPy."""
import numpy as np
import torch
from torch import nn
from torchvision.utils import save_image


def denorm(x):
    out = (x + 1) / 2
    return out.clamp_(0, 1)


def gan_step(G, D, loader, fixed_z, every):
    g_opt = torch.optim.Adam(G.parameters())
    for step, real in enumerate(loader):
        z = torch.randn(real.size(0), fixed_z.size(1))
        g_loss = nn.functional.softplus(-D(G(z))).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()
        if step % every == 0:
            fake = G(fixed_z)  # want: TL201 "only reach the host"
            save_image(denorm(fake.data), "sample_%d.png" % step)


def penalty(x):
    return (x ** 2).mean()


def gan_step_penalised(G, D, loader, fixed_z):
    g_opt = torch.optim.Adam(G.parameters())
    for real in loader:
        z = torch.randn(real.size(0), fixed_z.size(1))
        fake = G(z)  # ok: the helper's result is back-propagated
        loss = nn.functional.softplus(-D(fake)).mean() + penalty(denorm(fake))
        g_opt.zero_grad()
        loss.backward()
        g_opt.step()


class TextScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(1000, 64)
        self.out = nn.Linear(64, 32)

    def forward(self, tokens):
        return torch.softmax(self.out(self.emb(tokens)), dim=-1).data.numpy()


def score(batches):
    model = TextScorer()
    top = []
    for tokens in batches:
        probs = model(tokens)  # want: TL201 "only reach the host"
        for p in [probs]:
            top.append(np.argsort(p)[-5:])
    return top


if __name__ == "__main__":
    score([])
    G, D = nn.Linear(8, 4), nn.Linear(4, 1)
    gan_step(G, D, [], torch.randn(4, 8), 10)
    gan_step_penalised(G, D, [], torch.randn(4, 8))


def gibbs(z, steps):
    # P's outputs feed Q, whose outputs feed P on the next step; the
    # chain ends on the host.
    P = nn.Sequential(nn.Linear(10, 784), nn.Sigmoid())
    Q = nn.Linear(784, 10)
    for _ in range(steps):
        x_hat = P(z)  # want: TL201 "only reach the host"
        z = Q(x_hat)
    np.save("samples.npy", x_hat.data.numpy()[:16])


def gibbs_trained(z, steps):
    # ok: the chain's end is back-propagated
    P = nn.Sequential(nn.Linear(10, 784), nn.Sigmoid())
    Q = nn.Linear(784, 10)
    opt = torch.optim.SGD(list(P.parameters()) + list(Q.parameters()), lr=0.1)
    for _ in range(steps):
        x_hat = P(z)
        z = Q(x_hat)
    opt.zero_grad()
    z.sum().backward()
    opt.step()


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu = nn.Linear(4, 2)
        self.log_std = nn.Parameter(torch.zeros(1, 2))

    def forward(self, x):
        return self.mu(x), self.log_std.exp()


gaussian = GaussianPolicy()
critic = nn.Linear(2, 1)


def sample_action(state):
    mean, std = gaussian(torch.as_tensor(state))
    return torch.normal(mean, std)


def rollout(env, steps):
    state = env.reset()
    for _ in range(steps):
        action = sample_action(state)  # want: TL201 "through `sample_action`"
        state, reward, done, _ = env.step(action.data.numpy())


def improve(states, opt):
    for state in states:
        loss = -critic(sample_action(state)).mean()  # ok: the draw is back-propagated through the critic
        opt.zero_grad()
        loss.backward()
        opt.step()


class Squad:
    # Each agent's action, with noise added in place, stored into a
    # buffer the method returns.
    def __init__(self, n):
        self.n = n
        self.actors = [nn.Linear(8, 2) for _ in range(n)]

    def select(self, states):
        actions = torch.zeros(self.n, 2)
        for i in range(self.n):
            a = self.actors[i](states[i]).squeeze()
            a += torch.from_numpy(np.random.randn(2)).float()
            actions[i, :] = torch.clamp(a, -1.0, 1.0)
        return actions

    def select_kept(self, states):
        actions = torch.zeros(self.n, 2)
        for i in range(self.n):
            actions[i, :] = self.actors[i](states[i]).squeeze()
        self.last = actions
        return actions


def squad_rollout(env, steps):
    squad = Squad(2)
    obs = env.reset()
    for _ in range(steps):
        moves = squad.select(torch.as_tensor(obs)).data.numpy()  # want: TL201 "through `Squad.select`"
        obs, reward, done, _ = env.step(moves)
    for _ in range(steps):
        moves = squad.select_kept(torch.as_tensor(obs)).data.numpy()  # ok: the buffer is also kept on the object
        obs, reward, done, _ = env.step(moves)
