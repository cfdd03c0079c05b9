"""TL201: a critic frozen for the generator's step and made trainable
again with `p.requires_grad_(True)` before its own steps has parameters
that require grad where the loop validates it afterwards; a pass while it
is frozen, and one on a critic frozen with `requires_grad_(False)` alone,
record no graph of its parameters."""
import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)


def train(G, loader, val_images, iters, g_opt, d_opt):
    critic = Critic().cuda()
    for iteration in range(iters):
        for p in critic.parameters():
            p.requires_grad_(False)  # the generator's step leaves the critic as it is
        gen_cost = -critic(G(torch.randn(8, 4))).mean()  # ok: TL201 back-propagated into G
        if iteration % 100 == 0:
            frozen_score = critic(val_images)  # ok: TL201 the critic is frozen here
            print(frozen_score.mean().item())
        g_opt.zero_grad()
        gen_cost.backward()
        g_opt.step()
        for p in critic.parameters():
            p.requires_grad_(True)
        for real in loader:
            d_cost = critic(G(torch.randn(8, 4)).detach()).mean() - critic(real).mean()
            d_opt.zero_grad()
            d_cost.backward()
            d_opt.step()
        if iteration % 100 == 0:
            score = critic(val_images)  # want: TL201 "`critic\(val_images\)` runs a forward pass with grad enabled"
            print(score.mean().item())


def train_frozen(G, val_images, iters, g_opt):
    critic = Critic().cuda()
    for p in critic.parameters():
        p.requires_grad_(False)
    for iteration in range(iters):
        gen_cost = -critic(G(torch.randn(8, 4))).mean()  # ok: TL201 back-propagated into G
        g_opt.zero_grad()
        gen_cost.backward()
        g_opt.step()
        if iteration % 100 == 0:
            score = critic(val_images)  # ok: TL201 a frozen critic on data without a graph records none
            print(score.mean().item())
