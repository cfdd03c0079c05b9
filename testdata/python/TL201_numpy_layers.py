"""A network and a loss written in NumPy, with the method names of
torch's modules: an explicit `object` base makes no module, and their
calls record no graph. A class of the same shape that holds a torch
module runs that module's forward pass."""
import numpy as np
import torch.nn as nn


class Dense(object):
    def __init__(self, n_in, n_out):
        self.w = np.random.randn(n_in, n_out) * 0.01

    def forward(self, x):
        self.x = x
        return x @ self.w


class CrossEntropy(object):
    def forward(self, logits, labels):
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        return float(-np.log(p[np.arange(len(labels)), labels]).mean())


class Policy(object):
    def __init__(self, n_obs, n_act):
        self.net = nn.Sequential(nn.Linear(n_obs, 64), nn.Tanh(), nn.Linear(64, n_act))

    def forward(self, obs):
        return self.net(obs)


def evaluate_numpy(net, batches):
    loss_fn = CrossEntropy()
    total, losses = 0.0, []
    for x, y in batches:
        out = net.forward(x)  # ok: a NumPy layer records no graph
        loss = loss_fn.forward(out, y)
        total += loss  # ok: a float
        losses.append(loss)  # ok: a float
    return total, losses


def rollout(policy, env, steps):
    obs = env.reset()
    for _ in range(steps):
        logits = policy.forward(obs)  # want: TL201 "only reach the host: autograd"
        obs = env.step(int(logits.argmax()))


if __name__ == "__main__":
    print(evaluate_numpy(Dense(784, 10), []))
    rollout(Policy(4, 2), None, 100)


class Stack(object):
    """No torch named, but it runs the layers it is given."""

    def __init__(self, layers):
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def evaluate_stack(stack, batches):
    preds = []
    for x in batches:
        preds.append(stack.forward(x).argmax(1).tolist())  # want: TL201
    return preds


if __name__ == "__main__":
    evaluate_stack(Stack([nn.Linear(4, 4), nn.ReLU()]), [])
