"""Helpers that only a notebook of the project calls."""
import torch


def select_action(actor, state):
    # The notebook calls it on every step of its episodes, grad enabled.
    probs = actor(torch.as_tensor(state, dtype=torch.float32))  # want: TL201(high) "only reach the host"
    return int(probs.argmax())


def evaluate(net, batches):
    # The notebook calls it under `torch.no_grad()`.
    correct = 0
    for x, y in batches:
        correct += int((net(x).argmax(1) == y).sum())
    return correct


def value_of(critic, state):
    # The notebook calls it once, outside any loop.
    return float(critic(torch.as_tensor(state, dtype=torch.float32)))  # want: TL201(low) "only reach the host"


def learn(actor, opt, states, actions, returns):
    # The notebook's training step: its pass is back-propagated.
    logp = torch.log_softmax(actor(states), 1).gather(1, actions[:, None]).squeeze(1)
    loss = -(logp * returns).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
