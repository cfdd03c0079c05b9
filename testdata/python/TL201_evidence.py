"""Models recognised by what the code does with them, not by their names."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_fakes(G_AB, loader):
    G_AB.eval()
    fakes = []
    for x in loader:
        fakes.append(G_AB(x).cpu())  # want: TL201 TL102
    return fakes


def score(clf, batches):
    clf.eval()  # only a module has eval(): clf is one
    return [clf(b).argmax(-1) for b in batches]  # want: TL201


def rollout(actor, states):
    total = 0.0
    print(sum(p.numel() for p in actor.parameters()))  # only a module has parameters()
    actor.eval()
    for s in states:
        total += float(actor(s).max())  # want: TL201
    return total


def frozen_rollout(actor, states):
    total = 0.0
    for p in actor.parameters():
        p.requires_grad_(False)
    actor.eval()
    for s in states:
        total += float(actor(s).max())  # ok: no parameter needs a gradient, so no graph is recorded
    return total


def predict(m, xs):
    wrapped = nn.DataParallel(m)  # DataParallel wraps a module
    return [wrapped(x) for x in xs]  # want: TL201


# Hard negatives.


def saliency(clf, x):
    clf.eval()
    x.requires_grad_()  # a tensor has requires_grad_ too: x is not a module
    out = clf(x)  # ok: gradients are the point here
    out.max().backward()
    return x.grad


def validate(clf, batches):
    clf.eval()
    with torch.no_grad():
        return [clf(b) for b in batches]  # ok: grad is disabled


def run_trainer(trainer, batches):
    trainer.eval()  # a trainer has eval() of its own: not evidence of a module
    return [trainer(b) for b in batches]  # ok: not a forward pass we can see


def summarize(df, rows):
    df.eval("c = a + b")  # pandas' eval takes an expression: not a module
    return [df(r) for r in rows]  # ok


def _predict(model, x):
    return model(x)  # ok: its result becomes the loss that fit back-propagates


def supervised_loss(model, x, y):
    pred = _predict(model, x)
    return F.mse_loss(pred, y)


def fit(model, opt, x, y, epochs):
    for _ in range(epochs):
        opt.zero_grad()
        loss = supervised_loss(model, x, y)
        loss.backward()
        opt.step()


def _infer(model, x):
    return model(x)  # want: TL201 "in `_infer`"


def infer_loss(model, x, y):
    return F.mse_loss(_infer(model, x), y).item()



def plot_slope(func, ax):
    # The graph back-propagated may be the input's alone: `z` requires
    # grad, so `func` may be an activation function without parameters.
    z = torch.linspace(-5, 5, 1000)
    z.requires_grad_(True)
    func(z).sum().backward()
    sig = func(z).detach()  # ok: TL201 the graph is the input's
    ax.plot(z.detach().numpy(), sig.numpy())
    ax.plot(z.detach().numpy(), z.grad.numpy())


def plot_probe(net, ax):
    z = torch.linspace(-5, 5, 1000)
    net(z).sum().backward()
    sig = net(z).detach()  # want: TL201
    ax.plot(z.numpy(), sig.numpy())
