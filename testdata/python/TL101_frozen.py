# A module that records no graph of its own (its constructor freezes every
# layer it holds) adds none to what it is given.
import torch
import torch.nn as nn


class NeighbourCounter(nn.Module):
    """A constant convolution over one-hot labels: counts neighbours."""

    def __init__(self, labels, size=3):
        super().__init__()
        conv = nn.Conv3d(labels, labels, size, padding=size // 2, groups=labels, bias=False)
        conv.weight.data.fill_(1.0)
        for p in conv.parameters():
            p.requires_grad = False
        self.conv = conv
        self.pad = nn.ReplicationPad3d(1)

    def forward(self, target):
        onehot = torch.zeros(target.shape[0], self.conv.in_channels, *target.shape[1:], device=target.device)
        onehot.scatter_(1, target.unsqueeze(1), 1)
        return torch.einsum("nidhw,njdhw->ij", onehot, self.conv(self.pad(onehot)))


class LearnedCounter(nn.Module):
    """The same, but its layer is trained."""

    def __init__(self, labels, size=3):
        super().__init__()
        conv = nn.Conv3d(labels, labels, size, padding=size // 2, groups=labels, bias=False)
        self.conv = conv

    def forward(self, x):
        return self.conv(x).sum()


def count_pairs(loader, labels):
    counter = NeighbourCounter(labels).cuda()
    pairs = torch.zeros(labels, labels, device="cuda")
    for target in loader:
        pairs += counter(target.cuda())  # ok: every layer of NeighbourCounter is frozen, and labels carry no graph
    return pairs


class Blur(nn.Module):
    """A fixed Gaussian blur: frozen, but differentiable in its input."""

    def __init__(self, channels):
        super().__init__()
        conv = nn.Conv2d(channels, channels, 5, padding=2, groups=channels, bias=False)
        conv.requires_grad_(False)
        self.conv = conv

    def forward(self, x):
        return self.conv(x)


def blurred_error(loader, channels):
    blur = Blur(channels)
    net = nn.Conv2d(channels, channels, 3, padding=1)
    total = 0.0
    for x, y in loader:
        total += ((blur(net(x)) - y) ** 2).mean()  # want: TL101 "seen to run through"
    return total


def score_learned(loader, labels):
    counter = LearnedCounter(labels)
    total = 0.0
    for x in loader:
        total += counter(x)  # want: TL101 "seen to run through"
    return total


class Extractor(nn.Module):
    def __init__(self, channels=3, freeze=True):
        super().__init__()
        self.conv = nn.Conv2d(channels, 8, 3)
        if freeze:
            self.requires_grad_(False)

    def forward(self, x):
        return self.conv(x)


def mean_frozen(loader):
    net = Extractor(3)
    total = 0.0
    for x in loader:
        total += net(x).mean()  # ok: built with its freezing default
    return total


def mean_trained(loader):
    net = Extractor(3, freeze=False).cuda()
    total = 0.0
    for x in loader:
        total += net(x).mean()  # want: TL101 "seen to run through"
    return total


def sum_log_probs(model, loader, criterion):
    act = nn.LogSoftmax(dim=1)
    total = 0.0
    for x, y in loader:
        total += criterion(act(model(x)), y)  # want: TL101 "seen to run through"
    return total


def sum_inputs(loader):
    act = nn.LogSoftmax(dim=1)
    total = 0.0
    for x, _ in loader:
        total += act(x).sum()  # ok: a layer with no parameters over data that needs no grad
    return total


# `.numpy()` raises on a tensor that requires grad: a total read with it,
# its history kept on the way, carries no graph, whatever made it.
def feature_stats(detector, loader):
    mu = torch.zeros(2048, dtype=torch.float64)
    sigma = torch.zeros(2048, 2048, dtype=torch.float64)
    n = 0
    for images in loader:
        features = detector(images).to(torch.float64)
        mu += features.sum(0)  # ok: `mu.cpu().numpy()` works below, so no graph
        sigma += features.T @ features  # ok: `sigma.cpu().numpy()` works below, so no graph
        n += images.shape[0]
    mu /= n
    sigma -= torch.outer(mu, mu) * n
    sigma /= n - 1
    return mu.cpu().numpy(), sigma.cpu().numpy()


def feature_means(detector, loader, opt):
    total = torch.zeros(2048)
    for images in loader:
        opt.zero_grad()
        feats = detector(images)
        feats.pow(2).mean().backward()
        opt.step()
        total += feats.mean(0)  # want: TL101 "after its backward"
    if total.requires_grad:
        total = total.detach()
    return total.cpu().numpy()  # proves nothing: a detached total works either way
