"""TL505: a DistributedSampler whose set_epoch is never called, against
one given the epoch at the start of each.

Two data-parallel ranks are simulated in one process, without
init_process_group: each has its own DistributedSampler, built with
num_replicas=2 and its rank, and its own DataLoader of 32 samples a
batch. Every step runs rank 0's batch and rank 1's through the one model
and back-propagates the mean of the two losses, the gradient that
DistributedDataParallel averages over two ranks (batch norm uses each
rank's batch, as without SyncBatchNorm). The CNN of training.py on its
synthetic task, 15 epochs, SGD (learning rate 0.01, momentum 0.9, weight
decay 5e-4). --repeat seeds, each a fresh model and sampler seed.

    python3 evidence/tl505_set_epoch.py bad_no_set_epoch --repeat 5
"""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

from common import cli
from training import repeat

EPOCHS = 15
BATCH = 32  # per rank
RANKS = 2


def bad_no_set_epoch(model, optimizer, data, epochs, log):
    sampler = DistributedSampler(data.train_set, num_replicas=RANKS, rank=0, seed=data.seed)  # evidence: TL505
    loader = DataLoader(data.train_set, batch_size=BATCH, sampler=sampler, drop_last=True)
    other = DistributedSampler(data.train_set, num_replicas=RANKS, rank=1, seed=data.seed)  # evidence: TL505
    other_loader = DataLoader(data.train_set, batch_size=BATCH, sampler=other, drop_last=True)
    for epoch in range(epochs):
        model.train()
        for (x, y), (x1, y1) in zip(loader, other_loader):
            optimizer.zero_grad()
            loss0 = F.cross_entropy(model(x.to(data.device)), y.to(data.device))
            loss1 = F.cross_entropy(model(x1.to(data.device)), y1.to(data.device))
            loss = (loss0 + loss1) / RANKS
            loss.backward()
            optimizer.step()
            log.step(loss)
        log.epoch(model)


def fixed_set_epoch(model, optimizer, data, epochs, log):
    sampler = DistributedSampler(data.train_set, num_replicas=RANKS, rank=0, seed=data.seed)
    loader = DataLoader(data.train_set, batch_size=BATCH, sampler=sampler, drop_last=True)
    other = DistributedSampler(data.train_set, num_replicas=RANKS, rank=1, seed=data.seed)
    other_loader = DataLoader(data.train_set, batch_size=BATCH, sampler=other, drop_last=True)
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        other.set_epoch(epoch)
        model.train()
        for (x, y), (x1, y1) in zip(loader, other_loader):
            optimizer.zero_grad()
            loss0 = F.cross_entropy(model(x.to(data.device)), y.to(data.device))
            loss1 = F.cross_entropy(model(x1.to(data.device)), y1.to(data.device))
            loss = (loss0 + loss1) / RANKS
            loss.backward()
            optimizer.step()
            log.step(loss)
        log.epoch(model)


def run(variant, args):
    def sgd(model):
        return torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)

    return repeat(variant, args, sgd, EPOCHS)


if __name__ == "__main__":
    cli(run)
