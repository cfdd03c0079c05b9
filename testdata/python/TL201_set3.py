"""TL201: classes seen on real code, each beside its look-alikes."""
from abc import ABC, abstractmethod

import torch
import torch.nn as nn


# A nested helper named for inference that is the training forward pass:
# what it computes reaches a loss through an entry of a returned dict.
def render_rays(nets, rays, chunk=512):
    def inference(net, pts):
        outs = []
        for i in range(0, pts.shape[0], chunk):
            outs += [net(pts[i:i + chunk])]  # ok: its result, an entry of render_rays's dict, is back-propagated
        return torch.cat(outs, 0)

    rgb = inference(nets[0], rays).sigmoid()
    return {"rgb": rgb, "opacity": rgb.mean(-1)}


def fit_rays(nets, opt, batches):
    for rays, target in batches:
        loss = (render_rays(nets, rays)["rgb"] - target).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def render_preview(nets, rays):
    def inference(net, pts):
        return net(pts)  # want: TL201(low)

    rgb = inference(nets[0], rays).sigmoid()
    return {"rgb": rgb}


def show(nets, rays):
    print(render_preview(nets, rays)["rgb"].mean().item())


# A module class without parameters, through an abstract base of the file:
# on an input that needs no grad, its forward pass records nothing.
class Encoding(nn.Module, ABC):
    @property
    @abstractmethod
    def width(self):
        pass


class Fourier(Encoding):
    def __init__(self, n):
        super().__init__()
        self.n = n

    @property
    def width(self):
        return 2 * self.n

    def forward(self, x):
        k = torch.arange(1, self.n + 1, device=x.device) * torch.pi
        return torch.cat([(x * k).sin(), (x * k).cos()], -1)


class LearnedFourier(Encoding):
    def __init__(self, n):
        super().__init__()
        self.proj = nn.Linear(1, n)

    @property
    def width(self):
        return 2 * self.proj.out_features

    def forward(self, x):
        z = self.proj(x)
        return torch.cat([z.sin(), z.cos()], -1)


grid = torch.linspace(0, 1, 50)[:, None]
enc = Fourier(4)
print(enc(grid).shape)  # ok: no parameters, and an input that needs no grad: nothing is recorded
learned = LearnedFourier(4)
print(learned(grid).sum().item())  # want: TL201(low)


# A normalizing flow whose inverse pass is a method named `backward`:
# calling it is not back-propagation.
class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        return x + self.shift

    def backward(self, z):
        return z - self.shift


def plot_flow(state, x, grid):
    flow = Flow()
    flow.load_state_dict(state)
    flow.eval()
    z = flow(x)  # want: TL201(medium)
    xs = flow.backward(grid)
    return z.detach().tolist(), xs.detach().tolist()


class SelfStepping(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    def forward(self, x):
        return self.fc(x)

    def backward(self, loss):
        loss.backward()


def probe_then_step(x):
    stepper = SelfStepping()
    stepper.eval()
    loss = stepper(x).pow(2).mean()  # ok: its own backward method back-propagates the loss
    stepper.backward(loss)


# Outputs that reach the host through unpacked tuples, torch functions that
# join tensors, and the distribution a policy returns.
class TwoHeaded(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.body = nn.Linear(n_in, 32)
        self.value = nn.Linear(32, 1)
        self.adv = nn.Linear(32, n_out)

    def forward(self, x):
        h = torch.relu(self.body(x))
        return self.value(h), self.adv(h)


class Gaussian(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu = nn.Linear(3, 1)

    def forward(self, obs):
        return torch.distributions.Normal(self.mu(obs), 1.0)


class Agent:
    def __init__(self):
        self.q = TwoHeaded(4, 2)
        self.pi = Gaussian()

    def act(self, obs):
        _, adv = self.q(obs)  # want: TL201
        return adv.argmax().item()

    def act_and_learn(self, obs):
        value, adv = self.q(obs)  # ok: the value head is back-propagated
        value.sum().backward()
        return adv.argmax().item()

    def explore(self, obs, noisy):
        dist = self.pi(obs)  # want: TL201
        action = dist.sample() if noisy else dist.mean
        return action.clamp(-1, 1).tolist()

    def act_log_prob(self, obs):
        dist = self.pi(obs)  # ok: returns the log-probability, a loss term for the caller
        action = dist.sample()
        return action, dist.log_prob(action)


def link_scores(model, nodes, src, dst):
    z = model(nodes)  # want: TL201
    pairs = torch.cat((z[src], z[dst]), 1)
    probs = torch.mm(pairs, model.head).softmax(1)[:, 0]
    return probs.detach().cpu().numpy()


def link_loss(model, nodes, src, dst, labels):
    z = model(nodes)  # ok: the pairs it joins reach the returned loss
    pairs = torch.cat((z[src], z[dst]), 1)
    return nn.functional.cross_entropy(torch.mm(pairs, model.head), labels)


def top1(model, images):
    probs = torch.exp(model(images))  # want: TL201
    conf, cls = probs.topk(1, dim=1)
    return cls.squeeze(1).tolist()


def top1_scored(model, images):
    probs = torch.exp(model(images))  # ok: the confidence is returned, where a caller may back-propagate it
    conf, cls = probs.topk(1, dim=1)
    return conf, cls.tolist()


# Fresh noise in a training loop samples the generator every few steps; the
# same input outside any loop is a shape check.
def train_gan(gen, disc, g_opt, d_opt, batches, every):
    for it, real in enumerate(batches):
        z = torch.randn(real.size(0), 8)
        d_loss = nn.functional.softplus(-disc(real)).mean() + nn.functional.softplus(disc(gen(z).detach())).mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
        g_loss = nn.functional.softplus(-disc(gen(z))).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()
        if it % every == 0:
            print(gen(torch.randn(16, 8)).data.mean().item())  # want: TL201


def check_generator(gen):
    gen.eval()
    out = gen(torch.randn(2, 8))  # want: TL201(low) a shape check on random input: one graph
    assert out.shape == (2, 784)


# A parameter whose every caller in the file passes a module is a model,
# whatever its name.
def save_samples(g_xy, noise, n):
    for i in range(n):
        torch.save(g_xy(noise[i]).detach().cpu(), "sample_%d.pt" % i)  # want: TL201


def save_transformed(fn, noise, n):
    for i in range(n):
        torch.save(fn(noise[i]).detach().cpu(), "t_%d.pt" % i)  # ok: every caller passes a function, not a module


save_samples(torch.load("g_xy.pt"), torch.load("noise.pt"), 4)
save_transformed(lambda z: z * 2, torch.load("noise.pt"), 4)


# Random input in a function named for inference: a dry run when only the
# shape of what it gives is read; a sample when its values are.
def infer_output_dim(conv, in_ch, width):
    x = torch.randn(4, in_ch, 50, width)
    x = conv(x)  # ok: a dry run on random input whose shape alone is read
    x = x.transpose(1, 2)
    return x.contiguous().view(4, 50, -1).size(-1)


def generate_codes(decoder, n):
    return decoder(torch.randn(n, 8)).clamp(0, 1).tolist()  # want: TL201


infer_output_dim(nn.Conv2d(3, 8, 3), 3, 32)
generate_codes(nn.Linear(8, 4), 16)


def trace_width(net, steps):
    x = torch.randn(2, 4)
    for _ in range(steps):
        x = net(x)  # ok: one random input made before the loop and passed through again, a dry run
    return x.size(-1)


trace_width(nn.Linear(4, 4), 3)
