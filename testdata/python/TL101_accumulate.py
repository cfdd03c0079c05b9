"""Training and evaluation loops that sum losses: TL101 positives and look-alikes."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.cuda.amp import GradScaler


class Classifier(nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim, 256), nn.ReLU(), nn.Linear(256, classes))
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return self.body(x)


def train_epoch(model, loader, optimizer):
    criterion = nn.CrossEntropyLoss()
    total_loss = 0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss  # want: TL101 "after its backward\(\).*host memory"
    return total_loss / len(loader)


def train_weighted(net, loader, opt):
    loss_fn = nn.MSELoss()
    epoch_loss = 0.0
    for step, (x, y) in enumerate(loader):
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        epoch_loss = epoch_loss + loss * x.size(0)  # want: TL101 "host memory"
        epoch_loss += loss.item() * x.size(0)  # ok: .item() gives a Python number
    return epoch_loss


def validate(model, loader):
    model.eval()
    stats = {"loss": 0.0}
    seen = 0
    with torch.no_grad():
        for x, y in loader:
            stats["loss"] += F.cross_entropy(model(x), y)  # ok: accumulated under no_grad
    for x, y in loader:
        logits = model(x)  # want: TL201
        stats["loss"] += F.cross_entropy(logits, y)  # want: TL101 "seen to run through.*GPU"
        seen += y.numel()  # ok: a plain count
    return stats


def train_with_metric(model, loader, optimizer):
    running_l1 = 0
    correct = 0
    for x, y in loader:
        out = model(x)
        loss = F.mse_loss(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_l1 += F.l1_loss(out, y)  # want: TL101 "seen to run through"
        correct += (out.argmax(1) == y).sum()  # ok: a comparison carries no history
        running_l1 += F.l1_loss(out, y).detach()  # ok: detached
    return running_l1, correct


def train_rebound(model, loader, optimizer, criterion):
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss = loss.item()
        total += loss  # ok: loss was re-bound to a Python float above
        total += float(criterion(model(x), y))  # want: TL201 "only reach the host"  # ok: float() detaches the sum


def multi_task_step(model, batches, optimizer, heads):
    for x, targets in batches:
        loss = 0
        for head, target in zip(heads, targets):
            loss += F.cross_entropy(head(model(x)), target)  # ok: a summed loss, back-propagated below
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def loss_with_aux(model, loader, optimizer, scaler):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        aux = 0.1 * F.mse_loss(model(x), x)
        loss = loss + aux  # ok: one step's loss, assigned afresh each iteration
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)


def deep_supervision_loss(outputs, target):
    total = 0
    for out in outputs:
        total += F.cross_entropy(out, target)  # ok: summed over outputs and returned for the caller's backward
    return total


def accumulate_then_backward(model, micro_batches, optimizer, accelerator):
    acc = 0
    for x, y in micro_batches:
        acc += F.cross_entropy(model(x), y)  # ok: the accumulator itself is back-propagated
    accelerator.backward(acc)
    optimizer.step()


class Trainer:
    def __init__(self, model):
        self.model = model
        self.history = 0.0

    def fit(self, loader, optimizer):
        for x, y in loader:
            loss = self.model.criterion(self.model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            self.history += loss  # want: TL101
            self.history += loss.detach()  # ok: detached


def evaluate_inference_mode(model, loader):
    total = 0
    for x, y in loader:
        with torch.inference_mode():
            out = model(x)
        total += F.cross_entropy(out, y)  # ok: the output was computed in inference mode


def scaled_grad(model, loader, optimizer):
    scaler = GradScaler()  # want: TL401
    total = torch.zeros(())
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        total += loss  # want: TL101 "host memory"


class ResidualStack(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)
        self.pos = nn.Linear(4, 4)

    def forward(self, x, chunks):
        skips = ()
        for layer in self.layers:
            x = x + layer(x)  # ok: a residual sum inside one forward pass
            skips = skips + (x,)  # ok: skip connections returned to the caller
        ctx = 0
        for layer in self.layers:
            ctx = ctx + layer(x)  # ok: part of this forward pass
        out = []
        for chunk in chunks:
            chunk = chunk + self.pos(chunk)  # ok: the loop variable, bound afresh each iteration
            out.append(chunk)
        return x * ctx, skips, out


def train_fairseq_style(model, criterion, loader, optimizer):
    agg_logging = {}
    agg_sample_size = 0
    for sample in loader:
        loss, sample_size, logging_output = criterion(model, sample)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        agg_sample_size += sample_size  # ok: the criterion's second value is a count, not the loss
        for k in logging_output:
            agg_logging[k] += logging_output[k]  # ok: logging values, not the loss


def forward_step(model, batch):
    output = model(batch)
    num_tokens = batch.numel()
    return output, num_tokens


def run_microbatches(model, batches):
    total_tokens = 0
    for batch in batches:
        output, num_tokens = forward_step(model, batch)
        total_tokens += num_tokens  # ok: forward_step returns a count in that position
        output.sum().backward()


def calc_loss(output_tensor, loss_func):
    outputs = loss_func(output_tensor)
    output_tensor, num_tokens, reduced = outputs
    return output_tensor, num_tokens


def schedule(model, batches, loss_func):
    total_num_tokens = 0
    for batch in batches:
        loss, num_tokens = calc_loss(model(batch), loss_func)
        total_num_tokens += num_tokens  # ok: the loss function's second value is a token count
        loss.backward()


def accumulate_scaled(model, micro_batches, optimizer, scaler):
    acc = 0
    for x, y in micro_batches:
        acc += F.cross_entropy(model(x), y)  # ok: back-propagated below through the grad scaler
    scaler.scale(acc / len(micro_batches)).backward()
    scaler.step(optimizer)


def gradient_penalty(critic, samples, params):
    penalty = 0
    for s in samples:
        penalty += critic(s).sum()  # ok: differentiated below with torch.autograd.grad
    return torch.autograd.grad(penalty, params, create_graph=True)


def average_in_loop_with_grad(model, loader):
    losses = {}
    for step, (x, y) in enumerate(loader):
        losses["ce"] = 0  # the container entry is reset ...
        losses["ce"] += F.cross_entropy(model(x), y)  # ok: ... every iteration, so it does not outlive it


def generate_with_attention(decoder, x, steps):
    rows, total = [], 0
    for _ in range(steps):
        h = decoder(x)  # want: TL201 "in `generate_with_attention`"
        rows += [h[:, i:i + 1] for i in range(2)]  # ok: extends a list, it sums nothing
        rows += (h[:, :1],)  # ok: likewise, with a tuple
        total += h.sum()  # want: TL101
    print(total.item())
    return rows


def collect_folds(run_dirs, load_trainer):
    # `+=` on a list extends it: nothing is summed.
    distances = []
    for run_dir in run_dirs:
        trainer = load_trainer(run_dir)
        dist = trainer.model(trainer.batch)
        distances += dist  # ok: extends a list
    return distances


def sum_folds(run_dirs, load_trainer):
    total = 0
    for run_dir in run_dirs:
        trainer = load_trainer(run_dir)
        total += trainer.model(trainer.batch).sum()  # want: TL101 "seen to run through"
    print(total)


def actor_critic(env, policy, value_net, opt, gamma=0.99):
    # env.step returns host data: its next state is made into a tensor.
    state, total_reward, total_value = env.reset(), 0, 0
    for _ in range(100):
        s = torch.tensor(state).unsqueeze(0)
        probs, value = policy(s), value_net(s)
        action = torch.multinomial(probs, 1).item()
        next_state, reward, done, _ = env.step(action)
        target = reward + gamma * value_net(torch.tensor(next_state).unsqueeze(0)).detach()
        loss = -torch.log(probs[0, action]) * (target - value.detach()) + (value - target).pow(2).sum()
        opt.zero_grad()
        loss.sum().backward()
        opt.step()
        total_reward += reward  # ok: a Python number from env.step
        total_value += value  # want: TL101 "after its backward"
        state = next_state
    print(total_reward, total_value)


def penalized(model, scorer, batches, words, opt, weight):
    running, running_aux = 0.0, 0.0
    for x in batches:
        recon = ((model(x) - x) ** 2).mean()
        with torch.no_grad():
            penalty = 0.0
            for w in words:
                penalty += scorer(w).item() ** 2  # ok: under no_grad, and a float
            penalty /= len(words)
        penalty *= weight
        aux = 0.0
        for w in words:
            aux += model(w).mean()  # ok: summed into the loss, back-propagated
        loss = recon + penalty + aux
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += penalty  # ok: computed with grad disabled
        running_aux += aux  # want: TL101 "after its backward"
    print(running, running_aux)


def divergence(y, x):
    # A sum over the components of one divergence, returned into a loss.
    div = 0.0
    for i in range(y.shape[-1]):
        div += torch.autograd.grad(y[..., i], x, torch.ones_like(y[..., i]), create_graph=True)[0][..., i]  # ok: returned
    return div


def gradient_penalty_steps(model, batches, opt):
    norms = 0.0
    for x in batches:
        x = x.requires_grad_(True)
        loss = model(x).sum()
        g = torch.autograd.grad(loss, x, create_graph=True)[0]
        opt.zero_grad()
        (loss + g.pow(2).sum()).backward()
        opt.step()
        norms += g.norm()  # want: TL101 "after its backward"
    return norms
