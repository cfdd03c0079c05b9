"""TL101: values that carry no graph, though they sit beside ones that do."""
import numpy as np
import torch
import torch.nn.functional as F


def rampup(epoch, length=16):
    return float(np.clip(epoch / length, 0.0, 1.0))


class SemiLoss:
    def __call__(self, logits_x, targets_x, logits_u, targets_u, epoch):
        lx = F.cross_entropy(logits_x, targets_x)
        lu = torch.mean((torch.softmax(logits_u, dim=1) - targets_u) ** 2)
        return lx, lu, 75.0 * rampup(epoch)


class Meter:
    def __init__(self):
        self.sum = 0

    def update(self, val, n=1):
        self.sum += val * n


def train(model, loader, optimizer, criterion, epoch):
    weights, total = Meter(), 0
    for x, t, u, tu in loader:
        lx, lu, w = criterion(model(x), t, model(u), tu, epoch)
        loss = lx + w * lu
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        weights.update(w, x.size(0))  # ok: a Python float, a factor of the loss
        total += lx  # want: TL101 "keeps every step's autograd graph alive after its backward"
    return weights.sum, float(total)


def rollout(policy, env, steps):
    actions = 0
    for _ in range(steps):
        probs = torch.softmax(policy(torch.as_tensor(env.state())), -1)  # want: TL201 "only reach the host"
        action = probs.multinomial(1)
        actions += action  # ok: a draw, an integer tensor without a graph
        env.step(action.item())
    return actions


def main(model, policy, loader, env):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        train(model, loader, optimizer, SemiLoss(), epoch)
    rollout(policy, env, 100)
