import torch
import torch.nn.functional as F


def generator_term(d_fake):
    return F.mse_loss(d_fake, torch.ones_like(d_fake))


class LeastSquares(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.loss_fn = torch.nn.MSELoss()

    def generator(self, d_fake):
        return self.loss_fn(d_fake, torch.ones_like(d_fake))

    def discriminator(self, d_real, d_fake):
        real = self.loss_fn(d_real, torch.ones_like(d_real))
        fake = self.loss_fn(d_fake, torch.zeros_like(d_fake))
        return real + fake, real, fake


class Hinge(torch.nn.Module):
    def generator(self, d_fake):
        return -d_fake.mean()


class Critic(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(8, 1)

    def generator(self, fake):
        return -self.net(fake).mean()
