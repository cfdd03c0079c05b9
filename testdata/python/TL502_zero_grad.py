"""Training loops that never clear the gradients they step with, against
loops that clear them, accumulate on purpose, or leave it to an engine."""
import deepspeed
import torch
from torch import nn


def train(model, loader, criterion):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()  # want: TL502 "never clears the gradients of `optimizer`"


def train_cleared_once(net, loader, crit, opt):
    opt.zero_grad()
    for x, y in loader:
        crit(net(x), y).backward()
        opt.step()  # want: TL502 "never clears the gradients of `opt`"


def train_gan(G, D, loader, opt_g, opt_d, bce):
    for real in loader:
        fake = G(torch.randn(real.size(0), 100))
        opt_d.zero_grad()
        d_loss = bce(D(real), torch.ones(real.size(0))) + bce(D(fake.detach()), torch.zeros(real.size(0)))
        d_loss.backward()
        opt_d.step()  # ok: cleared just above
        g_loss = bce(D(fake), torch.ones(real.size(0)))
        g_loss.backward()
        opt_g.step()  # want: TL502 "it clears only `opt_d`"


def train_amp(model, loader, optimizer, scaler, criterion):
    step = 0
    while step < 1000:
        x, y = next(loader)
        with torch.autocast("cuda"):
            loss = criterion(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # want: TL502 "gradients of `optimizer`"
        scaler.update()
        step += 1


def train_full_batch(model, loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            criterion(model(x), y).backward()
        optimizer.step()  # want: TL502 "back-propagates \(`\.backward\(\)`, line 50\)"


def train_cleared(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()  # ok: cleared every step


def train_cleared_after(model, loader, optimizer, criterion):
    for x, y in loader:
        criterion(model(x), y).backward()
        optimizer.step()  # ok: cleared after the step, before the next backward
        optimizer.zero_grad()


def train_module_clear(model, loader, optimizer, criterion):
    for x, y in loader:
        model.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()  # ok: the module's zero_grad clears the parameters it steps


def train_grad_none(model, loader, optimizer, criterion):
    for x, y in loader:
        for p in model.parameters():
            p.grad = None
        criterion(model(x), y).backward()
        optimizer.step()  # ok: each gradient is reset by hand


def train_accumulate(model, loader, optimizer, criterion, accum_steps):
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x), y) / accum_steps
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()  # ok: accumulation, cleared under the same condition
            optimizer.zero_grad()


def clear(optimizer):
    optimizer.zero_grad(set_to_none=True)


def train_with_helper(model, loader, optimizer, criterion):
    for x, y in loader:
        clear(optimizer)
        criterion(model(x), y).backward()
        optimizer.step()  # ok: the helper clears


def train_lbfgs(model, x, y, criterion):
    optimizer = torch.optim.LBFGS(model.parameters())

    def closure():
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        return loss

    for _ in range(20):
        optimizer.step(closure)  # ok: the closure clears


def train_deepspeed(model, loader, criterion, config):
    model_engine, optimizer, _, _ = deepspeed.initialize(model=model, config=config)
    for x, y in loader:
        loss = criterion(model_engine(x), y)
        model_engine.backward(loss)
        model_engine.step()  # ok: DeepSpeed's engine clears the gradients in its step


def train_deepspeed_optimizer(model, loader, criterion, config):
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config=config)
    for x, y in loader:
        engine.backward(criterion(engine(x), y))
        optimizer.step()  # ok: the optimizer DeepSpeed wraps is the engine's


class ClearingSGD(torch.optim.SGD):
    def step(self, closure=None):
        super().step(closure)
        self.zero_grad()


def train_clearing_optimizer(model, loader, criterion):
    opt = ClearingSGD(model.parameters(), lr=0.1)
    for x, y in loader:
        criterion(model(x), y).backward()
        opt.step()  # ok: this optimizer's step clears


def train_fresh_optimizer(models, loader, criterion):
    for model in models:
        optimizer = torch.optim.Adam(model.parameters())
        x, y = next(iter(loader))
        criterion(model(x), y).backward()
        optimizer.step()  # ok: a new optimizer and model each iteration


def train_manual_grads(model, loader, optimizer, criterion):
    params = list(model.parameters())
    for x, y in loader:
        grads = torch.autograd.grad(criterion(model(x), y), params)
        for p, g in zip(params, grads):
            p.grad = g
        optimizer.step()  # ok: the gradients are assigned, not added to


def train_scheduler(model, loader, optimizer, scheduler, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        scheduler.step()  # ok: a scheduler steps no gradients


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)
        self.optim = torch.optim.Adam(self.net.parameters())

    def update(self, batches):
        for obs, target in batches:
            loss = (self.net(obs) - target).pow(2).mean()
            self.optim.zero_grad()
            loss.backward()
            self.optim.step()  # ok: cleared through the same attribute

    def update_forgetful(self, batches):
        for obs, target in batches:
            loss = (self.net(obs) - target).pow(2).mean()
            loss.backward()
            self.optim.step()  # want: TL502 "gradients of `self.optim`"


def train_nested_helper(model, loader, optimizer, criterion):
    def reset():
        optimizer.zero_grad(set_to_none=True)

    for x, y in loader:
        reset()
        criterion(model(x), y).backward()
        optimizer.step()  # ok: reset, nested above, clears them


class WeightEMA:
    """Moves a copy of the weights towards the model's: not an optimizer."""

    def __init__(self, model, ema_model, alpha=0.999):
        self.params = list(model.state_dict().values())
        self.ema_params = list(ema_model.state_dict().values())
        self.alpha = alpha

    def step(self):
        for p, e in zip(self.params, self.ema_params):
            e.mul_(self.alpha).add_(p * (1 - self.alpha))


class PlainSGD(object):
    """An optimizer of the project's own, by what its step reads."""

    def __init__(self, params, lr):
        self.params, self.lr = list(params), lr

    def step(self):
        for p in self.params:
            p.data.add_(p.grad, alpha=-self.lr)


def train_with_ema(model, ema_model, loader, optimizer, criterion):
    ema_optimizer = WeightEMA(model, ema_model)
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        ema_optimizer.step()  # ok: a weight EMA, whatever its name


def train_plain_sgd(model, loader, criterion):
    descent = PlainSGD(model.parameters(), lr=0.1)
    for x, y in loader:
        criterion(model(x), y).backward()
        descent.step()  # want: TL502 "gradients of `descent`.*set the `.grad` of its parameters to None"


def train_rollout(model, optimizer, chunks):
    optimizer.zero_grad(set_to_none=True)
    for i, (x, y) in enumerate(chunks):
        accumulating = i < len(chunks) - 1
        torch.nn.functional.mse_loss(model(x), y).backward()
        if not accumulating:
            optimizer.step()  # ok: cleared before the loop, applied once on its last iteration


def train_cleared_once(model, optimizer, loader):
    optimizer.zero_grad()
    for x, y in loader:
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()  # want: TL502 "gradients of `optimizer`"


class SelfClearing(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(8, 8)
        self.dec = nn.Linear(8, 2)

    def forward(self, x, y):
        self.zero_grad()
        return nn.functional.cross_entropy(self.dec(self.enc(x)), y)


def train_self_clearing(batches):
    model = SelfClearing()
    enc_optim = torch.optim.Adam(model.enc.parameters())
    dec_optim = torch.optim.Adam(model.dec.parameters())
    for x, y in batches:
        loss = model(x, y)  # the forward clears the gradients of both halves
        loss.backward()
        enc_optim.step()  # ok
        dec_optim.step()  # ok


class AliasedOptimizers:
    # Two attributes hold the one optimizer the constructor is given;
    # a third holds another.
    def __init__(self, model, optimizer_g, optimizer_d, loader):
        self.model = model
        self.optimizer_g = optimizer_g
        self.gen_opt = optimizer_g
        self.disc_opt = optimizer_d
        self.loader = loader

    def train_epoch(self):
        for x, y in self.loader:
            self.optimizer_g.zero_grad()
            loss = nn.functional.mse_loss(self.model(x), y)
            loss.backward()
            self.gen_opt.step()  # ok: the optimizer that optimizer_g holds
            self.disc_opt.step()  # want: TL502 "it clears only `self.optimizer_g`"


def train_epoch_ema(model, loader, optimizer, ema_optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        ema_optimizer.step()  # ok: every call passes a weight EMA


def train_epoch_two(model, loader, optimizer, second_optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        second_optimizer.step()  # want: TL502 "it clears only `optimizer`"


def fit_with_ema(model, ema_model, loader, criterion):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        train_epoch_ema(model, loader, optimizer, WeightEMA(model, ema_model), criterion)
        train_epoch_two(model, loader, optimizer, torch.optim.SGD(ema_model.parameters(), lr=0.1), criterion)


class InfoGAN:
    def __init__(self, G, D):
        self.G, self.D = G, D
        self.opt_g = torch.optim.Adam(self.G.parameters())
        self.opt_d = torch.optim.Adam(self.D.parameters())
        self.opt_info = torch.optim.Adam(list(self.G.parameters()) + list(self.D.parameters()))
        self.opt_head = torch.optim.Adam(list(self.D.parameters()) + list(self.G.head.parameters()))

    def train(self, loader, info_loss):
        for x, z in loader:
            self.opt_d.zero_grad()
            self.D(x).mean().backward()
            self.opt_d.step()
            self.opt_g.zero_grad()
            self.D(self.G(z)).mean().backward(retain_graph=True)
            self.opt_g.step()
            info_loss(self.D, self.G, z).backward()
            self.opt_info.step()  # ok: opt_d and opt_g, both cleared, hold every module it holds
            self.opt_head.step()  # want: TL502 "it clears only"


class Trainer:
    def __init__(self, model, optimization):
        self.model = model
        self.optimization = optimization  # a wrapper of another file, holding `optimizer`
        self.scaler = torch.cuda.amp.GradScaler()  # want: TL401

    def fit(self, loader):
        for x, y in loader:
            self.optimization.zero_grad()
            self.scaler.scale(self.model(x).sub(y).pow(2).mean()).backward()
            self.scaler.step(self.optimization.optimizer)  # ok: the object that holds it clears it
            self.scaler.update()


class WarmRestarts(torch.optim.lr_scheduler._LRScheduler):
    """A scheduler of the project's own: its step sets the learning rate."""

    def __init__(self, optimizer, period):
        self.period = period
        super().__init__(optimizer)

    def get_lr(self):
        return [lr * (self.last_epoch % self.period) / self.period for lr in self.base_lrs]


def train_warm_restarts(model, loader, criterion):
    optimizer = torch.optim.AdamW(model.parameters())
    scheduler = WarmRestarts(optimizer, 10)
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        scheduler.step()  # ok: a scheduler holds no gradients to clear


class GradRescaler:
    """A class of the project's own whose step reads the gradients."""

    def __init__(self, params):
        self.params = list(params)

    def step(self):
        for p in self.params:
            p.data.add_(p.grad, alpha=-0.01)


def train_rescaler(model, loader, criterion):
    updater = GradRescaler(model.parameters())
    for x, y in loader:
        criterion(model(x), y).backward()
        updater.step()  # want: TL502 "never clears the gradients of `updater`"
