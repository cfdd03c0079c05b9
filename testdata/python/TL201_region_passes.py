"""TL201: one finding per evaluation region, at its first forward pass;
the region's other passes with grad enabled are listed beside it, since
the one no_grad that fixes the first covers them too."""
import torch


def fit(net, opt, criterion, train_loader, val_loader, epochs):
    for epoch in range(epochs):
        net.train()
        for x, y in train_loader:
            opt.zero_grad()
            loss = criterion(net(x), y)
            loss.backward()
            opt.step()
        net.eval()
        train_hits = 0
        for x, y in train_loader:
            train_hits += (net(x).argmax(1) == y).sum().item()  # want: TL201(high) "after `net.eval\(\)`"
        val_hits = 0
        for x, y in val_loader:
            if x.shape[0] > 1:
                val_hits += (net(x).argmax(1) == y).sum().item()  # ok: the same region, listed beside its first pass
            else:
                val_hits += int(net(x[0:1]).argmax() == y[0])  # ok: the same region, listed beside its first pass
        print(epoch, train_hits, val_hits)


def score(net, loader):
    net.eval()
    hits = 0
    with torch.no_grad():
        for x, y in loader:
            hits += (net(x).argmax(1) == y).sum().item()  # ok: under no_grad
    for x, y in loader:
        hits += (net(x).argmax(1) == y).sum().item()  # want: TL201(medium) "after `net.eval\(\)`"
    return hits


def rollout(env, steps):
    # No switch to evaluation mode: each pass is judged by where its
    # outputs go; the second is listed beside the first.
    policy = torch.nn.Linear(4, 2)
    critic = torch.nn.Linear(4, 1)
    obs = env.reset()
    for _ in range(steps):
        action = policy(torch.as_tensor(obs)).argmax().item()  # want: TL201(medium) "only reach the host"
        value = float(critic(torch.as_tensor(obs)))  # ok: the same function, listed beside its first pass
        obs, reward, done, _ = env.step(action)
        print(value, reward)
