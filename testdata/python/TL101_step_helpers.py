"""TL101: the losses of several discriminators, each back-propagated and
stepped by a method of the trainer that returns it, summed for a log
line. The sum keeps each step's graph (its autograd nodes) until the
total is set afresh in the next iteration."""
import torch
from torch import nn


class Trainer:
    def __init__(self, nets, optimizers):
        self.nets = nets
        self.optimizers = optimizers
        self.criterion = nn.BCEWithLogitsLoss()

    def train_d(self, idx, x, y):
        net, opt = self.nets[idx], self.optimizers[idx]
        net.zero_grad()
        err = self.criterion(net(x), y)
        err.backward()
        opt.step()
        return err

    def train_d_number(self, idx, x, y):
        net, opt = self.nets[idx], self.optimizers[idx]
        net.zero_grad()
        err = self.criterion(net(x), y)
        err.backward()
        opt.step()
        return err.item()

    def head_loss(self, idx, x, y):
        return self.criterion(self.nets[idx](x), y)

    def train(self, loader):
        for x, y in loader:
            err_total = 0
            for i in range(len(self.nets)):
                err = self.train_d(i, x, y)
                err_total += err  # want: TL101(high) "until its reset at line 36 alive after its backward"
            print(float(err_total))

    def train_numbers(self, loader):
        for x, y in loader:
            err_total = 0
            for i in range(len(self.nets)):
                err_total += self.train_d_number(i, x, y)  # ok: a number
            print(err_total)

    def train_joint(self, loader, opt):
        for x, y in loader:
            total = 0
            for i in range(len(self.nets)):
                total = total + self.head_loss(i, x, y)  # ok: the sum is the loss, back-propagated below
            opt.zero_grad()
            total.backward()
            opt.step()
