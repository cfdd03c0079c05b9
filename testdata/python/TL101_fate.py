"""TL101: where the running sum goes after the loop decides how sure the finding is."""
import torch
from torch import nn
from tracking import log_metric


def train_logged(model, opt, batches):
    crit = nn.MSELoss()
    total = 0
    for x, y in batches:
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss  # want: TL101(high)
    # Handed to unseen code, but a graph that backward() freed cannot be
    # back-propagated again: where the sum goes changes nothing.
    log_metric("loss", total)


def summed_logged(model, batches):
    crit = nn.MSELoss()
    total = 0
    for x, y in batches:
        total += crit(model(x), y)  # want: TL101(medium)
    log_metric("loss", total)


def train_printed(model, opt, batches):
    crit = nn.MSELoss()
    total = 0
    for x, y in batches:
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss  # want: TL101(high)
    print(f"loss {total / len(batches):.3f}")


def meta_step(model, opt, tasks):
    crit = nn.MSELoss()
    total = 0
    for x, y in tasks:
        total += crit(model(x), y)  # ok: the sum is the loss, back-propagated after the loop
    scaled = total / len(tasks)
    opt.zero_grad()
    scaled.backward()
    opt.step()


def rollout_rewards(decoder, batched_steps, storage, batch):
    # Per-sample sums of one rollout, handed to a buffer that trains on them.
    penalty = torch.zeros(batch)
    rewards = []
    for step in batched_steps:
        out = decoder(step)
        for i in range(batch):
            penalty[i] += ((out[i] - step[i]) ** 2).mean()  # want: TL101(low) "seen to run through"
    rewards.append(-penalty)
    storage.save(rewards)



def merged_task_grads(task_losses, params, n):
    # The last entry merges the remaining tasks; every entry is differentiated.
    losses = [0] * n
    for j in range(n - 1):
        losses[j] = task_losses[j]
    for j in range(n, len(task_losses)):
        losses[-1] += task_losses[j]  # ok: changed in place, then each entry goes to autograd.grad
    losses[-1] /= len(task_losses) - n + 1
    return [torch.autograd.grad(loss, params, retain_graph=True) for loss in losses]


def grad_norm_epoch(model, loader, opt, balance):
    total = 0
    for x, y in loader:
        l1, l2 = model(x, y)
        opt.zero_grad()
        (l1 + l2).backward(retain_graph=True)
        g1 = torch.autograd.grad(l1, model.shared.weight, retain_graph=True, create_graph=True)[0].norm()
        balance(g1).backward()  # the step's last backward frees what the first retained
        opt.step()
        total = total + l1  # want: TL101 "after its backward\(\): no activations"
    return total

if __name__ == "__main__":
    net = nn.Linear(2, 1)
    o = torch.optim.SGD(net.parameters(), lr=0.1)
    train_logged(net, o, [])
    summed_logged(net, [])
    train_printed(net, o, [])
    meta_step(net, o, [])

