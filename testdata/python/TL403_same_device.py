"""Loads that read back what the same process wrote, on its own device."""
import os

import torch
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
device = torch.device("cuda:0" if torch.cuda.is_available() else "cuda:1")
model = torch.nn.Linear(8, 8).to(device)

# ok: one file per rank, saved from that rank's device and read back there
queue_path = os.path.join("dump", f"queue{rank}.pth")
if os.path.isfile(queue_path):
    queue = torch.load(queue_path)["queue"]
torch.save({"queue": torch.zeros(4, device=device)}, queue_path)

shared = torch.load("shared.pth")  # want: TL403 "several processes"


def train(steps):
    for _ in range(steps):
        with open("best.pt", "wb") as f:
            torch.save(model, f)


train(3)
# every rank wrote best.pt from its own GPU; the last writer's GPU is the
# one every rank reads it back to
with open("best.pt", "rb") as f:
    best = torch.load(f)  # want: TL403 "several processes"


class Checkpointer:
    def save(self, path):
        torch.save(model.state_dict(), path)

    def load(self, path):
        # the path is the caller's: another run's file, maybe another rank's
        return torch.load(path)  # want: TL403 "several processes"


def resume(path):
    state = torch.load(path)  # want: TL403 "several processes"
    torch.save(state, path)


def merge_shards(out_dir, world_size):
    merged = {}
    if rank == 0:
        for r_rank in range(1, world_size):
            # each shard comes back onto the GPU of the rank that saved it
            merged.update(torch.load(os.path.join(out_dir, f"model-{r_rank}.bin")))  # want: TL403 "several processes"
    return merged
