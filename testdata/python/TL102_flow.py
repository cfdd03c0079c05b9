"""Stores judged in statement order, through methods, helpers and elements: TL102 positives and look-alikes."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning.pytorch as pl


# A total of the epoch's steps stored once per epoch: the loop of epochs
# runs a loop of steps.
def fit_history(net, batches, optim, epochs):
    history = []
    for epoch in range(epochs):
        running = 0
        for xb, yb in batches:
            step_loss = F.mse_loss(net(xb), yb)
            optim.zero_grad()
            step_loss.backward()
            optim.step()
            running += step_loss.detach()
        history.append(running)  # ok: a detached total
        history.append(step_loss)  # want: TL102 "after its backward"
    return history


# A training loop in a method of an nn.Module: its step loop stores the
# loss it back-propagates.
class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 1)

    def forward(self, x):
        return self.body(x)

    def fit_epoch(self, batches, optim):
        kept = []
        for xb in batches:
            objective = self(xb).pow(2).mean()
            optim.zero_grad()
            objective.backward()
            optim.step()
            kept.append(objective)  # want: TL102 "after its backward"
        return kept

    def gather_layers(self, xb):
        feats = []
        for layer in [self.body]:
            feats.append(layer(xb))  # ok: the outputs of one forward pass, returned to the caller
        return feats


# `self.forward` in a class that leaves forward to its subclasses.
class StepRunner:
    def step(self, xb, yb):
        pred = self.forward(xb)
        objective = ((pred - yb) ** 2).mean()
        return objective, pred

    def run(self, batches, optim):
        preds = []
        for xb, yb in batches:
            objective, pred = self.step(xb, yb)
            optim.zero_grad()
            objective.backward()
            optim.step()
            preds.append(pred)  # want: TL102
        return preds


# A loss function assigned in a base class's constructor.
class BaseTask(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.criterion = F.smooth_l1_loss
        self.step_outputs = []

    def on_train_epoch_end(self):
        self.step_outputs.clear()


class RegressionTask(BaseTask):
    def training_step(self, batch, batch_idx):
        xb, yb = batch
        objective = self.criterion(self(xb), yb)
        self.step_outputs.append(objective)  # want: TL102
        return objective



# A helper that re-binds its parameter before computing the loss.
class HeadTask(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.kept = []

    def head_error(self, pred, yb):
        pred = pred[:, 0]
        return F.mse_loss(pred, yb)

    def training_step(self, batch, batch_idx):
        xb, yb = batch
        err = self.head_error(self(xb), yb)
        self.kept.append(err)  # want: TL102
        return err

    def on_train_epoch_end(self):
        self.kept.clear()


# A reduction of the stored losses into the batch's output dictionary,
# next to the element back-propagated: the list is not back-propagated.
def fit_dicts(net, batches, optim, epochs):
    for epoch in range(epochs):
        losses = []
        for xb in batches:
            out = net(xb)
            optim.zero_grad()
            out["loss"].backward()
            optim.step()
            losses.append(out["loss"])  # want: TL102 "after its backward"
        out["epoch_loss"] = torch.stack(losses).mean()
        print(out)


# Hard negative: the losses stacked and back-propagated together.
def fit_stacked(net, tasks, optim):
    losses = []
    for xb, yb in tasks:
        losses.append(F.mse_loss(net(xb), yb))  # ok: stacked and back-propagated together
    optim.zero_grad()
    torch.stack(losses).sum().backward()
    optim.step()


# Hard negative: the element that was back-propagated is replaced by its
# detached value before the output is kept.
def run_steps(module, batches, optim):
    outputs = []
    for i, batch in enumerate(batches):
        optim.zero_grad()
        result = module.training_step(batch, i)
        result["loss"].backward()
        optim.step()
        result["loss"] = result["loss"].detach()
        outputs.append(result)  # ok: its back-propagated element was detached
    return outputs



class PairedCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.gen = nn.Linear(8, 8)
        self.disc = nn.Linear(8, 1)
        self.opt_d = torch.optim.Adam(self.disc.parameters())

    def forward(self, real, noise):
        losses = []
        for x in [real, noise]:
            self.opt_d.zero_grad()
            loss = -self.disc(real).mean() + self.disc(self.gen(x).detach()).mean()
            losses.append(loss)  # ok: two passes of one step, into a list made by this call
            loss.backward()
            self.opt_d.step()
        return losses[0].item(), losses[1].item()


def critic_history(critic, opt, batches):
    history = []
    for real, noise in batches:
        for x in (real, noise):
            opt.zero_grad()
            loss = critic(x).mean()
            loss.backward()
            opt.step()
            history.append(loss)  # want: TL102 "autograd"
    return history


class Momentum(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        for q, k in zip(self.query.parameters(), self.key.parameters()):
            k.data.copy_(q.data)
            k.requires_grad = False

    def forward(self, x):
        return self.query(x)

    def encode_key(self, x):
        return self.key(x)

    def encode_query(self, x):
        return self.query(x)


def cluster_features(loader):
    net = Momentum(8)
    keys, queries = [], []
    for x in loader:
        keys.append(net.encode_key(x))  # ok: the key encoder's parameters are frozen
        queries.append(net.encode_query(x))  # want: TL102 "autograd"
    return torch.cat(keys), torch.cat(queries)



# A helper of the file that back-propagates the loss it returns: the
# caller's list keeps graphs that have had their backward.
def train_unit(model, optimizer, criterion, x, y):
    optimizer.zero_grad()
    output = model(x)
    loss = criterion(output, y)
    loss.backward()
    optimizer.step()
    return output, (output.argmax(1) == y).sum().item(), loss


def score_unit(model, criterion, x, y):
    output = model(x)
    return output, criterion(output, y)


def train_epoch(model, optimizer, criterion, loader):
    losses, correct = [], 0
    for x, y in loader:
        _, hits, loss = train_unit(model, optimizer, criterion, x, y)
        correct += hits
        losses.append(loss)  # want: TL102 "after its backward"
    return losses, correct


def score_epoch(model, criterion, loader):
    losses = []
    for x, y in loader:
        _, loss = score_unit(model, criterion, x, y)
        losses.append(loss)  # want: TL102 "no backward\(\) of this step is seen"
    return losses


def multi_task_step(model, heads, batch, optimizer):
    # One step of several tasks: each task's backward gathers its own
    # gradients, and the one optimizer step follows the loop.
    optimizer.zero_grad()
    losses, grads = {}, {}
    for name, head in heads.items():
        model.zero_grad()
        loss = head(model(batch["x"]), batch[name])
        losses[name] = loss  # ok: a part of this one step, in a dict made by this call
        loss.backward()
        grads[name] = [p.grad.clone() for p in model.parameters()]
    optimizer.step()
    return {k: v.item() for k, v in losses.items()}, grads


def multi_task_epochs(model, heads, loader, optimizer):
    history = {name: [] for name in heads}
    for batch in loader:
        optimizer.zero_grad()
        for name, head in heads.items():
            loss = head(model(batch["x"]), batch[name])
            loss.backward()
            history[name].append(loss)  # want: TL102 "after its backward"
        optimizer.step()
    return history


def multi_task_losses(model, heads, batch, optimizer):
    # The same parts of one step, but the dict goes back to the caller,
    # who may keep it: not known to end with the call.
    optimizer.zero_grad()
    losses = {}
    for name, head in heads.items():
        loss = head(model(batch["x"]), batch[name])
        loss.backward()
        losses[name] = loss  # want: TL102 "after its backward"
    optimizer.step()
    return losses
