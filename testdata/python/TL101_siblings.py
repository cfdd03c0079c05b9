"""TL101: values unpacked with a loss that is back-propagated share its backward."""
import torch


def a2c_losses(returns, values, log_probs):
    advantage = returns - values
    policy_loss = -(advantage.detach() * log_probs).mean()
    value_loss = advantage.pow(2).mean()
    return policy_loss, value_loss, policy_loss + 0.5 * value_loss


def train(model, rollouts, optimizer, log_every):
    policy_sum = value_sum = 0
    for step, (states, returns) in enumerate(rollouts):
        values, log_probs = model(states)
        policy_loss, value_loss, loss = a2c_losses(returns, values, log_probs)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        policy_sum += policy_loss  # want: TL101 "until its reset at line 24 alive after its backward\(\)"
        value_sum += value_loss  # want: TL101 "until its reset at line 24 alive after its backward\(\)"
        if step % log_every == 0:
            print(float(policy_sum), float(value_sum))
            policy_sum = value_sum = 0


def evaluate(model, rollouts):
    value_sum = 0
    for states, returns in rollouts:
        values, log_probs = model(states)  # want: TL201(low)
        policy_loss, value_loss, loss = a2c_losses(returns, values, log_probs)
        value_sum += value_loss  # want: TL101 "no backward\(\) of this loop is seen to run through"
    return float(value_sum)


class Meters:
    def __init__(self):
        self.values = {}

    def update(self, name, value):
        self.values[name] = value

    def loss(self):
        return self.values["loss"]


def train_with_meters(model, loader, optimizer):
    meters = Meters()
    total = 0
    for x, y in loader:
        batch_loss = ((model(x) - y) ** 2).sum()
        total = total + batch_loss  # want: TL101(low) "no backward\(\) of this loop is seen to run through"
        meters.update("loss", batch_loss)
        optimizer.zero_grad()
        meters.loss().backward()
        optimizer.step()
    return float(total)
