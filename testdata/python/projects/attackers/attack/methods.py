"""Attacks whose forward back-propagates through the model they attack."""
import torch.nn.functional as F

from attack import Attacker


class PGD(Attacker):
    def forward(self, x, y):
        x_adv = x.detach().clone()
        for _ in range(10):
            x_adv.requires_grad = True
            F.cross_entropy(self.model(x_adv), y).backward()
            x_adv = (x_adv + self.eps * x_adv.grad.sign()).detach()
        return x_adv


class FGSM(Attacker):
    def forward(self, x, y):
        x_adv = x.detach().clone()
        x_adv.requires_grad = True
        F.cross_entropy(self.model(x_adv), y).backward()
        return (x_adv + self.eps * x_adv.grad.sign()).detach()
