"""retain_graph=True on the last backward of a training step, and look-alikes that need it."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd
from torch.utils.data import DataLoader


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)


def train_epoch(model, loader, optimizer, criterion):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        output = model(x)
        loss = criterion(output, y)
        loss.backward(retain_graph=True)  # want: TL103 "two steps' activations"
        optimizer.step()


def train_accumulating(model, loader, optimizer, criterion, accum_steps):
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x), y) / accum_steps
        loss.backward(retain_graph=True)  # want: TL103 "`loss` is rebound in the next iteration"
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()


def train_kept_total(model, loader, optimizer, criterion):
    running = 0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_graph=True)  # want: TL103 "memory grows each step"
        optimizer.step()
        running += loss  # want: TL101
    return running.item()


def train_grad_api(model, loader, optimizer, criterion):
    params = list(model.parameters())
    for x, y in loader:
        loss = criterion(model(x), y)
        grads = torch.autograd.grad(loss, params, retain_graph=True)  # want: TL103
        for p, g in zip(params, grads):
            p.grad = g
        optimizer.step()


def train_truncated_bptt(rnn, loader, optimizer, criterion):
    hidden = None
    for x, y in loader:
        if hidden is not None:
            hidden = hidden.detach()
        out, hidden = rnn(x, hidden)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)  # want: TL103 "drop `retain_graph=True`"
        optimizer.step()


def train_step(model, batch, optimizer, criterion):
    x, y = batch
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward(retain_graph=True)  # want: TL103 "until `train_step` returns"
    optimizer.step()
    return loss.item()


def fit(model, optimizer, criterion, epochs):
    loader = DataLoader(range(10), batch_size=2)
    for _ in range(epochs):
        for batch in loader:
            train_step(model, batch, optimizer, criterion)


def train_gan(generator, discriminator, loader, opt_g, opt_d, latent_dim):
    bce = nn.BCEWithLogitsLoss()
    for real in loader:
        z = torch.randn(real.size(0), latent_dim)
        fake = generator(z)
        g_loss = bce(discriminator(fake), torch.ones(real.size(0), 1))
        opt_g.zero_grad()
        g_loss.backward(retain_graph=True)  # want: TL103 "`fake` and `g_loss` are rebound"
        opt_g.step()
        d_loss = bce(discriminator(real), torch.ones(real.size(0), 1)) + bce(discriminator(fake.detach()), torch.zeros(real.size(0), 1))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()


# ---- look-alikes that must stay silent ----


def train_gan_shared(generator, discriminator, loader, opt_g, opt_d, latent_dim):
    bce = nn.BCEWithLogitsLoss()
    for real in loader:
        fake = generator(torch.randn(real.size(0), latent_dim))
        d_loss = bce(discriminator(real), torch.ones(real.size(0), 1)) + bce(discriminator(fake), torch.zeros(real.size(0), 1))
        opt_d.zero_grad()
        d_loss.backward(retain_graph=True)  # ok: g_loss below runs through discriminator(fake) and generator again
        opt_d.step()
        g_loss = bce(discriminator(fake), torch.ones(real.size(0), 1))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()


def train_two_losses(model, loader, optimizer, criterion, aux_criterion):
    for x, y in loader:
        optimizer.zero_grad()
        output = model(x)
        main_loss = criterion(output, y)
        main_loss.backward(retain_graph=True)  # ok: aux_loss below back-propagates through the same output
        aux_loss = aux_criterion(output, y)
        aux_loss.backward()
        optimizer.step()


def train_carried_hidden(rnn, loader, optimizer, criterion):
    hidden = rnn.init_hidden()
    for x, y in loader:
        out, hidden = rnn(x, hidden)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)  # ok: hidden links this step's graph to the previous one
        optimizer.step()


def train_variable_flag(model, loader, optimizer, criterion, keep):
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward(retain_graph=keep)  # ok: not a literal True
        optimizer.step()


def train_false_flag(model, loader, optimizer, criterion):
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward(retain_graph=False)  # ok: retain_graph=False frees the graph
        optimizer.step()


def train_heads(model, heads, loader, optimizer, criterion):
    for x, y in loader:
        features = model(x)
        optimizer.zero_grad()
        for head in heads:
            head_loss = criterion(head(features), y)
            head_loss.backward(retain_graph=True)  # ok: the next head back-propagates through features again
        optimizer.step()


def train_losses_list(model, loader, optimizer, criterion):
    for x, y in loader:
        out = model(x)
        losses = [criterion(out, y), out.pow(2).mean()]
        optimizer.zero_grad()
        for i, l in enumerate(losses):
            l.backward(retain_graph=i < len(losses) - 1)  # ok: a computed flag, False on the last loss
        optimizer.step()


def train_gradient_penalty(critic, loader, optimizer):
    for real in loader:
        real.requires_grad_(True)
        score = critic(real)
        grads = autograd.grad(score.sum(), real, create_graph=True, retain_graph=True)[0]  # ok: create_graph builds a higher-order graph
        penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
        optimizer.zero_grad()
        (score.mean() + penalty).backward()
        optimizer.step()


def train_external_features(head, features, optimizer, steps):
    for _ in range(steps):
        loss = head(features).mean()
        optimizer.zero_grad()
        loss.backward(retain_graph=True)  # ok: features may carry a graph from the caller that every step runs through
        optimizer.step()


def closure_step(model, x, y, criterion):
    loss = criterion(model(x), y)
    loss.backward(retain_graph=True)  # ok: not a training step of this file, nor in a loop
    return loss


def train_jacobian_rows(model, loader):
    for x in loader:
        out = model(x)
        norms = []
        for k in range(out.shape[1]):
            row = torch.autograd.grad(out[:, k].sum(), x, retain_graph=True)[0]  # ok: every row runs through the same out
            norms.append(row.norm().item())
        print(max(norms))


def adaptive_weight(rec_loss, gan_loss, last_layer):
    rec_grads = torch.autograd.grad(rec_loss, last_layer, retain_graph=True)[0]  # ok: a helper; the losses are back-propagated afterwards
    gan_grads = torch.autograd.grad(gan_loss, last_layer, retain_graph=True)[0]  # ok: a helper outside any training loop
    return rec_grads.norm() / (gan_grads.norm() + 1e-4)


def jacobian_rows(model, batches):
    rows = []
    for x in batches:
        _input = x.clone().requires_grad_(True)
        grad = torch.autograd.grad(outputs=model(_input).sum(), inputs=_input, retain_graph=True)[0]  # ok: only a leaf and a temporary hold the graph, freed with the statement
        rows.append(grad.detach())
    return rows


def jacobian_kept(model, batches):
    rows = []
    for x in batches:
        _input = x.clone().requires_grad_(True)
        out = model(_input).sum()
        grad = torch.autograd.grad(outputs=out, inputs=_input, retain_graph=True)[0]  # want: TL103 "until `out` is rebound"
        rows.append(grad.detach())
    return rows


class Tacotron(nn.Module):
    def __init__(self):
        super().__init__()
        self.decoder = nn.Linear(32, 80)
        self.postnet = nn.Linear(80, 80)

    def forward(self, x):
        mel = self.decoder(x)
        return mel + self.postnet(mel), mel


def train_two_outputs(loader, optimizer):
    model = Tacotron()
    for x, target in loader:
        post, mel = model(x)
        post_loss = F.mse_loss(post, target)
        post_loss.backward(retain_graph=True)  # ok: the next backward runs through the same forward's decoder
        mel_loss = F.mse_loss(mel, target)
        mel_loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def train_two_forwards(loader, optimizer):
    model = Tacotron()
    for x, target in loader:
        post, _ = model(x)
        post_loss = F.mse_loss(post, target)
        post_loss.backward(retain_graph=True)  # want: TL103 "last backward"
        _, mel = model(x)
        F.mse_loss(mel, target).backward()
        optimizer.step()
        optimizer.zero_grad()


class DeterministicActor:
    def __init__(self, actor, critic, optimizer, use_ddpg):
        self.actor, self.critic, self.optimizer, self.use_ddpg = actor, critic, optimizer, use_ddpg

    def optimize(self, states):
        actions = self.actor(states)
        if self.use_ddpg:
            loss = -self.critic(states, actions).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            return loss.detach()

            # an older attempt, left below the return: it never runs
            detached = actions.detach().requires_grad_()
            q_loss = -self.critic(states, detached).mean()
            q_loss.backward(retain_graph=True)  # ok: after the return of its block, it never runs
            actions.backward(-detached.grad)
        self.optimizer.zero_grad()
        F.mse_loss(actions, states).backward()
        self.optimizer.step()

def log_after_return(model, loader, optimizer, history):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        continue
        history.append(loss)  # ok: TL102 after the continue of its block, it never runs


class ActorCritic:
    """Online updates whose graph the episode's update runs through again."""

    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer
        self.log_probs, self.state_values = [], []

    def act(self, state):
        probs, value = self.model(state)
        dist = torch.distributions.Categorical(probs)
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        self.state_values.append(value)
        return action.item()

    def online_update(self, state, logprob):
        new_value = self.model(state)[1].data[0, 0]
        reward = self.state_values[-1] - new_value
        loss = -logprob * reward
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)  # ok: the episode's update back-propagates the stored values again
        self.optimizer.step()

    def update(self, returns):
        loss = sum(-lp * r for lp, r in zip(self.log_probs, returns))
        loss = loss + sum(F.smooth_l1_loss(v, r) for v, r in zip(self.state_values, returns))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        del self.log_probs[:]
        del self.state_values[:]


class FreshCritic:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer

    def fit(self, batches):
        for state, target in batches:
            value = self.model(state)[1]
            loss = F.smooth_l1_loss(value, target)
            self.optimizer.zero_grad()
            loss.backward(retain_graph=True)  # want: TL103
            self.optimizer.step()


# Tensors made to require grad, with no model: what an operation on them
# computes holds a graph of its own.
def bandit(mu_init, log_sigma_init, target, steps):
    mu = torch.tensor(mu_init, requires_grad=True)
    log_sigma = torch.tensor(log_sigma_init, requires_grad=True)
    opt = torch.optim.SGD([mu, log_sigma], lr=1e-3)
    # Built once, before the loop: every step's backward runs through
    # its graph (`exp`, `diag`) again.
    pol = torch.distributions.MultivariateNormal(mu, torch.diag(torch.exp(log_sigma)))
    for _ in range(steps):
        a = pol.sample()
        loss = -pol.log_prob(a) * -(a - target).norm()
        opt.zero_grad()
        loss.backward(retain_graph=True)  # ok: the distribution's graph, made before the loop, is needed by the next step
        opt.step()
    for _ in range(steps):
        a = mu + torch.exp(log_sigma) * torch.randn_like(mu)
        loss = (a - target).norm() ** 2
        opt.zero_grad()
        loss.backward(retain_graph=True)  # want: TL103 "last backward"
        opt.step()


# A critic step given a fake batch the caller made once for several
# steps: each step's backward runs through the generator's graph again.

class CriticTrainer:
    def __init__(self, z_dim, n_critic):
        self.netG = nn.Sequential(nn.Linear(z_dim, 16), nn.Tanh())
        self.netD = nn.Sequential(nn.Linear(16, 1))
        self.optD = torch.optim.Adam(self.netD.parameters())
        self.optG = torch.optim.Adam(self.netG.parameters())
        self.n_critic, self.z_dim = n_critic, z_dim

    def penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1, device=real.device)
        mixed = alpha * real + (1 - alpha) * fake
        score = self.netD(mixed)
        grads = torch.autograd.grad(score, mixed, torch.ones_like(score), create_graph=True)[0]
        return ((grads.norm(2, dim=1) - 1) ** 2).mean()

    def critic_step(self, real, fake):
        self.netD.zero_grad()
        loss = self.netD(fake.detach()).mean() - self.netD(real).mean() + 10 * self.penalty(real, fake)
        loss.backward(retain_graph=True)  # ok: train() passes the same fake batch to every critic step: the next one runs through its graph again
        self.optD.step()
        return loss.item()

    def train(self, loader):
        for real in loader:
            fake = self.netG(torch.randn(real.size(0), self.z_dim))
            for _ in range(self.n_critic):
                self.critic_step(real, fake)


class FreshCriticTrainer(CriticTrainer):
    def fresh_step(self, real, fake):
        self.netD.zero_grad()
        loss = self.netD(fake).mean() - self.netD(real).mean()
        loss.backward(retain_graph=True)  # want: TL103 "last backward"
        self.optD.step()

    def train(self, loader):
        for real in loader:
            for _ in range(self.n_critic):
                fake = self.netG(torch.randn(real.size(0), self.z_dim))
                self.fresh_step(real, fake)


GEN_ITERS = 1


def train_generator_once(gen, disc, opt_g, loader, z_dim):
    # A loop of one iteration by its range: the step is the batch loop.
    for real in loader:
        for _ in range(GEN_ITERS):
            fake = gen(torch.randn(real.size(0), z_dim))
            loss = -disc(fake).mean()
            opt_g.zero_grad()
            loss.backward(retain_graph=True)  # want: TL103 "last backward"
            opt_g.step()


def train_gan_rebound(G, D, opt_g, opt_d, loader, z_dim):
    # The discriminator's step retains its graph; `d_fake` is bound again
    # by the generator's step in the same iteration, so only the losses
    # keep the graph until the next one.
    for real in loader:
        d_real = D(real)
        d_fake = D(G(torch.randn(real.size(0), z_dim)).detach())
        d_loss = d_fake.mean() - d_real.mean()
        opt_d.zero_grad()
        d_loss.backward(retain_graph=True)  # want: TL103 "until `d_loss` and `d_real` are rebound in the next iteration"
        opt_d.step()
        d_fake = D(G(torch.randn(real.size(0), z_dim)))
        g_loss = -d_fake.mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()



def train_critic(D, opt_d, loader, z_dim):
    for real in loader:
        noise = torch.randn(real.size(0), z_dim)
        d_loss = D(noise).mean() - D(real).mean()
        opt_d.zero_grad()
        d_loss.backward(retain_graph=True)  # want: TL103 "until `d_loss` is rebound later in the iteration, instead of freeing them during backward"
        opt_d.step()
        d_loss = None



def train_critic_branch(D, opt_d, loader, z_dim):
    for real in loader:
        if real.size(0) > 1:
            noise = torch.randn(real.size(0), z_dim)
            d_loss = D(noise).mean() - D(real).mean()
            opt_d.zero_grad()
            d_loss.backward(retain_graph=True)  # want: TL103 "until `d_loss` is rebound in the next iteration"
            opt_d.step()
        else:
            d_loss = 0


def train_shared(G, D, opt_g, opt_d, loader, z_dim):
    for real in loader:
        d_fake = D(G(torch.randn(real.size(0), z_dim)))
        d_loss = d_fake.mean() - D(real).mean()
        opt_d.zero_grad()
        d_loss.backward(retain_graph=True)  # ok: the generator's loss below runs through `d_fake`'s graph again
        opt_d.step()
        g_loss = -d_fake.mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()


def train_two_heads(model, opt, loader):
    for x, y in loader:
        feats = model.backbone(x)
        loss_a = model.head_a(feats).mean()
        opt.zero_grad()
        loss_a.backward(retain_graph=True)  # ok: the second head's backward runs through `feats` again
        loss_b = model.head_b(feats).mean()
        loss_b.backward()
        opt.step()
        feats = None
