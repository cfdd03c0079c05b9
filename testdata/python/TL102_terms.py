"""TL102: a record made of the terms a back-propagated loss is computed from."""
import torch


def combine(q_loss, forward_err, inverse_err, beta=0.2):
    return (1 - beta) * inverse_err.mean() + beta * forward_err.mean() + q_loss.mean()


def train(model, batches, optimizer):
    history = []
    for states, targets in batches:
        q_loss, forward_err, inverse_err = model(states, targets)
        loss = combine(q_loss, forward_err, inverse_err)
        record = (q_loss.mean(), forward_err.mean(), inverse_err.mean())
        history.append(record)  # want: TL102 "after its backward\(\)"
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return history


def evaluate(model, batches):
    history = []
    for states, targets in batches:
        q_loss, forward_err, inverse_err = model(states, targets)  # want: TL201 "in `evaluate`"
        record = (q_loss.mean(), forward_err.mean())
        history.append(record)  # want: TL102 "no backward\(\) of this step is seen to run through"
    return history
