"""Stores once per epoch, and stores in a loop that trains one model per iteration: TL102 positives and look-alikes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


# A GAN's samples of fixed noise, drawn once per epoch after its loop of
# steps with grad enabled: each kept batch holds that epoch's graph.
def train_gan(gen, disc, loader, g_opt, d_opt, epochs, fixed_noise):
    progress, progress_detached = [], []
    for epoch in range(epochs):
        for real in loader:
            ones, zeros = torch.ones(real.size(0), 1), torch.zeros(real.size(0), 1)
            d_opt.zero_grad()
            fake = gen(torch.randn(real.size(0), 16))
            d_loss = F.binary_cross_entropy_with_logits(disc(fake.detach()), zeros) + \
                F.binary_cross_entropy_with_logits(disc(real), ones)
            d_loss.backward()
            d_opt.step()
            g_opt.zero_grad()
            g_loss = F.binary_cross_entropy_with_logits(disc(fake), ones)
            g_loss.backward()
            g_opt.step()
        grid = gen(fixed_noise)
        progress.append(grid)  # want: TL102 "every epoch's graph.*grid.detach\(\)"
        progress_detached.append(grid.detach().cpu())  # ok: detached, on the host
        with torch.no_grad():
            progress_detached.append(gen(fixed_noise))  # ok: drawn under no_grad
    return progress, progress_detached


# The validation loss of each epoch, computed with grad enabled.
def fit(model, loader, val_x, val_y, optimizer, epochs):
    val_history = []
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            F.mse_loss(model(x), y).backward()
            optimizer.step()
        val_loss = F.mse_loss(model(val_x), val_y)
        val_history.append(val_loss)  # want: TL102 "val_loss.item\(\)"
        val_history.append(val_loss.item())  # ok: a Python float
    return val_history


# An optimizer made afresh each epoch (to reset its state) does not make
# the epochs one model each.
def fit_restarts(model, loader, val_x, val_y, epochs, lr):
    val_history = []
    for epoch in range(epochs):
        optimizer = torch.optim.SGD(model.parameters(), lr=lr * 0.5 ** epoch)
        for x, y in loader:
            optimizer.zero_grad()
            F.mse_loss(model(x), y).backward()
            optimizer.step()
        val_history.append(F.mse_loss(model(val_x), val_y))  # want: TL102 "every epoch's graph"
    return val_history


# One step per level of a coarse-to-fine model: each level has its own
# network and optimizer, so the inner loop runs once per level.
def train_levels(nets, opts, sample, steps):
    for step in range(steps):
        x = sample()
        per_level = []
        for level in range(len(nets)):
            opt = opts[level]
            opt.zero_grad()
            net = nets[level]
            out = net(x)
            per_level.append(out)  # ok: a list made afresh in every step, one output per level
            out.pow(2).mean().backward()
            opt.step()


def train_levels_logged(nets, opts, sample, steps):
    all_levels = []
    for step in range(steps):
        x = sample()
        for level in range(len(nets)):
            net = nets[level]
            opts[level].zero_grad()
            out = net(x)
            all_levels.append(out)  # want: TL102 "after its backward"
            out.pow(2).mean().backward()
            opts[level].step()
    return all_levels


# A loop over pairs of networks and their optimizers, in a function run
# once per step: its list holds one loss per network.
def update_ensemble(members, batch, target):
    member_losses = []
    for net, net_opt in zip(members["nets"], members["opts"]):
        net_opt.zero_grad()
        member_loss = F.mse_loss(net(batch), target)
        member_loss.backward()
        net_opt.step()
        member_losses.append(member_loss)  # ok: one loss per network, in a list of this call
    return member_losses


def fit_ensemble(members, loader):
    for batch, target in loader:
        member_losses = update_ensemble(members, batch, target)


# The same optimizer stepped on every iteration: a loop of steps, whose
# list outlives each of them.
def train_steps(model, optimizer, sample, n_steps):
    step_losses = []
    for i in range(n_steps):
        optimizer.zero_grad()
        step_loss = model(sample()).pow(2).mean()
        step_loss.backward()
        optimizer.step()
        step_losses.append(step_loss)  # want: TL102 "after its backward"
    return step_losses


class MultiAgentTrainer:
    def __init__(self, n_agents):
        self.actors = nn.ModuleList(nn.Linear(4, 2) for _ in range(n_agents))
        self.opts = [torch.optim.Adam(a.parameters()) for a in self.actors]
        self.loss_log = []

    def update(self, obs):
        losses = []
        for i, actor in enumerate(self.actors):
            self.opts[i].zero_grad()
            actor_loss = -actor(obs).mean()
            actor_loss.backward()
            self.opts[i].step()
            losses.append(actor_loss)  # ok: a list of this call, one loss per agent
            self.loss_log.append(actor_loss)  # want: TL102 "after its backward"
        return losses


# Mixed precision: the scaler steps the optimizer of each network.
def update_ensemble_amp(nets, opts, scaler, batch, target):
    losses = []
    for k in range(len(nets)):
        opts[k].zero_grad()
        with torch.autocast("cuda"):
            loss = F.mse_loss(nets[k](batch), target)
        scaler.scale(loss).backward()
        scaler.step(opts[k])
        losses.append(loss)  # ok: one loss per network, in a list of this call
    scaler.update()
    return losses



# Reptile: each task adapts a copy of the model in a few steps with an
# optimizer of its own, then its query loss is kept for the meta-update.
def reptile_step(model, tasks, inner_steps, clone):
    query_losses = []
    for xs, ys, xq, yq in tasks:
        fast = clone(model)
        inner_opt = torch.optim.SGD(fast.parameters(), lr=0.01)
        for _ in range(inner_steps):
            inner_opt.zero_grad()
            F.mse_loss(fast(xs), ys).backward()
            inner_opt.step()
        query_losses.append(F.mse_loss(fast(xq), yq))  # ok: one loss per task of this meta-step, in a list of this call
    return query_losses


# A running total of back-propagated losses, started by an unpacking
# assignment, stored once per epoch: the graphs were back-propagated, the
# chains of autograd nodes stay in host memory.
def train_running(model, loader, criterion, optimizer, epochs):
    train_losses = []
    for _ in range(epochs):
        seen, running_loss = 0, 0
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            running_loss += loss  # noqa: TL101 (TL101's own fixtures hold it)
            seen += len(x)
        train_losses.append(running_loss)  # want: TL102 "after its backward"
    return train_losses
