"""TL201: a model written as functions over module-level tensors that require grad."""
import numpy as np
import torch
import torch.nn.functional as F


def xavier(size):
    return (torch.randn(*size) / np.sqrt(size[0] / 2.0)).requires_grad_()


Wxh, Whz = xavier([784, 128]), xavier([128, 20])
Wzh = torch.randn(20, 784, requires_grad=True)
scale = torch.ones(1)


def Q(X):
    return F.relu(X @ Wxh) @ Whz


def P(z):
    return torch.sigmoid(z @ Wzh)


def normalise(x):
    return x * scale  # ok: a plain tensor, no parameter


def spread():
    return Wzh.std()  # ok: reads the parameters, takes no input


solver = torch.optim.Adam([Wxh, Whz, Wzh], lr=1e-3)
for it, X in enumerate(torch.load("batches.pt")):
    z = Q(normalise(X))
    loss = F.binary_cross_entropy(P(z), X)
    solver.zero_grad()
    loss.backward()
    solver.step()
    if it % 1000 == 0:
        samples = P(z).data.numpy()[:16]  # want: TL201 "only reach the host"
        np.save("samples_%d.npy" % it, samples)
        print(normalise(X).mean().item(), spread().item())
