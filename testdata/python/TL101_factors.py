"""TL101, TL102: one factor of a back-propagated product is enough for its graph."""
import gym
import torch

env = gym.make("CartPole-v1")
policy = torch.nn.Linear(4, 2)
critic = torch.nn.Linear(4, 1)
opt = torch.optim.Adam(policy.parameters())


def reinforce(episodes):
    # The reward multiplies the log-prob that carries the graph: what the
    # environment returns is host data, and the score is a number.
    scores = []
    for _ in range(episodes):
        obs, score, done = env.reset(), 0, False
        while not done:
            dist = torch.distributions.Categorical(logits=policy(torch.tensor(obs)))
            action = dist.sample()
            nxt, reward, done, _ = env.step(action.item())
            loss = -dist.log_prob(action) * reward
            opt.zero_grad()
            loss.backward()
            opt.step()
            score += reward
            obs = nxt
        scores.append(score)
    return scores


def reinforce_unpacked(episodes):
    # The same, the state made into a tensor where the loop begins: the
    # statement that unpacks the reward unpacks the next state too.
    scores = []
    for _ in range(episodes):
        obs, score, done = env.reset(), 0, False
        while not done:
            dist = torch.distributions.Categorical(logits=policy(torch.tensor(obs)))
            action = dist.sample()
            obs, reward, done, _ = env.step(action.item())
            loss = dist.log_prob(action) * -reward
            opt.zero_grad()
            loss.backward()
            opt.step()
            score += reward
        scores.append(score)
    return scores


def actor_critic(batches):
    # Both factors are seen to carry a graph: the critic's value is a
    # forward pass, and its running sum keeps every step's graph.
    value_sum = 0
    for states, actions in batches:
        dist = torch.distributions.Categorical(logits=policy(states))
        value = critic(states).squeeze(-1)
        loss = -(dist.log_prob(actions) * value).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        value_sum += value  # want: TL101 "after its backward\(\)"
    return value_sum


def weighted(batches, weigher):
    # Neither factor is seen to carry a graph but through the weigher, an
    # object of unknown kind: its result is back-propagated, so it does.
    total = 0
    for x, y in batches:
        w = weigher.weight(x, y)
        loss = w * 2.0
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += w  # want: TL101 "after its backward\(\)"
    return total


class WeightedMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n


class WeightedTrainer:
    def __init__(self, model, optimizer, criterion):
        self.model, self.optimizer, self.criterion = model, optimizer, criterion
        self.meter = WeightedMeter()
        self.norms = WeightedMeter()

    def _calc_loss(self, pred, target, weight) -> tuple[torch.Tensor, float]:
        weight_sum = weight.sum().item() if weight is not None else pred.shape[0]
        return self.criterion(pred, target), weight_sum

    def _calc_loss_and_norm(self, pred, target) -> tuple[torch.Tensor, torch.Tensor]:
        return self.criterion(pred, target), pred.norm()

    def train(self, loader):
        for x, y, w in loader:
            pred = self.model(x)
            loss, weight_sum = self._calc_loss(pred, y, w)
            loss = loss.sum() / weight_sum
            self.meter.update(loss.item(), weight_sum)  # ok: annotated a float, the divisor of the loss
            _, norm = self._calc_loss_and_norm(pred, y)
            self.norms.update(1.0, norm)  # want: TL101 "adds it into `self.sum`"
            self.optimizer.zero_grad()
            (loss + 0.01 * norm).backward()
            self.optimizer.step()


class EdgeLoss(nn.Module):
    """A loss of the prediction's argmax: its result has no graph."""

    def forward(self, pred, gray):
        pred = pred.argmax(1).float().unsqueeze(1)
        k = torch.ones(1, 1, 3, 3)
        return (nn.functional.conv2d(pred, k) - nn.functional.conv2d(gray, k)).abs().mean()


class SoftEdgeLoss(nn.Module):
    """The same on the prediction's probabilities: its result keeps the graph."""

    def forward(self, pred, gray):
        k = torch.ones(1, 1, 3, 3)
        return (nn.functional.conv2d(pred.softmax(1)[:, 1:], k) - nn.functional.conv2d(gray, k)).abs().mean()


def train_edges(net, loader, opt):
    edge = EdgeLoss()
    soft = SoftEdgeLoss()
    edge_total, soft_total = 0, 0
    for image, gray, mask in loader:
        pred = net(image)
        edge_loss = edge(pred, gray)
        soft_loss = soft(pred, gray)
        opt.zero_grad()
        (nn.functional.cross_entropy(pred, mask) + edge_loss + soft_loss).backward()
        opt.step()
        edge_total += edge_loss  # ok: its forward takes the prediction's argmax
        soft_total += soft_loss  # want: TL101 "after its backward"
    return edge_total, soft_total
