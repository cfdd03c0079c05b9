"""MXNet training code: the same names as PyTorch code, another framework."""
import mxnet as mx
from mxnet import autograd, gluon


def evaluate(net, data_iter):
    net.eval()  # ok: a Gluon block, not a torch module
    total = 0
    for x, y in data_iter:
        out = net(x)  # ok: MXNet runs no torch autograd here
        total += (out.argmax(axis=1) == y).sum()  # ok: an NDArray sum, not a torch graph
    return total


def train(net, data_iter, trainer, loss_fn):
    losses = []
    for x, y in data_iter:
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(x.shape[0])
        losses.append(loss)  # ok: MXNet arrays, whatever their graph
    return losses


def load(path):
    return mx.nd.load(path)  # ok: not torch.load
