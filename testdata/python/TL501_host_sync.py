"""Reading GPU tensors on the host every step, against reads the host needs
or that cost nothing more."""
import math
import time

import numpy as np
import torch
import torch.nn.functional as F


def train(model, loader, optimizer, criterion):
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()  # want: TL501 "accumulate `loss.detach\(\)` on the GPU .* also reads the GPU at lines 19, 20"
        print(loss)  # ok: the same wait, reported once at the loop's first read
        if loss < 0.01:
            print("converged?")
    return total / len(loader)


def evaluate(model, loader):
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x).argmax(1)
            correct += (pred == y).sum().item()  # want: TL501 "accumulate `\(pred == y\).sum\(\)` on the GPU"
    return correct


def train_steps(model, batches, optimizer, max_steps):
    step, history = 0, []
    while step < max_steps:
        x, y = next(batches)
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(float(loss))  # want: TL501 "keep `loss.detach\(\)` and convert once after the loop"
        step += 1
    return history


def compute_loss(model, batch):
    x, y = batch
    return F.cross_entropy(model(x), y)


def train_with_helper(model, loader, opt):
    running = []
    for batch in loader:
        objective = compute_loss(model, batch)
        opt.zero_grad()
        objective.backward()
        opt.step()
        running.append(objective.detach().cpu())  # want: TL501 "convert once after the loop"


def train_fixed(model, loader, optimizer, criterion):
    total = 0.0
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach()  # ok: stays on the GPU
        if step % 100 == 0:
            print(f"step {step}: {loss.item():.4f}")  # ok: a logging cadence
        if loss is not None:  # ok: an identity test reads nothing
            pass
    print(total.item() / len(loader))  # ok: once, after the loop
    return total


def train_until_nan(model, loader, optimizer, criterion):
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if not math.isfinite(loss.item()):  # ok: the host needs it to stop
            break


def train_checked(model, loader, optimizer, criterion, log):
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        value = loss.item()  # ok: decides the raise below, so the host waits anyway
        if math.isnan(value):
            raise RuntimeError("loss is NaN")
        log.append(value)  # ok: a Python float by now


def train_amp(model, loader, optimizer, criterion, scaler):
    total = 0.0
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = criterion(model(x), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # reads its inf check on the host every step
        scaler.update()
        total += loss.item()  # ok: the step waits for the GPU already
    return total


def predict(model, loader):
    preds, total = [], 0.0
    with torch.no_grad():
        for x, _ in loader:
            out = model(x)
            preds.append(out.argmax(1).cpu())  # ok: outputs kept on the host, by choice
            total += out.sum().item()  # ok: that copy waits for the GPU already
    return preds, total


def sample(model, prompt, steps):
    tokens = []
    x = prompt
    with torch.no_grad():
        for _ in range(steps):
            logits = model(x)
            tokens.append(logits[:, -1].argmax().item())  # ok: a decoding loop, not a step loop
    return tokens


def data_stats(loader):
    mean = 0.0
    for x, _ in loader:
        mean += x.float().mean().item()  # ok: input data, not a value the model computed
        mean += np.float32(1.5).item()  # ok: not a tensor
    return mean


def train_plateau(model, loader, optimizer, criterion, scheduler):
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step(loss.item())  # ok: the scheduler decides on it every step
        print(loss.item())  # ok: the step above waits already


def train_timed(model, loader, optimizer, criterion, times):
    for x, y in loader:
        start = time.perf_counter()
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
        print(loss.item())  # ok: the loop waits for the GPU every step anyway, to time it


def train_maybe_timed(model, loader, optimizer, criterion, sync_steps):
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if sync_steps:
            torch.cuda.synchronize()
        print(loss.item())  # want: TL501 "`loss.item\(\)` makes the host wait"


def train_gathered(unet, loader, optimizer, args):
    from accelerate import Accelerator

    accelerator = Accelerator()
    unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
    train_loss = 0.0
    for step, batch in enumerate(loader):
        loss = F.mse_loss(unet(batch["x"]), batch["y"])
        avg_loss = accelerator.gather(loss.repeat(8)).mean()
        train_loss += avg_loss.item()  # want: TL501 "accumulate `avg_loss` on the GPU .* also reads the GPU at line 188"
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        logs = {"step_loss": loss.detach().item()}  # ok: reported at the step's first read, line 184
        print(logs)
        if accelerator.sync_gradients:
            accelerator.log({"train_loss": train_loss}, step=step)
            train_loss = 0.0


def gathered_elsewhere(model, loader, optimizer, helper):
    merged = 0.0
    for x, y in loader:
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        merged += helper.gather(loss).mean().item()  # ok: helper is no Accelerator: what its gather returns is not known
    return merged


def train_printed(model, loader, optimizer):
    for x, y in loader:
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("loss", F.mse_loss(model(x).detach(), y, reduction="sum").item())  # want: TL501 "^`\.item\(\)` makes the host wait" TL201 "drops the output at once"


def train_early_stopping(model, data, optimizer, criterion, epochs, patience):
    best, wait = 1e9, 0
    for epoch in range(epochs):
        optimizer.zero_grad()
        loss = criterion(model(data.x), data.y)
        print("loss", loss)  # ok: the early stop below waits for the GPU every step anyway
        if loss < best:  # ok: the comparison decides the early stop below
            best = loss
            wait = 0
        else:
            wait += 1
        if wait == patience:
            break
        loss.backward()
        optimizer.step()


def train_keep_best(model, loader, optimizer, criterion, path):
    best = float("inf")
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        if loss < best:  # ok: which weights to save is decided now
            best = loss
            torch.save(model.state_dict(), path)


def train_track_best(model, loader, optimizer, criterion):
    best = float("inf")
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        if loss < best:  # want: TL501 "^`if loss < best:` makes the host wait"
            best = loss
    return best


def train_flow(model, loader, optimizer, scheduler_timesteps, scheduler_sigmas):
    def get_sigmas(timesteps):
        indices = [(scheduler_timesteps == t).nonzero().item() for t in timesteps]
        return scheduler_sigmas[indices]

    for x, t in loader:
        sigmas = get_sigmas(t)
        loss = F.mse_loss(model(x * sigmas), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(loss.item())  # ok: get_sigmas reads on the host every step already


def train_flow_sometimes(model, loader, optimizer, scheduler_timesteps, use_sigmas):
    def get_index(t):
        return (scheduler_timesteps == t).nonzero().item()

    for x, t in loader:
        if use_sigmas:
            x = x * get_index(t)
        loss = F.mse_loss(model(x), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(loss.item())  # want: TL501 "`loss.item\(\)` makes the host wait"


def fit_until_close(target, img, optimizer):
    # The value read is the loop's own stop condition: the host needs it
    # every step to know whether to go on.
    value = 0.0
    while value < 0.99:
        optimizer.zero_grad()
        out = -(1 - (target - img.cuda()).abs().mean())
        value = -out.item()  # ok: TL501 the while loop stops on it
        out.backward()
        optimizer.step()


def fit_steps(target, img, optimizer, steps):
    value, step = 0.0, 0
    while step < steps:
        optimizer.zero_grad()
        out = -(1 - (target - img.cuda()).abs().mean())
        value = -out.item()  # want: TL501 "makes the host wait"
        out.backward()
        optimizer.step()
        step += 1
    return value
