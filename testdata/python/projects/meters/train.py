"""A training loop that keeps its statistics in helper objects."""
import torch

from utils import AverageMeter, History, ScalarMeter, log_value


def train_epoch(net, loader, opt, crit):
    losses = AverageMeter()
    scalars = ScalarMeter()
    for x, y in loader:
        loss = crit(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.update(loss, x.size(0))  # want: TL101
        losses.update(loss.item(), x.size(0))
        scalars.update(loss)  # ok: the meter converts it to a float
        log_value(loss, 1)  # ok: a function, not an object that outlives the step
    return losses.avg


def evaluate(net, loader):
    net.eval()
    history = History()
    for x, y in loader:
        out = net(x)  # want: TL201
        history.add(out)  # ok: the method detaches it
        history.add_raw(out)  # want: TL101


def evaluate_quietly(net, loader):
    net.eval()
    meter = AverageMeter()
    with torch.no_grad():
        for x, y in loader:
            meter.update(net(x).mean())


def per_step_meter(net, loader, opt):
    for x, y in loader:
        meter = AverageMeter()  # made afresh each step
        loss = net(x).sum()
        loss.backward()
        meter.update(loss)


class Tracker:
    def __init__(self):
        self.sum = 0

    def add(self, v):
        self.sum += v


def train_local(net, loader, opt):
    tracker = Tracker()
    for x, y in loader:
        loss = net(x).sum()
        loss.backward()
        tracker.add(loss)  # want: TL101
