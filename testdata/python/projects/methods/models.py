import torch
from torch import nn


class SelfClearing(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(8, 8)
        self.dec = nn.Linear(8, 2)

    def forward(self, x, y):
        self.zero_grad()
        return nn.functional.cross_entropy(self.dec(self.enc(x)), y)


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(8, 8)
        self.dec = nn.Linear(8, 2)

    def forward(self, x, y):
        return nn.functional.cross_entropy(self.dec(self.enc(x)), y)


class Fusable(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU())

    def forward(self, x):
        return self.body(x)

    def fuse_model(self):
        for m in self.modules():
            if isinstance(m, nn.Sequential):
                torch.ao.quantization.fuse_modules(m, ["0", "1", "2"], inplace=True)

    def embed(self, x):
        return self.body(x).mean((2, 3))


class Predictor:
    def __init__(self, net):
        self.net = net

    def __call__(self, image):
        with torch.no_grad():
            return self.net(image).argmax(1).cpu()


class GradPredictor:
    def __init__(self, net):
        self.net = net

    def __call__(self, image):
        return self.net(image).argmax(1).cpu()  # want: TL201 "forward pass"


class Saliency:
    def __init__(self, net):
        self.net = net

    def forward(self, image):
        self.scores = self.net(image)
        return self.scores.detach().softmax(1)

    def backward(self, idx):
        self.net.zero_grad()
        self.scores[0, idx].backward()

    def generate(self):
        grads = [p.grad.abs().sum() for p in self.net.parameters()]
        return torch.stack(grads).cpu().numpy()

    def logits(self, image):
        return self.net(image)
