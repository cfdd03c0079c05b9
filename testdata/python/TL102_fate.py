"""TL102: lists made together and returned together are followed to where they end."""
import torch


def validate(net, loader, crit):
    net.eval()
    losses, outs = [], []
    for x, y in loader:
        out = net(x)  # want: TL201(high)
        losses.append(crit(out, y))  # want: TL102(high)
        outs.append(out)  # want: TL102(high)
    return torch.stack(losses).mean().item(), torch.cat(outs).argmax(1)


def meta_step(net, tasks, crit, opt):
    losses, sizes = [], []
    for x, y in tasks:
        losses.append(crit(net(x), y))  # ok: the sum of the list is back-propagated
        sizes.append(len(y))
    opt.zero_grad()
    torch.stack(losses).sum().backward()
    opt.step()
    return sizes


def train(net, loader, val_loader, crit, opt):
    for x, y in loader:
        opt.zero_grad()
        crit(net(x), y).backward()
        opt.step()
    print(validate(net, val_loader, crit))
    meta_step(net, [], crit, opt)
