"""Training and evaluation code that keeps tensors across steps: TL102 positives and look-alikes."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical
import lightning.pytorch as pl


class UNet(nn.Module):
    def __init__(self, blocks, ups):
        super().__init__()
        self.downs = nn.ModuleList(blocks)
        self.ups = nn.ModuleList(ups)
        self.encoder = nn.Linear(8, 8)

    def forward(self, x):
        skips = []
        for down in self.downs:
            x = self.encoder(down(x))
            skips.append(x)  # ok: a skip list built and consumed within one forward pass
        for up, skip in zip(self.ups, reversed(skips)):
            x = up(torch.cat([x, skip], dim=1))
        return x

    def encode_chunks(self, x, chunk_batches):
        parts = []
        for chunk in chunk_batches:
            parts.append(self.encoder(chunk))  # ok: the chunks of one input, concatenated in the same call
        return torch.cat(parts)


def collect_predictions(model, loader):
    all_logits = []
    for x, _ in loader:
        logits = model(x)
        all_logits.append(logits)  # want: TL102 "seen to run through.*activations of any forward pass.*still in memory"
    return torch.cat(all_logits)


def collect_predictions_detached(model, loader):
    all_logits, all_probs, all_ids = [], [], []
    for x, _ in loader:
        logits = model(x)
        all_logits.append(logits.detach())  # ok: detached
        all_probs.append(logits.softmax(-1).cpu().numpy())  # ok: a NumPy array
        all_ids.extend(logits.argmax(-1).tolist())  # ok: Python ints
    return all_logits, all_probs, all_ids


def collect_under_no_grad(model, loader):
    outputs = []
    with torch.no_grad():
        for x, _ in loader:
            outputs.append(model(x))  # ok: recorded under no_grad
    return outputs


def fill_preallocated(model, loader, n, classes):
    preds = torch.zeros(n, classes)
    stats = {}
    for i, (x, _) in enumerate(loader):
        out = model(x)
        preds[i] = out  # want: TL102 "seen to run through"
        stats["last"] = out.detach()  # ok: one slot, overwritten every step
    return preds, stats


def train(model, loader, optimizer):
    criterion = nn.CrossEntropyLoss()
    losses = []
    history = {"loss": [], "acc": []}
    for x, y in loader:
        optimizer.zero_grad()
        out = model(x)
        loss = criterion(out, y)
        loss.backward()
        optimizer.step()
        losses.append(loss)  # want: TL102 "after its backward\(\).*host memory"
        history["loss"].append(loss)  # want: TL102 "host memory.*loss.item\(\)"
        history["acc"].append((out.argmax(1) == y).float().mean())  # ok: a comparison carries no history
    return losses, history


def train_multitask(model, heads, loader, optimizer):
    for x, y in loader:
        feats = model(x)
        task_losses = []
        for head in heads:
            task_losses.append(F.mse_loss(head(feats), y))  # ok: a fresh list each step, summed and back-propagated
        total = sum(task_losses)
        optimizer.zero_grad()
        total.backward()
        optimizer.step()


def train_accumulated(model, loader, optimizer, accum_steps):
    pending = []
    for step, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        pending.append(loss)  # ok: the container itself is back-propagated
        if (step + 1) % accum_steps == 0:
            optimizer.zero_grad()
            torch.stack(pending).mean().backward()
            optimizer.step()
            pending = []


def reinforce_episode(policy, env, optimizer, gamma=0.99):
    state = env.reset()
    log_probs, rewards = [], []
    for t in range(1000):
        probs = policy(torch.as_tensor(state))
        dist = Categorical(probs)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))  # ok: one episode's log-probs, back-propagated below
        state, reward, done, _ = env.step(action.item())
        rewards.append(reward)  # ok: a Python float
        if done:
            break
    returns = torch.tensor(rewards)
    loss = -(torch.stack(log_probs) * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def pipeline_warmup(model, microbatches, backward_step):
    queued = []
    for mb in microbatches:
        queued.append(model(mb))  # ok: a queue whose outputs are popped for their backward
    while queued:
        backward_step(queued.pop(0))


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.history = []
        self.last_batch_outputs = []

    def fit(self, loader):
        for x, y in loader:
            self.optimizer.zero_grad()
            loss = F.mse_loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            self.history.append(loss)  # want: TL102 "host memory"
            self.last_batch_outputs = []
            self.last_batch_outputs.append(self.model(x))  # ok: emptied at every step


class LitClassifier(pl.LightningModule):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.training_step_outputs = []
        self.validation_step_outputs = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.training_step_outputs.append(loss)  # want: TL102 "after its backward\(\)"
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.validation_step_outputs.append(loss)  # ok: Lightning runs validation_step under no_grad
        return loss

    def on_train_epoch_end(self):
        self.log("train_loss", torch.stack(self.training_step_outputs).mean())
        self.training_step_outputs.clear()


model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_loader = [(torch.randn(8, 4), torch.randn(8, 2))]
epoch_outputs = []
for x, y in train_loader:
    out = model(x)
    loss = F.mse_loss(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    epoch_outputs.extend([out, loss])  # want: TL102 "host memory.*store detached tensors"


def translate(encoder, decoder, tokens, max_length=10):
    # A recurrent encoder's outputs, gathered token by token and consumed by
    # the decoder in the same call: one evaluation, not one per step.
    outputs = torch.zeros(max_length, 256)
    hidden = encoder.init_hidden()
    for i in range(len(tokens)):
        out, hidden = encoder(tokens[i], hidden)  # want: TL201 "outputs only reach the host"
        outputs[i] = out[0]  # ok: a per-token loop; the buffer dies with this call
    return decoder(outputs, hidden).argmax(-1).tolist()  # ok: the decoder's pass, listed beside the encoder's


def compare_nets(nets, test_x, epochs):
    for epoch in range(epochs):
        inputs = []
        for net in nets:
            net.eval()
            pred, hidden = net(test_x)  # want: TL201
            inputs.append(hidden)  # ok: a loop over models, and the list is rebuilt every epoch
            net.train()
        print(epoch, [h.mean().item() for h in inputs])


def jacobian_rows(model, loader):
    rows = []
    for x, _ in loader:
        x.requires_grad_(True)
        out = model(x)
        for k in range(out.shape[1]):
            rows.append(torch.autograd.grad(out[:, k].sum(), x, retain_graph=True)[0])  # ok: gradients without create_graph carry no history
    return torch.stack(rows)


from .blocks import *  # noqa: F403


class Stack(nn.Module):
    def __init__(self, conv_model, dim, depth):
        super().__init__()
        self.convs = nn.ModuleList()
        self.heads = nn.ModuleList()
        for _ in range(depth):
            self.convs.append(conv_model(dim, dim))  # ok: a layer built once in the constructor, not a tensor
            self.heads.append(Discriminator())  # ok: likewise, a star-imported module class

    def forward(self, x):
        for conv in self.convs:
            x = conv(x)
        return x


def per_sample_losses(model, loader, optimizer):
    all_losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y, reduction="none")
        loss.mean().backward()
        optimizer.step()
        all_losses.append(loss)  # want: TL102 "store `loss.detach\(\)` instead"
    return all_losses


def attack_steps(model, images, steps):
    outputs = []
    for _ in range(steps):
        output = model(images)
        loss = output.sum()
        loss.backward(retain_graph=True)  # want: TL103
        outputs.append(output)  # want: TL102 "frees none of the activations it saved"
    return outputs


class TargetAgent:
    def __init__(self, make_net):
        self.qn = make_net()
        self.target_qn = make_net()
        for p in self.target_qn.parameters():
            p.requires_grad = False

    def greedy(self, loader):
        q_values = []
        for batch in loader:
            q_value = self.target_qn.forward(batch)
            q_values.append(q_value)  # ok: the target network is frozen: its outputs have no graph
        return torch.cat(q_values).argmax().item()


def marginals(model, x):
    edges = model(x)
    v = edges.logsumexp(-1)
    all_m = []
    for k in range(v.shape[0]):
        marg = torch.autograd.grad(v[k].sum(), edges, create_graph=True)[0]
        all_m.append(marg.sum(0))  # ok: differentiable marginals of one forward pass, stacked for the caller
    return torch.stack(all_m, dim=0)


def train_logging_losses(model, loader, optimizer):
    logged, every = [], []
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        if step % 500 == 0:
            logged.append(loss)  # want: TL102(medium) "after its backward"
        if step % 500 != 0:
            every.append(loss)  # want: TL102 "after its backward"
        if step % 100 == 0 and step > 0 or step == len(loader) - 1:
            logged.append(loss)  # want: TL102(medium) "after its backward"
    return logged, every


def step_metrics(model, batch):
    if batch is None:
        return
    out = model(batch)
    return {"loss": out.mean(), "acc": out.argmax(1).float().mean()}


def log_steps(model, loader):
    losses = []
    for batch in loader:
        metrics = step_metrics(model, batch)
        losses.append(metrics["loss"])  # ok: a helper with a bare `return` beside its dict of results stops no rule on the file
    return losses


def train_recording(model, loader, opt, n):
    accs = np.zeros(n)
    results = {"accuracies": np.zeros(n)}
    kept = torch.zeros(n)
    for i, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        accs[i] = loss  # ok: a NumPy array's element holds a number
        results["accuracies"][i] = loss  # ok: likewise, through a dict of arrays
        kept[i] = loss  # want: TL102 "after its backward"
    return accs, results, kept


def rank_predictions(classifier, loader):
    ranks, scores = [], []
    for x, _ in loader:
        pred = classifier(x)
        ranks.append(torch.argsort(pred, dim=-1, descending=True))  # ok: indices carry no graph
        scores.append(pred.sort(dim=-1).values)  # want: TL102 "stores a tensor"
    return ranks, scores


class QEstimator:
    def __init__(self, n_state, n_actions):
        self.model = nn.Sequential(nn.Linear(n_state, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def predict(self, state):
        with torch.no_grad():
            return self.model(torch.as_tensor(state, dtype=torch.float32))

    def replay(self, memory, replay_size):
        for state, action, next_state, reward, done in random.sample(memory, min(replay_size, len(memory))):
            target = reward + (0.0 if done else 0.9 * float(self.predict(next_state).max()))
            loss = (self.model(torch.as_tensor(state, dtype=torch.float32))[action] - target) ** 2
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()


def make_greedy(estimator, epsilon, n_actions):
    def act(state):
        if random.random() < epsilon:
            return random.randrange(n_actions)
        return int(estimator.predict(state).argmax())

    return act


def q_learning(env, estimator, episodes, replay_size):
    for episode in range(episodes):
        policy = make_greedy(estimator, 0.1, 2)
        state = env.reset()
        done = False
        while not done:
            action = policy(state)
            next_state, reward, done, _ = env.step(action)
            memory.append((state, action, next_state, reward, done))  # ok: the policy is a closure giving an int, not a model
            estimator.replay(memory, replay_size)
            state = next_state


memory = []


def main(env):
    q_learning(env, QEstimator(4, 2), 100, 32)


def eval_outputs(model, loader):
    # A dict of lists grown by concatenation: the tensor to detach is the
    # element, not the list.
    model.eval()
    eval_dict = {}
    for x in loader:
        for k, v in model(x).items():  # want: TL201
            eval_dict[k] = eval_dict.get(k, []) + [v]  # want: TL102 "store `eval_dict.get\(k, \[\]\) \+ \[v.detach\(\)\]` instead"
    return eval_dict
