"""Values recognised by what the code does with them, not by their names."""
import argparse
import torch


def train(model, loader, opt, crit):
    total = 0
    for x, y in loader:
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()  # only a tensor with a graph can be back-propagated
        opt.step()
        total += loss  # want: TL101 "after its backward"
    return total


def train_bare_names(m, data, opt):
    t = 0
    for x in data:
        l = m(x).sum()
        opt.zero_grad()
        l.backward()
        opt.step()
        t += l  # want: TL101 "after its backward"
    return t


def train_autograd(learner, data, opt):
    acc = 0
    for x in data:
        err = learner(x).sum()
        opt.zero_grad()
        torch.autograd.backward(err)
        opt.step()
        acc += err  # want: TL101 "after its backward"
    return acc


def train_objective(policy, batches, optimizer, objective):
    running = 0.0
    for obs, target in batches:
        optimizer.zero_grad()
        pred = policy(obs)
        err = objective(pred, target)
        err.backward()
        optimizer.step()
        running = running + err  # want: TL101
    return running


def train_scaled(G_AB, loader, scaler, opt, recon):
    epoch_loss = 0
    for real_A, real_B in loader:
        fake_B = G_AB(real_A)
        loss_G = recon(fake_B, real_B)
        opt.zero_grad()
        scaler.scale(loss_G).backward()
        scaler.step(opt)
        scaler.update()
        epoch_loss += loss_G  # want: TL101
    return epoch_loss


def train_method_loss(net, loader, opt):
    avg_loss = 0
    for batch in loader:
        loss = net.compute_objective(batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        avg_loss += loss  # want: TL101
    return avg_loss


def evaluate(net, loader, crit):
    net.eval()
    val = 0
    for x, y in loader:
        val += crit(net(x), y)  # want: TL101 "seen to run through" TL201
    return val


def train_for_crit(net, loader, opt, crit):
    # Makes `crit` a loss for the whole file: the evaluation above uses the
    # same parameter name.
    for x, y in loader:
        opt.zero_grad()
        crit(net(x), y).backward()
        opt.step()


# Hard negatives: look-alikes that must stay silent.


def train_item(model, loader, opt, crit):
    total = 0
    for x, y in loader:
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()  # ok: a Python number
    return total


def train_labels_moved(m, loader, opt, crit):
    seen = 0
    for x, y in loader:
        y = y.cuda()  # a label beside the loss, not part of its graph
        loss = crit(m(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen += y  # ok: the labels carry no graph
    return seen


def train_summed_on_purpose(m, loader, opt, crit):
    for xs, y in loader:
        total = 0
        for x in xs:
            total += crit(m(x), y)  # ok: summed, then back-propagated below
        opt.zero_grad()
        total.backward()
        opt.step()


def train_metric(m, loader, opt, crit, accuracy):
    acc = 0
    for x, y in loader:
        out = m(x)
        loss = crit(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc += accuracy(out, y)  # ok: an unknown function is not assumed to return a graph
    return acc


def train_counts(m, loader, opt, crit):
    n = 0
    for x, y in loader:
        loss = crit(m(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        n += x.size(0)  # ok: a count
    return n


def train_detached_rebind(m, loader, opt, crit):
    total = 0
    for x, y in loader:
        loss = crit(m(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss = loss.detach()
        total += loss  # ok: rebound to its detached value
    return total


@torch.no_grad()
def evaluate_no_grad(net, loader, crit):
    val = 0
    for x, y in loader:
        val += crit(net(x), y)  # ok: grad is disabled
    return val


def train_with_options(model, optimizer, loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--beta", type=float, default=0.1)
    parser.add_argument("--epoch-size", type=int, default=500)
    args = parser.parse_args()
    n_iter = 0
    for x in loader:
        out = model(x)
        loss = out.sum() + args.beta * out.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        n_iter += args.epoch_size  # ok: an option from the command line, not a tensor
    return n_iter


def flip(data):
    x = data.x.clone()
    x[:, 0] = -x[:, 0]
    data = data.clone()
    data.x = x
    return data


def train_graphs(model, loader, optimizer, criterion):
    total = 0.0
    for batch in loader:
        batch = flip(batch)  # a copy of the batch: data, not a graph
        loss = criterion(model(batch.x, batch.edge_index), batch.y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * batch.num_graphs  # ok: a float times a count
    return total


class AdvLoss:
    def __init__(self):
        self.mse = torch.nn.MSELoss()

    def generator_term(self, d_fake):
        return self.mse(d_fake, torch.ones_like(d_fake))


def score_discriminator(net_d, batches):
    adv = AdvLoss()
    total = 0
    for x in batches:
        with torch.no_grad():
            d_fake = net_d(x)
        total += adv.generator_term(d_fake)  # ok: a loss helper given an output computed without grad
    return total


def score_discriminator_by_keyword(net_d, batches):
    adv = AdvLoss()
    total = 0
    for x in batches:
        with torch.no_grad():
            d_fake = net_d(x)
        total += adv.generator_term(d_fake=d_fake)  # ok: the same, given by keyword
    return total


def score_discriminator_with_grad(batches):
    net_d = torch.nn.Linear(4, 1)
    adv = AdvLoss()
    total = 0
    for x in batches:
        d_fake = net_d(x)
        total += adv.generator_term(d_fake=d_fake)  # want: TL101
    return total


def sample_tokens(decoder, x, h, steps, block):
    seq = []
    for t in range(steps):
        logprobs, h = decoder(x, h)  # want: TL201(low) "only reach the host"
        if block and t > 0:
            logprobs = logprobs + torch.zeros_like(logprobs)  # ok: logprobs is bound afresh at the top of each iteration
        seq.append(logprobs.argmax(-1))
    return seq


def train_maybe_skipped(model, loader, optimizer, skip):
    total = 0
    for i, x in enumerate(loader):
        loss = 0 if i in skip else model(x).pow(2).mean()
        optimizer.zero_grad()
        if not isinstance(loss, int):
            loss.backward()
        optimizer.step()
        total += loss if isinstance(loss, int) else loss.item()  # ok: a number on either branch
    return total


def train_tensor_guard(model, loader, optimizer, skip):
    total, raw = 0, 0
    for i, x in enumerate(loader):
        loss = 0 if i in skip else model(x).pow(2).mean()
        optimizer.zero_grad()
        if isinstance(loss, torch.Tensor):
            loss.backward()
        optimizer.step()
        total += loss.item() if isinstance(loss, torch.Tensor) else loss  # ok: the other branch is not a tensor
        raw += loss if isinstance(loss, torch.Tensor) else 0.0  # want: TL101
        total += loss.item() if torch.is_tensor(loss) else loss  # ok: likewise, with torch.is_tensor
    return total, raw


def not_implemented(model, loader):
    raise NotImplementedError("not implemented yet")
    total = 0
    for x in loader:
        total += model(x).sum()  # ok: after the raise, it never runs
    return total


def loss_terms(pred, y):
    l1 = (pred - y).abs().mean()
    l2 = ((pred - y) ** 2).mean()
    return {"loss": l1 + l2, "l1": l1, "l2": l2}


def train_logged(model, loader, optimizer):
    total = 0.0
    for x, y in loader:
        logs = loss_terms(model(x), y)
        optimizer.zero_grad()
        logs["loss"].backward()
        optimizer.step()
        for key, value in logs.items():
            logs[key] = value.item()
        total += logs["loss"]  # ok: every entry was replaced by a number
    return total


def train_logged_enumerated(model, loader, optimizer):
    total = 0.0
    for x, y in loader:
        logs = loss_terms(model(x), y)
        optimizer.zero_grad()
        logs["loss"].backward()
        optimizer.step()
        for i, (key, value) in enumerate(logs.items()):
            logs[key] = value.item()
        total += logs["loss"]  # ok: every entry was replaced by a number, counted by enumerate
    return total


def train_logged_partly(model, loader, optimizer):
    total = 0.0
    for x, y in loader:
        logs = loss_terms(model(x), y)
        optimizer.zero_grad()
        logs["loss"].backward()
        optimizer.step()
        for key, value in logs.items():
            if key != "loss":
                logs[key] = value.item()
        total += logs["loss"]  # want: TL101 "host memory"
    return total


class BatchMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n


def train_graphs(net, loader, optimizer):
    meter = BatchMeter()
    for batch in loader:
        out = net(batch)
        loss = out.x.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.update(loss.item(), out.batch_size)  # ok: a graph batch's count is an int
    return meter


class StepBase:
    @staticmethod
    def optimize(optimizer, loss):
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Discriminator(StepBase):
    def __init__(self, net, optimizer):
        self.net, self.optimizer = net, optimizer

    def train_epoch(self, batches, labels):
        for batch in batches:
            d_loss = 0
            for label in labels:
                d_loss += self.net(batch, label).mean()  # ok: summed within one step, back-propagated by a base-class helper
            self.optimize(self.optimizer, d_loss)


def train_widths(model, loader, optimizer, criterion, widths):
    per_width = {"width%s" % w: 0.0 for w in widths}
    for x, y in loader:
        for w in widths:
            loss = criterion(model(x, w), y)
            per_width += loss  # ok: a dict's `+=` of a tensor raises TypeError on the first step
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return per_width


def parse_options():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accum-steps", type=int, default=2)
    parser.add_argument("--rate", type=int, default=16000)
    return parser.parse_args()


def seconds(mask, rate):
    return mask.sum() / rate


def train_scaled_plain(model, loader, optimizer):
    opts = parse_options()
    total = 0
    for x, mask in loader:
        total += seconds(mask, opts.rate)  # ok: options divide the loss below, which gives them no graph
        loss = model(x).mean() / opts.accum_steps
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return float(total)


def decode_loss(decoder, states, targets):
    loss = torch.zeros(states.size(1))
    for i in range(states.size(0)):
        loss += torch.nn.functional.nll_loss(torch.nn.functional.log_softmax(decoder(states[i]), dim=1), targets[i], reduction="none")  # ok: returned through mean_loss
    mean_loss = torch.mean(loss / states.size(0))
    return mean_loss
