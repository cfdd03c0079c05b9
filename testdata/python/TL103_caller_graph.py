# A step function given a value whose graph its caller made before a
# loop of calls (a critic trained k times on one batch of generated
# samples, its gradient penalty taken through them without a detach):
# each call's backward runs through that graph again, so it must be
# retained. Samples made anew for each call share nothing.
import torch
from trainers import Trainer


class WGAN(Trainer):
    def samples(self, n):
        return self.gen(torch.randn(n, 16))

    def penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1, device=real.device)
        mixed = alpha * real + (1 - alpha) * fake
        out = self.critic(mixed)
        g = torch.autograd.grad(out, mixed, torch.ones_like(out), create_graph=True)[0]
        norm = g.norm(2, dim=1)
        return ((norm - 1) ** 2).mean(), norm.mean().item()

    def critic_step(self, real, fake):
        self.critic.zero_grad()
        gp, _ = self.penalty(real, fake)
        loss = self.critic(fake.detach()).mean() - self.critic(real).mean() + gp
        loss.backward(retain_graph=True)  # ok: TL103 the caller's samples are back-propagated again next call
        self.opt_c.step()
        return loss.item()

    def critic_step_fresh(self, real, fake):
        self.critic.zero_grad()
        gp, _ = self.penalty(real, fake.detach())
        loss = self.critic(fake.detach()).mean() - self.critic(real).mean() + gp
        loss.backward(retain_graph=True)  # want: TL103
        self.opt_c.step()
        return loss.item()

    def train(self):
        for batch in self.loader:
            real = batch[0].cuda()
            fake = self.samples(real.size(0))
            for _ in range(self.k):
                self.critic_step(real, fake)
            for _ in range(self.k):
                fresh = self.samples(real.size(0))
                self.critic_step_fresh(real, fresh)
