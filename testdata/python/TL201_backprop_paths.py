# Forward passes whose outputs are back-propagated by another function of
# the file: through a helper that back-propagates its argument, through an
# array filled in place and returned, through a distribution's wrapper
# methods. Beside them, the same shapes that evaluate.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class Saliency:
    def __init__(self, model):
        self.model = model

    def input_grads(self, outputs, inputs):
        outputs.sum().backward(inputs=inputs)
        return inputs.grad

    def predict_logits(self, src, label):
        scores = self.model(src)  # ok: `logit` is back-propagated by input_grads
        return scores[:, label], F.softmax(scores, dim=-1)

    def run(self, batches):
        maps = []
        for src in batches:
            src = src.clone().requires_grad_(True)
            logit, _ = self.predict_logits(src, 1)
            maps.append(self.input_grads(logit, src).detach().cpu().numpy())
        return maps

    def predict_probs(self, src):
        scores = self.model(src)  # want: TL201 "in `predict_probs`"
        return F.softmax(scores, dim=-1)

    def report(self, batches):
        return [self.predict_probs(src).argmax(-1).tolist() for src in batches]


def predict(model, data, batch_size=4, evaluate=False):
    chunks = torch.split(torch.from_numpy(data), batch_size, dim=0)
    out = torch.zeros(len(data), 2)
    start = 0
    model.eval()
    if evaluate:
        with torch.no_grad():
            for chunk in chunks:
                out[start:start + len(chunk)] = model(chunk.float())
                start += len(chunk)
    else:
        for chunk in chunks:
            out[start:start + len(chunk)] = model(chunk.float())  # ok: distill_loss back-propagates what predict returns
            start += len(chunk)
    model.train()
    return out


def distill_loss(data, student, teacher):
    return ((predict(student, data) - predict(teacher, data, evaluate=True)) ** 2).mean()


def distill(student, teacher, opt, steps):
    for _ in range(steps):
        loss = distill_loss(np.random.randn(8, 5).astype("float32"), student, teacher)
        opt.zero_grad()
        loss.backward()
        opt.step()


def scores_of(model, data, batch_size=4):
    out = torch.zeros(len(data), 2)
    model.eval()
    for i, chunk in enumerate(torch.split(data, batch_size)):
        out[i * batch_size:(i + 1) * batch_size] = model(chunk)  # want: TL201 "with grad enabled after" TL102(medium) "no backward\(\) of this step"
    return out


def print_scores(model, data):
    print(scores_of(model, data).mean().item())


class Wrapper:
    def dist(self, probs):
        return Categorical(probs)

    def log_probs(self, dist, actions):
        return dist.log_prob(actions)

    def entropy(self, dist):
        return dist.entropy()


class Policy:
    def __init__(self):
        self.actor = nn.Sequential(nn.Linear(4, 3), nn.Softmax(dim=-1))
        self.critic = nn.Linear(4, 1)
        self.wrap = Wrapper()

    def evaluate(self, obs, actions):
        values = self.critic(obs).squeeze(-1)  # ok: evaluate returns the terms of a policy loss
        dist = self.wrap.dist(self.actor(obs))
        return values, self.wrap.log_probs(dist, actions), self.wrap.entropy(dist)


def td_loss(q_net, target_net, s, a, r, s2):
    target_net.eval()
    q_next = target_net(s2)  # want: TL201 "with grad enabled after"
    target = r + 0.99 * q_next.max(1).values.detach()
    return F.mse_loss(q_net(s).gather(1, a).squeeze(1), target)


def train_q(q_net, target_net, batches, opt):
    for s, a, r, s2 in batches:
        loss = td_loss(q_net, target_net, s, a, r, s2)
        opt.zero_grad()
        loss.backward()
        opt.step()


def adapt_and_test(model, tasks, criterion, step_size):
    from torchmeta.utils.gradient_based import gradient_update_parameters

    model.eval()
    accs = []
    for support_x, support_y, query_x, query_y in tasks:
        inner_loss = criterion(model(support_x), support_y)  # ok: differentiated by the inner update
        params = gradient_update_parameters(model, inner_loss, step_size=step_size)
        with torch.no_grad():
            accs.append((model(query_x, params=params).argmax(1) == query_y).float().mean().item())
    return accs


class ReinforcePlayer:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer
        self.log_probs, self.rewards, self.history = [], [], []

    def evaluate(self, board):
        probs = self.model(board)  # ok: its log-probabilities are back-propagated by update
        dist = torch.distributions.Categorical(probs)
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        return action.item()

    def evaluate_logged(self, board):
        probs = self.model(board)  # want: TL201 "self.model\(board\)"
        self.history.append(probs)
        return probs.argmax().item()

    def update(self):
        loss = -torch.stack(self.log_probs).mul(torch.tensor(self.rewards)).sum()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        del self.log_probs[:]
