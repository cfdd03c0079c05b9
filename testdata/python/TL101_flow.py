import torch
import torch.nn.functional as F


# Statement order: a name back-propagated in one loop and summed again in
# a later one.
def fit_then_score(net, train_batches, val_batches, optim):
    for epoch in range(4):
        err = 0
        for xb, yb in train_batches:
            err = err + F.smooth_l1_loss(net(xb), yb)
        optim.zero_grad()
        err.backward()  # the sum of this loop is the training loss
        optim.step()
    err = 0
    for xb, yb in val_batches:
        err = err + F.smooth_l1_loss(net(xb), yb)  # want: TL101 "seen to run through"
    return err.item()


# A name re-bound after the loop to the total does not make the total
# back-propagated.
def fit_mean(net, batches, optim):
    running = 0
    for xb, yb in batches:
        step_loss = F.l1_loss(net(xb), yb)
        optim.zero_grad()
        step_loss.backward()
        optim.step()
        running += step_loss  # want: TL101 "after its backward"
    step_loss = running / 10
    return float(step_loss)


# A parameter of the forward pass re-bound after the loop from the total.
def boost_rounds(booster, batches, optim, crit, weights):
    votes = torch.zeros(5)
    for xb, yb in batches:
        scores, vote = booster.score(xb, weights)
        votes = votes + vote  # want: TL101
        fit = crit(scores, yb)
        optim.zero_grad()
        fit.backward()
        optim.step()
    weights = weights * votes
    return weights


# Hard negative: the total is back-propagated after the loop.
def meta_update(net, tasks, optim):
    meta = 0
    for xb, yb in tasks:
        meta = meta + F.cross_entropy(net(xb), yb)  # ok: back-propagated after the loop
    meta.backward()
    optim.step()


# Hard negative: a list element summed and then back-propagated through a
# name bound from it.
def meta_update_slots(net, tasks, optim):
    slots = [0, 0]
    for xb, yb in tasks:
        slots[0] += F.cross_entropy(net(xb), yb)  # ok: the element is back-propagated through objective
    objective = slots[0] / len(tasks)
    optim.zero_grad()
    objective.backward()
    optim.step()


# Hard negative: of a loss function's tuple, the element back-propagated
# is the loss; the other is what it reports, whatever its position.
def run_epoch(net, batches, compute, optim):
    seen = 0
    for xb, yb in batches:
        shown, objective = compute(net(xb), yb)
        optim.zero_grad()
        objective.backward()
        optim.step()
        seen += shown  # ok: the loss function's second element is what it reports
    return seen


# Hard negative: a method of an object this file cannot see, whose first
# element is back-propagated, returns a count beside it.
def run_counted(net, batches, optim):
    count = 0
    for xb in batches:
        objective, size = net.objective_and_size(xb)
        count += size  # ok: a count returned beside the back-propagated loss
        optim.zero_grad()
        objective.backward()
        optim.step()
    return count


# Hard negative: an object with a backward() of its own (a meter-like
# criterion) is not a tensor; its other methods return what they return.
def run_criterion(net, criterion, xb, yb):
    criterion.add(net(xb), yb)
    criterion.backward()
    return criterion.value()


def run_all(net, criterion, batches):
    total = 0
    for xb, yb in batches:
        total += run_criterion(net, criterion, xb, yb)  # ok: criterion.value() is not a tensor method
    return total


# Hard negative: a loss of another library (a dynamic-graph toolkit whose
# expressions have `backward()` and `value()`), made by a call that shows
# no torch graph: `value()` is its method, and gives a number.
def train_expressions(trainer, batches):
    import dynet as dy

    total = 0.0
    for batch in batches:
        batch_loss = dy.esum([dy.pickneglogsoftmax(s, y) for s, y in batch]) / len(batch)
        total += batch_loss.value()  # ok: `value()` is no tensor method; batch_loss shows a graph only by its backward()
        batch_loss.backward()
        trainer.update()
    return total


# Hard negative: the node of an autograd library written in NumPy, which
# has a `backward()` of its own: `value` is no tensor attribute, but the
# node's array.
def train_nodes(mlp, batches, lr):
    import vugrad as vg

    total = 0.0
    for xb, yb in batches:
        loss = vg.logceloss(mlp(vg.TensorNode(value=xb)), yb)
        total += loss.value  # ok: `value` is no tensor attribute; loss shows a graph only by its backward()
        loss.backward()
        mlp.step(lr)
    return total


def sum_output_losses(model, batches, optim):
    total = 0.0
    for xb, yb in batches:
        out = model(xb, labels=yb)
        optim.zero_grad()
        out.loss.backward()
        optim.step()
        total += out.loss  # want: TL101 "after its backward"
    return total


def train_tensors(net, loss_fn, opt, batches):
    total = 0.0
    for x, y in batches:
        loss = loss_fn(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.mean()  # want: TL101 "after its backward"
    return total


# Hard negative: the sum is re-bound in one branch of an if and the other
# branch re-binds it too; both reach the backward after the if.
def align_update(net, groups, optim, weight):
    feats = net(torch.cat(groups))
    penalty = 0
    if len(groups) > 1:
        for i in range(len(groups) - 1):
            penalty += (feats[i] - feats[i + 1]).pow(2).mean()  # ok: back-propagated through objective
        penalty = penalty / (len(groups) - 1)
    else:
        penalty = feats.var() * weight
    objective = feats.mean() + penalty
    optim.zero_grad()
    objective.backward()
    optim.step()


# Hard negative: the step's losses summed for a log line, the sum started
# afresh in each step.
def fit_logged(net, batches, optim):
    for xb, yb in batches:
        first = F.mse_loss(net(xb), yb)
        second = F.l1_loss(net(xb), yb)
        optim.zero_grad()
        (first + second).backward()
        optim.step()
        shown = 0
        for part in [first, second]:
            shown += part  # ok: reset in each step
        print(float(shown))
