"""TL201: a pass whose outputs reach no backward() in a function that
does not back-propagate itself, every way they go ending their graph
(values stored for an update that detaches them, actions sampled for the
environment). A training step's target pass, detached for its loss, a
pass handed to a criterion of no known class (its forward may
differentiate) or to a storage that keeps it, and a pass detached at
once are not reported this way."""
import torch
import torch.nn.functional as F
from torch import distributions, nn


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Linear(4, 2)
        self.critic = nn.Linear(4, 1)

    def forward(self, state):
        return self.actor(state), self.critic(state)


class Storage:
    def __init__(self):
        self.values = []

    def feed(self, data):
        for k, v in data.items():
            getattr(self, k).append(v)


def update(policy, states, actions, old_log_probs, advantages, optimizer):
    advantages = advantages.detach()
    old_log_probs = old_log_probs.detach()
    for _ in range(4):
        logits, _ = policy(states)
        ratio = (distributions.Categorical(logits=logits).log_prob(actions) - old_log_probs).exp()
        loss = -(ratio * advantages).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def rollout(env, policy, optimizer):
    states, actions, log_probs, values, rewards = [], [], [], [], []
    state, done = env.reset(), False
    while not done:
        state = torch.as_tensor(state, dtype=torch.float32).unsqueeze(0)
        logits, value = policy(state)  # want: TL201(high) "reach no backward\(\).*`values` keeps the outputs of every pass"
        dist = distributions.Categorical(logits=logits)
        action = dist.sample()
        state, reward, done, _ = env.step(action.item())
        states.append(state)
        actions.append(action)
        log_probs.append(dist.log_prob(action))  # want: TL102(high) "no backward\(\) of this step"
        values.append(value)  # want: TL102(high) "no backward\(\) of this step"
        rewards.append(reward)
    returns = torch.tensor(rewards).cumsum(0).flip(0)
    advantages = returns - torch.cat(values).squeeze(-1)
    update(policy, torch.cat(states), torch.cat(actions), torch.cat(log_probs), advantages, optimizer)


def rollout_stored(env, policy, storage):
    state, done = env.reset(), False
    while not done:
        state = torch.as_tensor(state, dtype=torch.float32).unsqueeze(0)
        logits, value = policy(state)  # ok: the storage keeps the value, for a loss nobody here sees
        action = distributions.Categorical(logits=logits).sample()
        state, reward, done, _ = env.step(action.item())
        storage.feed({"values": value})


def dqn_step(q_net, target_net, batch, optimizer, gamma=0.99):
    state, action, reward, next_state = batch
    next_q = target_net(next_state).max(1)[0]  # ok: a training step's target, detached for its loss
    target = reward + gamma * next_q.detach()
    q = q_net(state).gather(1, action.unsqueeze(1)).squeeze(1)
    loss = F.smooth_l1_loss(q, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def critic_loss(critic, critic_target, actor_target, batch, gamma=0.99):
    state, action, reward, next_state = batch
    next_value = critic_target(next_state, actor_target(next_state))  # ok: the loss this returns is back-propagated by its caller
    target = (reward + gamma * next_value).detach()
    return F.mse_loss(critic(state, action), target)


def distill_test(student, teacher, loader, criterions):
    criterion = criterions["kd"]
    losses = []
    for img, _ in loader:
        img.requires_grad = True
        out_s = student(img)
        out_t = teacher(img)  # ok: `criterion` is of no known class, and its forward may differentiate
        losses.append(criterion(out_s, out_t, img).detach())
    return losses


class GradMatch(nn.Module):
    def forward(self, out_s, out_t, img):
        g_s = torch.autograd.grad(out_s.sum(), img, create_graph=True)[0]
        g_t = torch.autograd.grad(out_t.sum(), img)[0]
        return F.mse_loss(g_s, g_t.detach())


def distill_test_known(student, teacher, loader):
    criterion = GradMatch()
    losses = []
    for img, _ in loader:
        img.requires_grad = True
        out_t = teacher(img)  # ok: GradMatch's forward differentiates it
        losses.append(criterion(student(img), out_t, img).detach())
    return losses


class BinDecode(nn.Module):
    def __init__(self, scale=4.0):
        super().__init__()
        self.register_buffer("scale", torch.tensor(scale))

    def forward(self, pred):
        return pred.sigmoid() * self.scale


class TargetMatcher:
    def __init__(self, device):
        self.decode = BinDecode().to(device)

    def match(self, preds, anchors):
        matches = []
        for p in preds:
            boxes = self.decode.forward(p[..., :2])  # ok: a layer without parameters, on predictions whose graph is the model's
            matches.append((boxes - anchors).abs().argmin(0).tolist())
        return matches


def sample_for_discriminator(generator, z, d_step):
    fake = generator(z).detach()  # ok: dropped at once
    d_step(fake)


def main(env, storage, loader, criterions):
    policy = ActorCritic()
    optimizer = torch.optim.Adam(policy.parameters())
    for _ in range(100):
        rollout(env, policy, optimizer)
        rollout_stored(env, policy, storage)
    distill_test(nn.Linear(4, 2), nn.Linear(4, 2), loader, criterions)
    distill_test_known(nn.Linear(4, 2), nn.Linear(4, 2), loader)
