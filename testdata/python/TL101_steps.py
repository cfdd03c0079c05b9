import torch
import torch.nn.functional as F


# A helper's result keeps the graph of the prediction passed to it, through
# arithmetic and names re-bound inside it.
def squared_error(pred, target):
    return ((pred - target) ** 2).mean()


def first_column_error(pred, target):
    pred = pred[:, 0]
    return F.mse_loss(pred, target)


def score(net, batches):
    total = 0
    for xb, yb in batches:
        total += squared_error(net(xb), yb)  # want: TL101 "seen to run through"
    return total


def score_first(net, batches):
    total = 0
    for xb, yb in batches:
        total += first_column_error(net(xb), yb)  # want: TL101 "seen to run through"
    return total


# Hard negative: the helper is given numbers, not a prediction.
def score_numbers(pairs):
    total = 0
    for a, b in pairs:
        total += squared_error(a, b)  # ok: numbers in, a number out
    return total


# Hard negative: tiles of one decoded output blended into the tensor it
# returns, through a helper that scales them.
def blend(tile, weight):
    return tile * weight


def decode_tiles(decoder, tiles, weights):
    canvas = torch.zeros(4, 8)
    for i in range(4):
        canvas[i, :] += blend(decoder(tiles[i]), weights[i])  # ok: one output, returned to the caller
    return canvas


# A loop within one step (its optimizer step follows it) inside a loop of
# steps: the sum lives across the steps of the outer loop.
def fit_parts(net, batches, optim, crit):
    votes = torch.zeros(3)
    for parts, yb in batches:
        step_loss = 0
        for part in parts:
            pred, vote = net.split_forward(part)
            votes = votes + vote  # want: TL101
            step_loss = step_loss + crit(pred, yb)
        optim.zero_grad()
        step_loss.backward()
        optim.step()
    return votes


# Hard negative: a loop over the environments of one update, whose
# optimizer step follows it: the sum lives for that update only.
def update(net, envs, optim):
    total = 0
    grads = []
    for xb, yb in envs:
        env_loss = F.cross_entropy(net(xb), yb)
        total += env_loss  # ok: one update's environments
        grads.append(torch.autograd.grad(env_loss, net.parameters(), retain_graph=True))
    optim.step()
    return total.item()


# Hard negative: the same over minibatches of one update.
def update_minibatches(net, minibatches, optim):
    total = 0
    for xb, yb in minibatches:
        total += F.cross_entropy(net(xb), yb)  # ok: one update's minibatches
    optim.step()
    return total.item()


class Meter:
    def __init__(self):
        self.sums = {"total": 0}
        self.count = 0

    def update(self, val):
        self.sums["total"] += val
        self.count += 1


class Tracker:
    def __init__(self):
        self.meter = Meter()


# A meter reached through an attribute of an object of this file, keeping
# its argument in an element of its own dictionary.
def fit_tracked(net, batches, optim):
    tracker = Tracker()
    for xb, yb in batches:
        objective = F.mse_loss(net(xb), yb)
        optim.zero_grad()
        objective.backward()
        optim.step()
        tracker.meter.update(objective)  # want: TL101 "after its backward"


# Hard negative: the meter is given a number.
def fit_tracked_number(net, batches, optim):
    tracker = Tracker()
    for xb, yb in batches:
        objective = F.mse_loss(net(xb), yb)
        optim.zero_grad()
        objective.backward()
        optim.step()
        tracker.meter.update(objective.item())  # ok: a number


def train_accumulating(model, loader, optimizer, accum):
    running = 0.0
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean() / accum
        loss.backward()
        running += loss  # want: TL101 "until its reset at line \d+"
        if (i + 1) % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
            print(float(running))
            running = 0.0


def train_accumulating_pair(model, loader, optimizer, accum):
    running, seen = 0, 0
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean() / accum
        loss.backward()
        running += loss  # want: TL101 "until its reset at line \d+"
        seen += x.size(0)
        if (i + 1) % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
            print(float(running) / seen)
            running, seen = 0, 0


def validate_decode(encoder, decoder, loader, criterion, steps):
    # A sum over the time steps of one batch's decode, started afresh for
    # each batch: it lives one batch, as the decoder's state does.
    losses = []
    for src, tgt in loader:
        loss = 0
        state = encoder(src)  # want: TL201
        prev = torch.zeros_like(tgt[:, 0])
        for t in range(steps):
            prev, state = decoder(prev, state)
            loss += criterion(prev, tgt[:, t])  # ok: reset for each batch of the loader around it
        losses.append(loss.item())
    return sum(losses) / len(losses)


def validate_epochs(model, loader, criterion, epochs):
    totals = []
    for epoch in range(epochs):
        total = 0
        for x, y in loader:
            total += criterion(model(x), y)  # want: TL101 "no backward" TL201
        totals.append(float(total))
    return totals


G_STEPS = 1
D_STEPS = 3


def adversarial(generator, critic, g_opt, d_opt, epochs, sample):
    g_history, d_history = [], []
    for epoch in range(epochs):
        g_total = 0.0
        for _ in range(G_STEPS):
            g_loss = -critic(generator(sample())).mean()
            g_opt.zero_grad()
            g_loss.backward()
            g_opt.step()
            g_total += g_loss  # ok: G_STEPS is 1, and the total starts afresh each epoch: one step's graph
        g_history.append(g_total / G_STEPS)  # want: TL102 "after its backward"
        d_total = 0.0
        for _ in range(D_STEPS):
            d_loss = critic(generator(sample()).detach()).mean()
            d_opt.zero_grad()
            d_loss.backward()
            d_opt.step()
            d_total += d_loss  # want: TL101 "after its backward"
        d_history.append(float(d_total))
    return g_history, d_history
