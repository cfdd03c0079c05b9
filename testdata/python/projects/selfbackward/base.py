import torch


class BaseModel:
    def __init__(self, net, lr=0.1):
        self.net = net
        self.opt = torch.optim.SGD(net.parameters(), lr=lr)
        self.loss_G = 0

    def backward_G(self):
        self.loss_G.backward()

    def optimize(self, clip):
        self.forward(clip)
        self.opt.zero_grad()
        self.backward_G()
        self.opt.step()


class Mixin:
    def describe(self):
        return type(self).__name__
