"""Sums and concatenates samples from the sampler of another file, one
batch of the loader at a time."""
import torch

from sampler import Sampler


def running_mean(sampler: Sampler, loader):
    total = torch.zeros(sampler.dim)
    for batch in loader:
        total = total + sampler.draw(len(batch), to_cpu=True).sum(0)  # ok: draw() returns detached samples
    return total / len(loader)


def running_mean_with_graph(sampler: Sampler, loader, path):
    total = torch.zeros(sampler.dim)
    for batch in loader:
        total = total + sampler.draw_with_graph(len(batch)).sum(0)  # want: TL101 "seen to run through" TL201 "through `Sampler.draw_with_graph`"
    torch.save(total, path)


def gallery(sampler: Sampler, loader, path):
    drawn = torch.zeros(0, sampler.dim)
    for batch in loader:
        drawn = torch.cat([drawn, sampler.draw(len(batch), to_cpu=True)])  # want: TL201 "through `Sampler.draw`"
    torch.save(drawn, path)


def gallery_with_graph(sampler: Sampler, loader, path):
    drawn = torch.zeros(0, sampler.dim)
    for batch in loader:
        drawn = torch.cat([drawn, sampler.draw_with_graph(len(batch))])  # want: TL101 "seen to run through" TL201
    torch.save(drawn, path)


def running_inpainted(sampler: Sampler, loader, path):
    total = torch.zeros(sampler.dim)
    for batch in loader:
        total = total + sampler.draw_inpainted(len(batch), batch > 0).sum(0)  # want: TL101 "seen to run through"
    torch.save(total, path)
