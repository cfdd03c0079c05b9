"""A torchrun script: every rank loads the checkpoint."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def main(path):
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    model = torch.nn.Linear(8, 8)
    state = torch.load(path)  # want: TL403 "several processes"
    model.load_state_dict(state)
    model = DistributedDataParallel(model.to(rank), device_ids=[rank])
    safe = torch.load(path, map_location=f"cuda:{rank}")  # ok: each rank names its device
    return model, safe
