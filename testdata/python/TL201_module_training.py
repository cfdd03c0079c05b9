"""TL201: a training script at module level whose discriminator loss is
printed but never back-propagated (only the gradient penalty is): the
pass on the real batch reaches no backward."""
import torch
from torch import nn

bce = nn.BCELoss()
G = nn.Sequential(nn.Linear(8, 4), nn.Tanh())
D = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())
opt_G = torch.optim.Adam(G.parameters())
opt_D = torch.optim.Adam(D.parameters())


def penalty(critic, real):
    real = real.requires_grad_(True)
    grads = torch.autograd.grad(critic(real).sum(), real, create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


for real in torch.randn(100, 16, 4):
    z = torch.randn(16, 8)
    fake = G(z)
    opt_G.zero_grad()
    g_loss = bce(D(fake), torch.ones(16, 1))  # ok: TL201 back-propagated into G
    g_loss.backward()
    opt_G.step()

    opt_D.zero_grad()
    real_loss = bce(D(real), torch.ones(16, 1))  # want: TL201(high) "reach no backward\(\)"
    fake_loss = bce(D(fake.detach()), torch.zeros(16, 1))
    d_loss = (real_loss + fake_loss) / 2
    gp = penalty(D, real.data)
    gp.backward()
    opt_D.step()
    print(d_loss.item())

