# A loss summed over the frames of one clip and back-propagated through an
# attribute of self, in the same method or in a method of the same class.
import torch
import torch.nn as nn


class Clip:
    def __init__(self):
        self.net = nn.Linear(8, 8)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)
        self.l1 = nn.L1Loss()

    def backward_same(self, frames, fakes):
        rec = 0
        for i in range(len(frames)):
            rec += self.l1(fakes[i], frames[i])  # ok: back-propagated through self.loss
        self.loss = rec / len(frames)
        self.loss.backward()

    def run_backward(self):
        self.total.backward()

    def backward_helper(self, frames, fakes):
        rec = 0
        for i in range(len(frames)):
            rec += self.l1(fakes[i], frames[i])  # ok: run_backward back-propagates self.total
        self.total = rec
        self.run_backward()

    def monitor(self, loader):
        self.loss = 0
        drift = 0
        for x in loader:
            drift += self.l1(self.net(x), x)  # want: TL101 "seen to run through"
        return drift.item()


class Canvas:
    # Sums made with grad disabled keep no graph.
    def __init__(self):
        self.total = 0
        self.running = 0

    @torch.no_grad()
    def paint(self, pred):
        self.total += pred * 0.5

    def paint_block(self, pred):
        with torch.no_grad():
            self.total += pred

    def add(self, pred):
        self.running += pred


def paint_all(net, loader, opt):
    canvas = Canvas()
    for x in loader:
        pred = net(x)
        loss = pred.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        canvas.paint(pred)  # ok: the sum is made under no_grad
        canvas.paint_block(pred)  # ok: so is this one
        canvas.add(pred)  # want: TL101 "adds it into"
    return canvas
