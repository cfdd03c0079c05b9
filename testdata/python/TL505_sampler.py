"""Data-parallel loaders: a DistributedSampler never told the epoch, a
DDP model fed by a loader that shuffles alone, and the right ways."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Subset
from torch.utils.data.distributed import DistributedSampler


def train(model, dataset, optimizer, epochs, rank):
    model = DDP(model.to(rank), device_ids=[rank])
    sampler = DistributedSampler(dataset)  # want: TL505 "epoch loop at line 14 never calls `set_epoch`.* `sampler.set_epoch\(epoch\)`"
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()


def train_inline(model, dataset, optimizer, epochs):
    loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset, shuffle=True))  # want: TL505 "`loader.sampler.set_epoch\(epoch\)`"
    for epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def train_shuffled(model, dataset, optimizer, rank):
    dist.init_process_group("nccl")
    ddp_model = DDP(model.to(rank), device_ids=[rank])
    loader = DataLoader(dataset, batch_size=32, shuffle=True)  # want: TL505 "each rank iterates all of it"
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(ddp_model(x), y).backward()
        optimizer.step()


def train_set_epoch(model, dataset, optimizer, epochs):
    sampler = DistributedSampler(dataset)  # ok: set_epoch below
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def train_loader_sampler(model, dataset, optimizer, epochs):
    loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset))  # ok: set through the loader
    for epoch in range(epochs):
        loader.sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def run_epoch(model, loader, optimizer, epoch):
    loader.sampler.set_epoch(epoch)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()


def train_with_helper(model, dataset, optimizer, epochs):
    loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset))  # ok: run_epoch is handed the loader
    for epoch in range(epochs):
        run_epoch(model, loader, optimizer, epoch)


def evaluate(model, dataset):
    sampler = DistributedSampler(dataset, shuffle=False)  # ok: an evaluation order, not shuffled
    loader = DataLoader(dataset, batch_size=64, sampler=sampler)
    with torch.no_grad():
        for epoch in range(3):
            for x, _ in loader:
                model(x)


def train_single_pass(model, dataset, optimizer):
    sampler = DistributedSampler(dataset)  # ok: one pass, no epoch loop
    for x, y in DataLoader(dataset, sampler=sampler):
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()


def train_sharded(model, dataset, optimizer, rank, world_size):
    ddp_model = DDP(model)
    shard = Subset(dataset, range(rank, len(dataset), world_size))
    loader = DataLoader(Subset(dataset, range(rank, len(dataset), world_size)), shuffle=True)  # ok: sharded by rank already
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(ddp_model(x), y).backward()
        optimizer.step()
    return shard


def train_single_gpu(model, dataset, optimizer):
    loader = DataLoader(dataset, batch_size=32, shuffle=True)  # ok: no DistributedDataParallel here
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()


def train_progress(model, dataset, optimizer, epochs):
    from tqdm import tqdm

    sampler = DistributedSampler(dataset)  # want: TL505 "`sampler.set_epoch\(epoch\)`"
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    for epoch in range(epochs):
        bar = tqdm(loader, leave=False)
        for step, (x, y) in enumerate(bar):
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
            print("epoch {} step {}/{}".format(epoch, step, len(loader)))


def train_rank_zero_eval(model, dataset, test_set, optimizer, epochs, rank):
    model = DDP(model.to(rank), device_ids=[rank])
    sampler = DistributedSampler(dataset)
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    if rank == 0:
        test_loader = DataLoader(test_set, batch_size=64, shuffle=True)  # ok: made and read by one process only
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
        if rank == 0:
            with torch.no_grad():
                for x, y in test_loader:
                    model(x)


def train_either(model, dataset, optimizer, epochs, multi_gpu, rank):
    if multi_gpu:
        model = DDP(model.to(rank), device_ids=[rank])
        sampler = DistributedSampler(dataset)
        loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    else:
        loader = DataLoader(dataset, batch_size=32, shuffle=True)  # ok: this branch has no DDP model
        sampler = None
    for epoch in range(epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()


def train_then_test(model, dataset, test_set, optimizer, epochs, rank):
    model = DDP(model.to(rank), device_ids=[rank])
    sampler = DistributedSampler(dataset)
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    test_sampler = DistributedSampler(test_set)  # ok: it only feeds the evaluation, whose order does not matter
    test_loader = DataLoader(test_set, batch_size=64, sampler=test_sampler)
    shown = DataLoader(test_set, batch_size=8, shuffle=True)  # ok: read to evaluate, not to train
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
        with torch.no_grad():
            correct = sum((model(x).argmax(1) == y).sum() for x, y in test_loader)
            for x, y in shown:
                print(model(x), y, correct)


def train_inline_progress(model, dataset, optimizer, epochs):
    from tqdm import tqdm

    train_loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset))  # want: TL505 "call `train_loader.sampler.set_epoch\(epoch\)`"
    for epoch in range(epochs):
        bar = tqdm(train_loader)
        for x, y in bar:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()


def train_and_score(model, dataset, test_set, optimizer, epochs):
    train_sampler = DistributedSampler(dataset)  # want: TL505 "call `train_sampler.set_epoch\(epoch\)`"
    test_sampler = DistributedSampler(test_set)  # ok: it only feeds the evaluation, whose order does not matter
    loader = DataLoader(dataset, batch_size=32, sampler=train_sampler)
    test_loader = DataLoader(test_set, batch_size=64, sampler=test_sampler)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            for x, y in test_loader:
                print((model(x).argmax(1) == y).float().mean())


def train_split_by_rank(model, dataset, optimizer, epochs):
    rank, world = dist.get_rank(), dist.get_world_size()
    model = DDP(model)
    indices = list(range(len(dataset)))
    part = Subset(dataset, indices[rank::world])
    loader = DataLoader(part, batch_size=32, shuffle=True)  # ok: each rank holds its own part of the data
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def train_pre_split(model, dataset, optimizer, epochs):
    model = DDP(model)
    mine = dataset.shard(num_shards=dist.get_world_size(), index=dist.get_rank())
    loader = DataLoader(mine, batch_size=32, shuffle=True)  # ok: sharded before the loader is built
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def train_unsplit(model, dataset, optimizer, epochs):
    model = DDP(model)
    subset = Subset(dataset, range(1000))
    loader = DataLoader(subset, batch_size=32, shuffle=True)  # want: TL505 "each rank iterates all of it"
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def train_flagged(model, dataset, optimizer, epochs, distributed, rank):
    if distributed:
        model = DDP(model.to(rank), device_ids=[rank])
    if distributed:
        loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset))
    else:
        loader = DataLoader(dataset, batch_size=32, shuffle=True)  # ok: only without DDP
    for epoch in range(epochs):
        if distributed:
            loader.sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def train_flagged_negated(model, dataset, optimizer, distributed, rank):
    if distributed:
        model = DDP(model.to(rank), device_ids=[rank])
    if not distributed:
        loader = DataLoader(dataset, batch_size=32, shuffle=True)  # ok: only without DDP
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def train_flagged_both(model, dataset, optimizer, distributed, rank):
    if distributed:
        model = DDP(model.to(rank), device_ids=[rank])
    loader = DataLoader(dataset, batch_size=32, shuffle=True)  # want: TL505 "each rank iterates all of it"
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()


def train_unnamed_epochs(model, dataset, optimizer, epochs):
    sampler = DistributedSampler(dataset)  # want: TL505 "call `sampler.set_epoch` at the start of each epoch with the epoch's number \(this loop does not name it: count the epochs\)"
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    for _ in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def train_named_epochs(model, dataset, optimizer, epochs):
    sampler = DistributedSampler(dataset)  # want: TL505 "call `sampler.set_epoch\(ep\)`"
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    for ep in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
