"""no_grad regions that could be inference_mode, and ones whose results re-enter autograd."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():  # want: TL203 "torch.inference_mode\(\)"
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            correct += (logits.argmax(1) == y).sum().item()
            total += y.size(0)
    return correct / total


@torch.no_grad()  # want: TL203 "plain Python values"
def validation_loss(model, loader, criterion):
    model.eval()
    losses = []
    for x, y in loader:
        loss = criterion(model(x), y)
        losses.append(loss.item())
    return float(np.mean(losses))


@torch.no_grad()  # want: TL203
def main():
    model = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 2))
    model.eval()
    batch = torch.randn(16, 8)
    probs = F.softmax(model(batch), dim=1)
    print(probs.argmax(1).tolist())


# ---- look-alikes that must stay silent ----


@torch.no_grad()  # ok: returns tensors that the caller may feed to autograd
def predict(model, x):
    model.eval()
    return model(x).softmax(-1)


@torch.no_grad()  # ok: an EMA update modifies parameters in place
def update_ema(ema_model, model, decay=0.999):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.mul_(decay).add_(p, alpha=1 - decay)


def init_weights(module):
    with torch.no_grad():  # ok: weight initialisation writes into parameters
        nn.init.kaiming_normal_(module.weight)
        module.bias.zero_()


def distill_step(student, teacher, x, optimizer):
    with torch.no_grad():  # ok: the teacher's targets feed the student's loss, which autograd records
        soft_targets = teacher(x).softmax(-1)
    loss = F.kl_div(student(x).log_softmax(-1), soft_targets, reduction="batchmean")
    loss.backward()
    optimizer.step()


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.policy = nn.Linear(4, 2)
        self.last_logits = None

    def act(self, obs):
        with torch.no_grad():  # ok: stores the output on self
            self.last_logits = self.policy(obs)
        return int(self.last_logits.argmax())


def collect_predictions(model, loader):
    preds = []
    with torch.no_grad():  # ok: tensors go into a list from outside the block, later concatenated
        for x, _ in loader:
            preds.append(model(x))
    return torch.cat(preds)


def clamp_weights(critic):
    with torch.no_grad():  # ok: in-place update of parameters (WGAN weight clipping)
        for p in critic.parameters():
            p.clamp_(-0.01, 0.01)


def pseudo_labels(model, x, optimizer, criterion):
    with torch.no_grad():  # ok: the labels it computes are used by the training loss below
        labels = model(x).argmax(1)
    loss = criterion(model(x), labels)
    loss.backward()
    optimizer.step()


def generate_samples(generator, z):
    with torch.no_grad():  # ok: yields tensors to the caller
        for chunk in z.split(8):
            yield generator(chunk)


@torch.no_grad()  # ok: a forward whose output is dropped runs for its side effects (BatchNorm statistics)
def recalibrate_bn(model, loader):
    model.train()
    for x, _ in loader:
        model(x)


def snapshot(model):
    frozen = copy.deepcopy(model)
    with torch.no_grad():  # ok: no forward pass, only a copy of the weights
        for p in frozen.parameters():
            p.requires_grad = False
    return frozen


@torch.no_grad()  # ok: model.cpu() and model.cuda() here would turn the parameters into inference tensors
def quick_accuracy(model, x, y):
    model.cpu()
    acc = (model(x).argmax(1) == y).float().mean().item()
    model.cuda()
    return acc


def peak_memory(model, x):
    with torch.no_grad():  # ok: the output is discarded; the block measures memory under no_grad on purpose
        _ = model(x)
    return torch.cuda.max_memory_allocated()
