import torch

from engine import accuracy, compute_loss, forward_with_count, maybe_clear, predict, run_batch, saliency, step_fn, train_phase
from models import Classifier, FocalLoss
from models.classifier import Tokenizer
from utils import *


def evaluate(clf, loader):
    clf.eval()
    outs = []
    for x, _ in loader:
        outs.append(run_batch(clf, x))  # want: TL102
    return outs


def evaluate_saliency(clf, loader):
    clf.eval()
    maps = []
    for x, _ in loader:
        maps.append(saliency(clf, x).detach())  # ok: the helper needs gradients
    return maps


def evaluate_quiet(clf, loader):
    clf.eval()
    with torch.no_grad():
        return [predict(clf, x) for x, _ in loader]  # ok: grad disabled at the call


def train(loader, opt):
    net = Classifier()
    crit = FocalLoss()
    total = 0
    acc = 0
    seen = 0
    for step, (x, y) in enumerate(loader):
        step_fn(net, x, opt)  # want: TL301 "through `step_fn` \(engine.py:18\)"
        maybe_clear(step)  # ok: the helper empties the cache only every 100 steps
        total += compute_loss(net, x, y)  # want: TL101 "seen to run through"
        with torch.no_grad():
            acc += accuracy(net(x), y)  # ok: grad disabled
        out, n = forward_with_count(net, x)
        seen += n  # ok: the count next to the output carries no graph
        loss = crit(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return total, acc, seen


def evaluate_tokens(texts):
    tok = Tokenizer()
    return [tok(t) for t in texts]  # ok: a class of another file that is not a module


def load(path):
    set_seed(0)
    return torch.load(path).cuda()  # want: TL403


def _forward(m, x):
    return m(x)  # want: TL201 "every caller hands a model it switched to evaluation mode \(train.py:68\)"


def evaluate_local(clf, loader):
    clf.eval()
    return [_forward(clf, x).argmax(-1) for x, _ in loader]


def _apply(fn, x):
    return fn(x)


def evaluate_apply(clf, loader):
    clf.eval()
    return [_apply(torch.sigmoid, x) for x, _ in loader]  # ok: the helper is passed a function, not a model


def rollouts(agent, collect, opt, prompts_loader):
    for prompts in prompts_loader:
        buffer = collect(agent, prompts)
        train_phase(agent, buffer, opt, 4)  # ok: the helper flushes once a phase, around its own loop of steps
