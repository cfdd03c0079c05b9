"""Helpers whose parameters say nothing of what they are given: only
their callers, in other files, show them modules."""
import matplotlib.pyplot as plt


def show(gen, z, path):
    # Every call hands `gen` a module: its pass only reaches the host.
    images = gen(z)  # want: TL201(high) "only reach the host"
    plt.imshow(images[0].detach().cpu().numpy())
    plt.savefig(path)


def rate(critic, batch):
    return [critic(x).mean().item() for x in batch]  # want: TL201(high) "only reach the host"


def apply(fn, x):
    # A module at one call, a lambda at another: `fn` is not known to be
    # a module.
    return fn(x).sum().item()  # ok: TL201


def render(G, keys):
    # Every call hands `G` a plain table.
    return [G(k) for k in keys]  # ok: TL201


def score_model(model, batches):
    # Every call hands a module, and its outputs only reach the host:
    # nothing rests on the function's name or its parameter's.
    return [model(x).argmax(1).tolist() for x in batches]  # want: TL201(high) "only reach the host"


def fit_step(G, z, optimizer):
    # Every call hands a module, whose outputs are back-propagated here.
    loss = G(z).pow(2).mean()  # ok: TL201
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
