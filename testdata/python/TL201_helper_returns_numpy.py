"""TL201: a helper that returns its samples as a NumPy array, made by
arithmetic on what it detached and bound to a name first, frees the
graph when it returns: the message says that each call still holds it
at its peak, not that it keeps it alive."""
import torch
import torch.nn.functional as F


def sample_images(G, n):
    z = torch.randn(n, 16)
    y = G(z).view(n, 1, 4, 4)
    result = (y.detach().cpu().numpy() + 1) / 2.0
    return result


def train(G, D, loader, opt, log):
    for step, x in enumerate(loader):
        opt.zero_grad()
        F.binary_cross_entropy(D(G(torch.randn(len(x), 16))), torch.ones(len(x), 1)).backward()
        opt.step()
        if step % 100 == 0:
            G.eval()
            log(sample_images(G, 10))  # want: TL201 "`sample_images` returns `\.detach\(\)` of what it computes, which frees them"
            G.train()


def show(G, zs):
    G.eval()
    for z in zs:
        img = G(z).view(1, 4, 4)  # want: TL201 "after `G\.eval\(\)`.*they are freed with the outputs, none of which is kept"
        print(img.sum().item())
