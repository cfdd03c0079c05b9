"""TL103: what a later backward of the step runs through decides whether the graph must be kept for it."""
import torch
import torch.nn.functional as F
from torch import nn


class Criterion:
    def get_loss(self, out, target):
        return F.cross_entropy(out, target)


class GAN:
    def __init__(self):
        self.G = nn.Linear(8, 16)
        self.D = nn.Linear(16, 2)
        self.optD = torch.optim.Adam(self.D.parameters())
        self.optG = torch.optim.Adam(self.G.parameters())
        self.criterion = Criterion()

    def class_penalty(self, out, target, backward=True):
        # Back-propagates what it is given, and nothing else.
        loss = self.criterion.get_loss(out, target)
        if backward:
            loss.backward(retain_graph=True)
        return loss.item()

    def optimize(self, real, labels, z):
        self.optD.zero_grad()
        pred_real = self.D(real)
        loss_d = F.softplus(-pred_real).mean()
        fake = self.G(z).detach()
        loss_d = loss_d + F.softplus(self.D(fake)).mean()
        loss_d.backward(retain_graph=True)  # want: TL103(high) "last backward through this step's graph"
        self.optD.step()

        self.optG.zero_grad()
        pred_fake = self.D(self.G(z))
        self.class_penalty(pred_fake, labels)  # a new graph: the D step's is not run through again
        F.softplus(-pred_fake).mean().backward()
        self.optG.step()

    def optimize_shared(self, real, labels):
        self.optD.zero_grad()
        pred_real = self.D(real)
        loss_d = F.softplus(-pred_real).mean()
        loss_d.backward(retain_graph=True)  # ok: TL103 the penalty runs through pred_real's graph again
        self.class_penalty(pred_real, labels)
        self.optD.step()

    def optimize_features(self, z, real_feats):
        self.optG.zero_grad()
        out, feats = self.two_heads(self.G(z))
        F.softplus(-out).mean().backward(retain_graph=True)  # ok: TL103 the helper back-propagates the same pass's other output
        diversity_loss(feats, real_feats)
        self.optG.step()

    def two_heads(self, x):
        h = self.D(x)
        return h[:, :1], h[:, 1:]


def diversity_loss(fake_feats, real_feats, backward=True):
    def spread(feats):
        return feats.std(0)

    loss = F.mse_loss(spread(fake_feats), spread(real_feats))
    if backward:
        loss.backward()
    return loss.item()


class SACAgent:
    def __init__(self):
        self.actor = nn.Linear(4, 2)
        self.critic = nn.Linear(6, 1)
        self.critic_opt = torch.optim.Adam(self.critic.parameters())
        self.actor_opt = torch.optim.Adam(self.actor.parameters())
        self.log_alpha = torch.zeros(1)
        self.log_alpha.requires_grad = True
        self.alpha_opt = torch.optim.Adam([self.log_alpha])

    def update(self, states, actions, target, entropy_target):
        q = self.critic(torch.cat([states, actions], 1))
        critic_loss = F.mse_loss(q, target)
        self.critic_opt.zero_grad()
        critic_loss.backward(retain_graph=True)  # want: TL103 "last backward through this step's graph"
        self.critic_opt.step()

        new_actions = self.actor(states)
        entropy = -new_actions.sum(1)
        actor_loss = -self.critic(torch.cat([states, new_actions], 1)).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        # Only the leaf log_alpha carries history here: a graph of its own.
        alpha_loss = ((entropy - entropy_target).detach() * self.log_alpha.exp()).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()

    def update_shared_alpha(self, states, actions, target, entropy):
        alpha = self.log_alpha.exp()
        q = self.critic(torch.cat([states, actions], 1))
        critic_loss = F.mse_loss(q, target) + (alpha * q).mean()
        self.critic_opt.zero_grad()
        critic_loss.backward(retain_graph=True)  # ok: TL103 the alpha loss runs through `alpha`'s exp again
        self.critic_opt.step()
        alpha_loss = (alpha * entropy.detach()).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()
