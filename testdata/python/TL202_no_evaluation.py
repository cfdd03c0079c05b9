"""TL202: `volatile=True` on what no evaluation runs through: the labels
of a training step that back-propagates, or a constant a constructor
keeps. The flag does nothing there, and `no_grad` would be wrong. On
the input of an evaluation it is reported."""
import torch
from torch import nn
from torch.autograd import Variable


class Detector(nn.Module):
    def __init__(self, priors):
        super().__init__()
        self.priors = Variable(priors, volatile=True)  # ok: a constant the constructor keeps
        self.head = nn.Linear(4, 4)

    def forward(self, x):
        return self.head(x) + self.priors


def train(net, criterion, optimizer, loader):
    for images, targets in loader:
        images = Variable(images.cuda())
        targets = [Variable(t.cuda(), volatile=True) for t in targets]  # ok: labels of a step that back-propagates
        loss = criterion(net(images), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def test(net, loader):
    net.eval()
    for images, _ in loader:
        images = Variable(images.cuda(), volatile=True)  # want: TL202
        print(net(images).argmax(1).tolist())  # want: TL201


def train_gan(netG, netD, loader, optimizer, gpus):
    fixed_noise = Variable(torch.randn(16, 100), volatile=True)  # want: TL202
    for step, (images, text) in enumerate(loader):
        loss = netD(netG(text)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 100 == 0:
            inputs = (text, fixed_noise)
            samples = nn.parallel.data_parallel(netG, inputs, gpus)
            print(samples.shape)


class SeparableConv(torch.autograd.Function):
    # Autograd runs a custom operation's forward and backward with grad
    # disabled: the flags are dead, and cost nothing there.
    @staticmethod
    def forward(ctx, x, kernel):
        ctx.save_for_backward(x, kernel)
        return Variable(x * kernel, volatile=True)  # ok: autograd runs forward with grad disabled

    @staticmethod
    def backward(ctx, grad_output):
        x, kernel = ctx.saved_tensors
        return Variable(grad_output * kernel, volatile=True), Variable(grad_output * x, volatile=True)  # ok: so does it backward


def run_conv(net, x, kernel):
    net.eval()
    y = SeparableConv.apply(x, kernel)
    v = Variable(y, volatile=True)  # want: TL202
    return net(v).tolist()  # want: TL201
