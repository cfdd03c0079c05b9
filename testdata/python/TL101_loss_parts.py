"""Parts of a loss from a loss function given as a parameter or made by a factory, and terms of a model's later outputs."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F


def vae_loss(recon, x, mu, logvar, beta=1.0):
    rec = F.mse_loss(recon, x, reduction="sum")
    kld = -beta * 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return rec + kld, rec, kld


def masked_mse(pred, target, mask):
    n = mask.sum()
    return ((pred - target) ** 2 * mask).sum() / n, n, float(n) / mask.numel()


def make_vae_loss(beta):
    def loss(recon, x, mu, logvar):
        rec = F.binary_cross_entropy(recon, x, reduction="sum")
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        return rec + beta * kld, rec, kld

    return loss


# The loss function is a parameter; every call of train passes one of
# this file, whose tuple holds the loss and the two terms it sums.
def train(model, optimizer, loss_fn, loader, epochs):
    for epoch in range(epochs):
        total, total_rec, total_kld = 0.0, 0, 0
        for x in loader:
            optimizer.zero_grad()
            recon, mu, logvar = model(x)
            loss, rec, kld = loss_fn(recon, x, mu, logvar)
            loss.backward()
            optimizer.step()
            total += loss.item()
            total_rec += rec  # want: TL101 "total_rec \+= rec.*rec.detach\(\)"
            total_kld += kld  # want: TL101 "total_kld \+= kld"
            total_kld += kld.item()  # ok: a Python number
        print(epoch, total, total_rec / len(loader), total_kld / len(loader))


def train_masked(model, optimizer, loss_fn, loader):
    valid, share = 0, 0.0
    for x, y, mask in loader:
        optimizer.zero_grad()
        loss, n, frac = loss_fn(model(x), y, mask)
        loss.backward()
        optimizer.step()
        valid += n  # ok: a count of the mask, which carries no graph
        share += frac  # ok: a Python float
    return valid, share


def main(model, loader, masked_loader, beta):
    optimizer = torch.optim.Adam(model.parameters())
    train(model, optimizer, vae_loss, loader, 10)
    train(model, optimizer, functools.partial(vae_loss, beta=beta), loader, 10)
    train(model, optimizer, make_vae_loss(beta), loader, 10)
    train_masked(model, optimizer, masked_mse, masked_loader)


# A closure from the factory, bound to a name.
def train_beta_vae(model, loader, beta=4.0):
    optimizer = torch.optim.Adam(model.parameters())
    criterion = make_vae_loss(beta)
    kl_sum = 0
    for x in loader:
        optimizer.zero_grad()
        recon, mu, logvar = model(x)
        loss, rec, kld = criterion(recon, x, mu, logvar)
        loss.backward()
        optimizer.step()
        kl_sum += kld  # want: TL101 "kl_sum \+= kld"
    return kl_sum


def train_annealed(model, loader, epochs):
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(epochs):
        rec_sum = 0
        for x in loader:
            optimizer.zero_grad()
            recon, mu, logvar = model(x)
            loss, rec, _ = make_vae_loss(min(1.0, epoch / 10))(recon, x, mu, logvar)
            loss.backward()
            optimizer.step()
            rec_sum += rec  # want: TL101 "rec_sum \+= rec"
        print(epoch, float(rec_sum))


# A model whose class this file cannot see returns its reconstruction and
# the mean of its code: both come from the same forward pass.
def train_autoencoder(model, optimizer, loader, lam):
    rec_sum, reg_sum, code_sum = 0.0, 0, 0
    for x in loader:
        optimizer.zero_grad()
        recon, code = model(x)
        rec = F.mse_loss(recon, x)
        reg = lam * torch.sum(code ** 2)
        loss = rec + reg
        loss.backward()
        optimizer.step()
        rec_sum += rec.item()  # ok: a Python number
        reg_sum += reg  # want: TL101 "reg_sum \+= reg.*after its backward"
        code_sum += code.detach().abs().mean()  # ok: detached
    return rec_sum, reg_sum, code_sum


def train_unpacked_later(model, optimizer, loader):
    aux_sum = 0
    for x, y in loader:
        optimizer.zero_grad()
        outputs = model(x)
        logits, embedding = outputs
        spread = torch.norm(embedding, dim=1).mean()
        loss = F.cross_entropy(logits, y) + 0.1 * spread
        loss.backward()
        optimizer.step()
        aux_sum += spread  # want: TL101 "aux_sum \+= spread"
    return aux_sum


# A loss function whose tuple holds the loss and numbers: the first
# element alone is back-propagated, the others are what it reports.
def train_unseen_loss(model, optimizer, loader, compute_loss):
    seen = 0
    for x, y in loader:
        optimizer.zero_grad()
        loss, n = compute_loss(model(x), y)
        loss.backward()
        optimizer.step()
        seen += n  # ok: compute_loss is not a function this file shows
    return seen


class Augment(nn.Module):
    def forward(self, x, y):
        lam = torch.rand(())
        idx = torch.randperm(x.size(0))
        return lam * x + (1 - lam) * x[idx], y[idx], lam


def train_mixup(model, optimizer, loader):
    augment = Augment()
    lam_sum = 0
    for x, y in loader:
        optimizer.zero_grad()
        x_mix, y_mix, lam = augment(x, y)
        loss = F.mse_loss(model(x_mix), y_mix)
        loss.backward()
        optimizer.step()
        lam_sum += lam  # ok: a random number, not a graph
    return lam_sum


def residual_loss(net, points, rhs):
    # A physics-informed loss over collocation points: each point's
    # backward only reads du/dx from the point's own .grad; the sum is
    # the loss, returned for the caller's backward.
    total = 0.0
    for x in points:
        x = x.reshape(1)
        x.requires_grad = True
        u = net(x)
        u.backward()
        du = x.grad
        total += (u + x * du - rhs(x)) ** 2  # ok: one loss, summed over points and returned
    return total


def fit_points(net, points, rhs, optimizer):
    # A step per point: the sum outlives every step's backward.
    total = 0.0
    for x in points:
        optimizer.zero_grad()
        loss = (net(x) - rhs(x)) ** 2
        loss.backward()
        optimizer.step()
        total += loss  # want: TL101 "after its backward"
    return total


def attack(model, x, y, steps, alpha):
    # Each step's backward moves the input along its gradient: a step of
    # an attack, whose losses kept in the list outlive their backward.
    losses = []
    for _ in range(steps):
        x = x.detach()
        x.requires_grad = True
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        x = x + alpha * x.grad.sign()
        losses.append(loss)  # want: TL102 "after its backward"
    return x, losses


class InstanceHeads(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.heads = nn.ModuleList([nn.Linear(8, 2) for _ in range(n)])

    def instance_eval(self, h, labels):
        # ok: the forward pass calls this method: the loop runs over its heads, within one pass, whatever the name
        total_inst_loss = 0.0
        for i in range(len(self.heads)):
            total_inst_loss += F.cross_entropy(self.heads[i](h), labels[:, i])
        return {"instance_loss": total_inst_loss}

    def forward(self, h, labels):
        return self.instance_eval(h, labels)

    def evaluate(self, loader):
        total = 0.0
        for h, y in loader:
            total += F.cross_entropy(self.heads[0](h), y)  # want: TL101
        return total
