"""TL103: a penalty helper that builds its own graph, back-propagates it with retain_graph=True and returns a number."""
import torch
from torch import nn
from torch.autograd import Variable


def wgan_gp(critic, real, fake, weight):
    alpha = torch.rand(real.size(0), 1)
    mixed = alpha * real + (1 - alpha) * fake
    mixed = Variable(mixed, requires_grad=True)  # a leaf: Variable(x) holds x's values, detached
    out = critic(mixed).sum()
    grads = torch.autograd.grad(outputs=out, inputs=mixed, create_graph=True, retain_graph=True)[0]
    penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean() * weight
    penalty.backward(retain_graph=True)  # want: TL103(high) "until `wgan_gp` returns instead of freeing"
    return penalty.item()


def r1_penalty(critic, real, weight):
    x = real.detach().requires_grad_()
    grads = torch.autograd.grad(outputs=critic(x).sum(), inputs=x, create_graph=True)[0]
    penalty = grads.pow(2).sum(1).mean() * weight
    penalty.backward(retain_graph=True)  # want: TL103(high) "`r1_penalty` builds"
    return penalty.item()


def unused_penalty(critic, real):
    x = real.detach().clone().requires_grad_(True)
    grads = torch.autograd.grad(critic(x).sum(), x, create_graph=True)[0]
    penalty = grads.pow(2).mean()
    penalty.backward(retain_graph=True)  # want: TL103(medium) "`unused_penalty` builds and lets go of"
    return float(penalty)


def gp_through_fake(critic, real, fake):
    # fake is not detached: the double backward runs through the caller's graph.
    alpha = torch.rand(real.size(0), 1)
    mixed = alpha * real + (1 - alpha) * fake
    grads = torch.autograd.grad(outputs=critic(mixed).sum(), inputs=mixed, create_graph=True)[0]
    penalty = grads.pow(2).mean()
    penalty.backward(retain_graph=True)  # ok: TL103 the caller may back-propagate fake's graph again
    return penalty.item()


def gp_interp_inline(critic, real, fake):
    # requires_grad_(True) on a value with history keeps it: fake's graph runs on.
    mixed = (0.5 * real + 0.5 * fake).requires_grad_(True)
    grads = torch.autograd.grad(critic(mixed).sum(), mixed, create_graph=True)[0]
    penalty = grads.pow(2).mean()
    penalty.backward(retain_graph=True)  # ok: TL103 the caller may back-propagate fake's graph again
    return penalty.item()


def gp_returned(critic, real):
    x = real.detach().requires_grad_()
    grads = torch.autograd.grad(critic(x).sum(), x, create_graph=True)[0]
    penalty = grads.pow(2).mean()
    penalty.backward(retain_graph=True)  # ok: TL103 the caller gets the penalty and may back-propagate it again
    return penalty


def gp_twice(critic, real):
    x = real.detach().requires_grad_()
    grads = torch.autograd.grad(critic(x).sum(), x, create_graph=True)[0]
    penalty = grads.pow(2).mean()
    penalty.backward(retain_graph=True)  # ok: TL103 a second backward runs through it below
    (grads.abs().mean() * 0.1).backward()
    return penalty.item()


def feature_loss(pred, target):
    loss = (pred - target).pow(2).mean()
    loss.backward(retain_graph=True)  # ok: TL103 pred's graph is the caller's
    return loss.item()


class Trainer:
    def __init__(self):
        self.critic = nn.Linear(4, 1)
        self.gen = nn.Linear(2, 4)
        self.opt = torch.optim.Adam(self.critic.parameters())
        self.last = None

    def gp_kept(self, real):
        x = real.detach().requires_grad_()
        grads = torch.autograd.grad(self.critic(x).sum(), x, create_graph=True)[0]
        penalty = grads.pow(2).mean()
        penalty.backward(retain_graph=True)  # ok: TL103 the penalty is kept on the object
        self.last = penalty
        return penalty.item()

    def critic_step(self, real, z):
        self.opt.zero_grad()
        fake = self.gen(z)
        loss = self.critic(fake.detach()).mean() - self.critic(real).mean()
        loss.backward()
        r1_penalty(self.critic, real, 10.0)
        gp_through_fake(self.critic, real, fake)
        gp_interp_inline(self.critic, real, fake)
        self.gp_kept(real)
        self.opt.step()
        return fake

    def fit(self, loader):
        for real, z in loader:
            fake = self.critic_step(real, z)
            wgan_gp(self.critic, real, fake.detach(), 10.0)
            gp_returned(self.critic, real)
            gp_twice(self.critic, real)

            feature_loss(self.critic(real), real.sum(1, keepdim=True))

