"""Reconstruction by gradient descent in the noise space of a trained
generator: the code is fitted, the generator stays as it is."""
import torch


def reconstruct(x, iters, netG, criterion, latent_dim=10):
    z = torch.zeros(x.shape[0], latent_dim, 1, device=x.device)
    z.requires_grad = True
    optimizer = torch.optim.Adam([z], lr=0.1)
    for _ in range(iters):
        optimizer.zero_grad()
        loss = criterion(x, netG(z))
        loss.backward()
        optimizer.step()
    return z.detach()


def finetune(x, iters, netG, criterion, latent_dim=10):
    optimizer = torch.optim.Adam(netG.parameters(), lr=1e-4)
    for _ in range(iters):
        optimizer.zero_grad()
        loss = criterion(x, netG(torch.randn(x.shape[0], latent_dim, 1)))
        loss.backward()
        optimizer.step()


def tune_head(x, iters, netG, criterion, latent_dim=10):
    weight, bias = netG.head.weight, netG.head.bias
    optimizer = torch.optim.SGD([weight, bias], lr=1e-3)
    for _ in range(iters):
        optimizer.zero_grad()
        loss = criterion(x, netG(torch.randn(x.shape[0], latent_dim, 1)))
        loss.backward()
        optimizer.step()
