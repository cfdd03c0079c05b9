"""retain_graph=True judged from what each value holds where it is used: TL103 positives and look-alikes."""
import torch
import torch.nn as nn
from tqdm import tqdm


# A parameter beside the batch: nothing shows it carries a graph.
def fit_to_reference(net, batches, optim, reference):
    for xb in batches:
        objective = ((net(xb) - reference) ** 2).mean()
        optim.zero_grad()
        objective.backward(retain_graph=True)  # want: TL103 "two steps' activations"
        optim.step()


# An attribute set nowhere in the class, passed to the model with the
# batch.
class GraphTrainer:
    def fit(self, batches):
        for nodes in batches:
            self.optim.zero_grad()
            emb = self.encoder(self.adjacency, nodes)
            objective = emb.pow(2).mean()
            objective.backward(retain_graph=True)  # want: TL103
            self.optim.step()


# Hard negative: an attribute that another method sets to a model output
# links the steps' graphs.
class CachedTrainer:
    def refresh(self, graph):
        self.cache = self.encoder(graph)

    def fit(self, batches):
        for nodes in batches:
            self.optim.zero_grad()
            objective = self.head(self.cache, nodes).mean()
            objective.backward(retain_graph=True)  # ok: self.cache is a model output set by another method, shared by the steps
            self.optim.step()


# A value computed with grad disabled from a parameter has no graph.
def fit_scaled(net, batches, optim, scale):
    for xb in batches:
        with torch.no_grad():
            hb = xb * scale
        objective = net(hb).mean()
        optim.zero_grad()
        objective.backward(retain_graph=True)  # want: TL103
        optim.step()


# The batch moved to the device under its own name, or element by element.
def fit_moved(net, batches, optim):
    for xb in batches:
        xb = xb.cuda()
        objective = net(xb).mean()
        optim.zero_grad()
        objective.backward(retain_graph=True)  # want: TL103
        optim.step()


def fit_parts(net, batches, optim):
    for batch in batches:
        parts = [t.cuda() for t in batch]
        objective = net(parts[0]).mean()
        optim.zero_grad()
        objective.backward(retain_graph=True)  # want: TL103
        optim.step()


# Values carried from the previous iteration that hold no graph: the
# indices of topk, and an argmax updated from itself.
def fit_refine(batches, net, optim, crit):
    for xb, yb in batches:
        prev = None
        for i in range(3):
            out = net(xb, prev)
            objective = crit(out, yb)
            optim.zero_grad()
            objective.backward(retain_graph=True)  # want: TL103
            optim.step()
            prev = torch.topk(out, 1)[1]


def fit_refine_shifted(batches, net, optim, crit):
    for xb, yb in batches:
        prev = None
        for i in range(3):
            out = net(xb, prev)
            objective = crit(out, yb)
            optim.zero_grad()
            objective.backward(retain_graph=True)  # want: TL103
            optim.step()
            prev = out.argmax(-1)
            prev = prev + 1


# Hard negative: the values of topk keep the graph into the next
# iteration.
def fit_refine_values(batches, net, optim, crit):
    for xb, yb in batches:
        prev = None
        for i in range(3):
            out = net(xb, prev)
            objective = crit(out, yb)
            optim.zero_grad()
            objective.backward(retain_graph=True)  # ok: the values of topk carry the graph into the next iteration
            optim.step()
            prev = torch.topk(out, 1)[0]


# Step functions called through an instance, and from a loop over a range
# of batches.
class Agent:
    def __init__(self):
        self.qnet = nn.Linear(4, 1)
        self.optim = torch.optim.Adam(self.qnet.parameters())

    def learn(self, batch):
        objective = self.qnet(batch).mean()
        self.optim.zero_grad()
        objective.backward(retain_graph=True)  # want: TL103 "until `learn` returns"
        self.optim.step()

    def process(self, batch):
        objective = self.qnet(batch).mean()
        objective.backward(retain_graph=True)  # want: TL103 "until `process` returns"

    def run(self, batches):
        order = range(len(batches))
        for i in order:
            self.process(batches[i])


def drive(batches):
    agent = Agent()
    for batch in batches:
        agent.learn(batch)


# The module path of the loss written out in full.
def fit_qualified(net, batches, optim):
    for xb in batches:
        objective = torch.nn.functional.mse_loss(net(xb), xb)
        optim.zero_grad()
        objective.backward(retain_graph=True)  # want: TL103
        optim.step()


# Hard negative: two losses reduced by torch.mean share one graph, and the
# second backward runs through it.
def fit_pair(steps):
    gen = nn.Linear(4, 4)
    disc = nn.Linear(4, 1)
    opt_d = torch.optim.Adam(disc.parameters())
    opt_g = torch.optim.Adam(gen.parameters())
    for _ in range(steps):
        score = torch.sigmoid(disc(gen(torch.randn(8, 4))))
        d_loss = -torch.mean(score)
        g_loss = torch.mean(score)
        opt_d.zero_grad()
        d_loss.backward(retain_graph=True)  # ok: g_loss runs through the same graph afterwards
        opt_d.step()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()


# Hard negative: a loop with no data of its own over a value from outside,
# which may carry a graph built before the loop.
def refine(net, start):
    for step in range(100):
        objective = torch.mean(net(start))
        objective.backward(retain_graph=True)  # ok: start comes from outside a loop with no data of its own


# Hard negative: a step function that keeps the recurrent state on self,
# which its caller may pass back in with the graph that produced it.
class SequenceTrainer:
    def train_step(self, batch, state):
        out, new_state = self.rnn(batch, state)
        objective = out.pow(2).mean()
        self.optim.zero_grad()
        objective.backward(retain_graph=True)  # ok: the state kept on self may link the steps' graphs
        self.optim.step()
        self.state = new_state


# The same step keeping only a number.
class SequenceScorer:
    def train_step(self, batch, state):
        out, new_state = self.rnn(batch, state)
        objective = out.pow(2).mean()
        self.optim.zero_grad()
        objective.backward(retain_graph=True)  # want: TL103 "until `train_step` returns"
        self.optim.step()
        self.last = objective.item()


def inspect_first_batch(model, loader):
    # ok: the loop ends in `break`, so one iteration runs; there is no next step
    for x, y in loader:
        out = model(x).sum()
        out.backward(retain_graph=True)
        print(x.grad)
        break


def train_steps(model, loader, opt):
    for x, y in loader:
        opt.zero_grad()
        out = model(x).sum()
        out.backward(retain_graph=True)  # want: TL103
        opt.step()
        if out.item() < 0.1:
            break


# Three updates in one step: the critic's graph is not used again, as the
# generator's update draws its own fake batch and rebinds the critic's
# outputs; the generator's is, by the information loss read from the
# same pass of the critic.
class InfoTrainer:
    def fit(self, loader):
        for x, _ in loader:
            z = torch.rand(x.size(0), 62)
            code = torch.rand(x.size(0), 2)
            d_real, _, _ = self.D(x)
            fake = self.G(z, code)
            d_fake, _, _ = self.D(fake)
            d_loss = self.bce(d_real, self.ones) + self.bce(d_fake, self.zeros)
            self.d_opt.zero_grad()
            d_loss.backward(retain_graph=True)  # want: TL103
            self.d_opt.step()

            fake = self.G(z, code)
            d_fake, d_code, _ = self.D(fake)
            g_loss = self.bce(d_fake, self.ones)
            self.g_opt.zero_grad()
            g_loss.backward(retain_graph=True)  # ok: the information loss runs through this pass of the critic
            self.g_opt.step()

            info_loss = self.mse(d_code, code)
            self.info_opt.zero_grad()
            info_loss.backward()
            self.info_opt.step()


# A critic step that draws its noise from the generator's own method, in
# a loop over an iterator bound to a name: the generator is a callable
# that holds leaves, not a value of the graph, and each batch is data.
def train_critic(G, C, loader, c_opt, g_opt, critic_iterations, verbose):
    if verbose:
        iterable = enumerate(tqdm(loader))
    else:
        iterable = enumerate(loader)
    for _, (real, _) in iterable:
        for _ in range(critic_iterations):
            z = G.sample_noise(real.size(0))
            c_loss = C(G(z)).mean() - C(real).mean()
            c_opt.zero_grad()
            c_loss.backward(retain_graph=True)  # want: TL103
            c_opt.step()
        z = G.sample_noise(real.size(0))
        g_loss = -C(G(z)).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()


def two_heads(encoder, heads, loader, opt):
    for x, y in loader:
        h = encoder.embed(x)
        first = heads[0](h).mean()
        first.backward(retain_graph=True)  # ok: the second head's loss runs through the same embedding
        second = heads[1](h).mean()
        second.backward()
        opt.step()
        opt.zero_grad()


# Guided attention: the second pass is built from what hooks kept of the
# first one, read back by a callable the function is given.
def train_guided(loader, model, read_hooks, criterion, optimizer):
    for data, label in loader:
        logits, _ = model(data)
        loss = criterion(logits, label)
        loss.backward(retain_graph=True)  # ok: the attention mask is made of the first pass's hooked features
        feature, gradient = read_hooks()
        masked = model.apply_mask(data, feature, gradient)
        logits, _ = model(masked)
        criterion(logits, label).backward()
        optimizer.step()
        optimizer.zero_grad()


def train_sampled(loader, G, D, sample_noise, d_opt, g_opt):
    for real in loader:
        z = sample_noise()
        d_loss = D(G(z)).mean() - D(real).mean()
        d_opt.zero_grad()
        d_loss.backward(retain_graph=True)  # want: TL103
        d_opt.step()
        g_loss = -D(G(sample_noise())).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()


# An n-step return started from the critic's value of the last state and
# carried back through the rollout: every value loss runs through that
# first pass again.
class NStepWorker:
    def value_loss_fn(self, value, reward):
        return 0.5 * (reward - value).pow(2)

    def accumulate(self, rollout, last_state):
        R = self.critic(last_state)
        for state, reward in reversed(rollout):
            R = reward + self.gamma * R
            value = self.critic(state)
            value_loss = self.value_loss_fn(value=value, reward=R)
            value_loss.backward(retain_graph=True)  # ok: the next value loss runs through R's first pass again


def train_batches(next_batch, model, crit, opt, steps):
    for _ in range(steps):
        x, y = next_batch()
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward(retain_graph=True)  # want: TL103
        opt.step()
        x2, y2 = next_batch()
        loss2 = crit(model(x2), y2)
        opt.zero_grad()
        loss2.backward()
        opt.step()
