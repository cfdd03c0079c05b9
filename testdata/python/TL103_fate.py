"""TL103: where the retained graph's values go after its backward decides whether it is needed, and how sure the finding is."""
import torch
import torch.nn.functional as F
from torch import nn
from tracking import monitor


def consistency(feats, opt):
    opt.zero_grad()
    feats.pow(2).mean().backward()
    opt.step()


def train(net, head, batches, opt, aux_opt):
    for x, y in batches:
        feats = net(x)
        loss = F.cross_entropy(head(feats), y)
        opt.zero_grad()
        loss.backward(retain_graph=True)  # ok: a helper back-propagates feats again
        opt.step()
        consistency(feats, aux_opt)


def train_monitored(net, head, batches, opt):
    for x, y in batches:
        feats = net(x)
        loss = F.cross_entropy(head(feats), y)
        opt.zero_grad()
        loss.backward(retain_graph=True)  # want: TL103(medium)
        opt.step()
        monitor(feats)


def train_logged(net, head, batches, opt):
    for x, y in batches:
        feats = net(x)
        loss = F.cross_entropy(head(feats), y)
        opt.zero_grad()
        loss.backward(retain_graph=True)  # want: TL103(high)
        opt.step()
        print(feats.norm().item())


if __name__ == "__main__":
    n, h = nn.Linear(4, 8), nn.Linear(8, 2)
    o = torch.optim.SGD(list(n.parameters()) + list(h.parameters()), lr=0.1)
    train(n, h, [], o, o)
    train_monitored(n, h, [], o)
    train_logged(n, h, [], o)
