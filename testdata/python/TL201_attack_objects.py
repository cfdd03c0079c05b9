"""TL201: an attack written as a module of this file, whose forward asks
for the gradients of its input, needs grad: calling it is no evaluation
pass. The accuracy pass on what it returns is one."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FGSM(nn.Module):
    def __init__(self, model, eps=8 / 255):
        super().__init__()
        self.model, self.eps = model, eps

    def forward(self, images, labels):
        images = images.clone().detach().requires_grad_(True)
        cost = F.cross_entropy(self.model(images), labels)
        grad = torch.autograd.grad(cost, images)[0]
        return (images + self.eps * grad.sign()).clamp(0, 1).detach()


class Blur(nn.Module):
    """No gradients asked: running it on the model's outputs is evaluation."""

    def __init__(self, model):
        super().__init__()
        self.model = model
        self.conv = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, images, labels):
        return self.model(self.conv(images))


def robust_accuracy(model, loader):
    atk = FGSM(model)
    model.eval()
    correct = 0
    for x, y in loader:
        adv = atk(x, y)  # ok: the attack asks for the gradients of its input
        out = model(adv)  # want: TL201 "model\(adv\).*read on the host before any backward"
        correct += (out.argmax(1) == y).sum().item()
    return correct


def blurred_accuracy(model, loader):
    blur = Blur(model)
    blur.eval()
    return [blur(x, y).argmax(1).tolist() for x, y in loader]  # want: TL201 "blur\(x, y\)"


class Adapter(nn.Module):
    """A meta-learner: its forward adapts the head to the support set with
    torch.autograd.grad before it scores the query."""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(8, 5)

    def forward(self, support, labels, query):
        w = self.head.weight
        g = torch.autograd.grad(F.cross_entropy(F.linear(support, w), labels), w)[0]
        return F.linear(query, w - 0.1 * g)


def meta_accuracy(tasks):
    learner = Adapter()
    learner.eval()
    scores = []
    for support, labels, query, answers in tasks:
        logits = learner(support, labels, query)  # ok: its forward asks for gradients, which needs grad
        scores.append((logits.argmax(1) == answers).float().mean().item())
    return scores
