import sys

import torch

from losses import Critic, Hinge, LeastSquares


def train(net_g, net_d, batches):
    adv = LeastSquares()
    opt = torch.optim.Adam(net_g.parameters())
    for z, real in batches:
        fake = net_g(z)
        d_loss, _, _ = adv.discriminator(net_d(real), net_d(fake.detach()))
        g_loss = adv.generator(net_d(fake))
        opt.zero_grad()
        (d_loss + g_loss).backward()
        opt.step()

    g_total = d_total = real_total = 0
    for z, real in batches:
        with torch.no_grad():
            fake = net_g(z)
            d_real, d_fake = net_d(real), net_d(fake)
        g_total += adv.generator(d_fake)  # ok: a loss class's method given outputs computed without grad
        d_loss, d_real_loss, _ = adv.discriminator(d_real, d_fake)
        d_total += d_loss  # ok: the same, one element of its tuple
        real_total += d_real_loss  # ok
    leaked = 0
    for z, real in batches:
        fake = net_g(z)
        leaked += adv.generator(net_d(fake))  # want: TL101 "seen to run through"
    return g_total, d_total, real_total, leaked


def validate(net_g, net_d, batches):
    if sys.argv[1] == "lsgan":
        adv = LeastSquares()
    elif sys.argv[1] == "hinge":
        adv = Hinge()
    else:
        raise ValueError(sys.argv[1])
    for z, _ in batches:
        adv.generator(net_d(net_g(z))).backward()
    total = 0
    for z, _ in batches:
        with torch.no_grad():
            d_fake = net_d(net_g(z))
        total += adv.generator(d_fake)  # ok: either class's method runs no model
    return total


def critic_score(net_g, batches):
    critic = Critic()
    for z, _ in batches:
        critic.generator(net_g(z)).backward()
    total = 0
    for z, _ in batches:
        with torch.no_grad():
            fake = net_g(z)
        total += critic.generator(fake)  # want: TL101 "seen to run through"
    return total
