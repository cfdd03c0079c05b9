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


if __name__ == "__main__":
    net = nn.Linear(2, 1)
    o = torch.optim.SGD(net.parameters(), lr=0.1)
    train_logged(net, o, [])
    summed_logged(net, [])
    train_printed(net, o, [])
    meta_step(net, o, [])

