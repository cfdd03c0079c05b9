"""TL101: a model's outputs taken apart by a parallel assignment
(`recon, mu = out[0], out[1]`) or unpacked from a name that holds them
(`recon, mu = out`) are that model's outputs, as `recon, mu = net(x)`
is: a term computed from the second one carries the same graph."""
import torch
import torch.nn.functional as F


def train_indexed(coder, optimizer, loader):
    total_kld = 0
    for x in loader:
        optimizer.zero_grad()
        out = coder(x)
        recon, mu = out[0], out[1]
        rec = F.mse_loss(recon, x)
        kld = -0.5 * torch.sum(1 - mu.pow(2))
        loss = rec + kld
        loss.backward()
        total_kld += kld  # want: TL101(high) "`total_kld \+= kld` keeps every step's autograd graph alive after its backward"
        optimizer.step()
    return total_kld


def train_unpacked(phi, optimizer, loader):
    total_kld = 0
    for x in loader:
        optimizer.zero_grad()
        out = phi(x)
        recon, mu = out
        rec = F.mse_loss(recon, x)
        kld = -0.5 * torch.sum(1 - mu.pow(2))
        loss = rec + kld
        loss.backward()
        total_kld += kld  # want: TL101(high) "`total_kld \+= kld`"
        optimizer.step()
    return total_kld


def train_read(net, optimizer, loader):
    total_rec, total_kld = 0.0, 0.0
    for x in loader:
        optimizer.zero_grad()
        recon, mu = net(x)
        rec = F.mse_loss(recon, x)
        kld = -0.5 * torch.sum(1 - mu.pow(2))
        (rec + kld).backward()
        rec_val, kld_val = rec.item(), kld.item()
        total_rec += rec_val  # ok: a number, read in the parallel assignment above
        total_kld += kld_val  # ok: a number
        optimizer.step()
    return total_rec, total_kld


def train_swapped(net, optimizer, loader):
    seen, best = 0, None
    for x in loader:
        optimizer.zero_grad()
        loss = F.mse_loss(net(x), x)
        loss.backward()
        optimizer.step()
        best, seen = seen, len(x)
        seen += best  # ok: counts swapped in a parallel assignment
    return seen
