"""Allocator configuration set before and after CUDA is initialised."""
import os
import subprocess
import sys

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: top of the entry script, before any CUDA use

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

ALLOC_KEY = "PYTORCH_CUDA_ALLOC_CONF"

os.environ.setdefault(ALLOC_KEY, "expandable_segments:True")  # ok: after import torch, but nothing initialised CUDA yet

if torch.cuda.is_available():
    print("GPUs:", torch.cuda.device_count())
torch.cuda.manual_seed_all(0)
torch.backends.cudnn.benchmark = True
DEVICE = torch.device("cuda")
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: is_available, device_count, manual_seed, cudnn flags and torch.device do not initialise CUDA


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc(x)


def train_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()


def train(dataset, epochs):
    model = Net().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # want: TL302 "after CUDA was initialised \(line \d+: `Net\(\)\.cuda\(\)`\).*reads its settings once"
    for _ in range(epochs):
        train_epoch(model, DataLoader(dataset, batch_size=64), optimizer)


def configure_then_train(dataset):
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: first statement of the function; the CUDA use follows it
    model = Net().cuda()
    return model


def setup_distributed(local_rank):
    torch.cuda.set_device(local_rank)
    os.environ.update({"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"})  # want: TL302 "line \d+: `torch.cuda.set_device\(local_rank\)`"


def warmup(model):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    os.putenv("PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:256")  # want: TL302 "may have been initialised"


def build_on_gpu():
    return Net().to("cuda:0")


def prepare():
    model = build_on_gpu()
    os.environ["PYTORCH_HIP_ALLOC_CONF"] = "expandable_segments:True"  # want: TL302 "`build_on_gpu\(\)`, which runs `Net\(\)\.to\(\"cuda:0\"\)`"
    return model


def sample(n):
    noise = torch.randn(n, 128, device="cuda")
    os.environ[ALLOC_KEY] = "garbage_collection_threshold:0.8"  # want: TL302
    return noise


def pick_device(use_gpu, model):
    if use_gpu:
        model.cuda()
    else:
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: the other branch of the if that initialises CUDA


def cuda_helper_defined_first():
    def move(model):
        return model.cuda()

    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: move() is only defined above, never called before
    return move


def report_memory():
    torch.cuda.empty_cache()
    used = torch.cuda.memory_allocated()
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: empty_cache and memory_allocated are no-ops before CUDA is initialised
    return used


def late_but_guarded(model):
    model.cuda()
    if not torch.cuda.is_initialized():
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: guarded by is_initialized()


def launch_workers(model, script):
    model.cuda()
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: meant for the child process launched below
    subprocess.run([sys.executable, script], check=True)


class GanTrainer:
    def __init__(self, ngpu):
        self.device = torch.device("cuda:0" if torch.cuda.is_available() and ngpu > 0 else "cpu")
        self.netG = Net().to(self.device)
        self.netD = Net().to(self.device)

    def tune_allocator(self):
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: self.device is an attribute, not known to be CUDA; no caller in the file

    def fit(self, loader):
        for real, _ in loader:
            real = real.cuda(non_blocking=True)
            self.netD(real).mean().backward()
        self.reconfigure()

    def reconfigure(self):
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # want: TL302 "`self.reconfigure\(\)` on line \d+ runs after line \d+: `real.cuda\(non_blocking=True\)`"


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 4).cuda()


def rollout(env, steps, device="cuda"):
    policy = Policy()
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # want: TL302 "`Policy\(\)`, which runs `nn.Linear\(8, 4\).cuda\(\)`"
    obs = torch.as_tensor(env.reset(), device=device)
    return policy, obs


def rollout_cpu(env, device="cuda"):
    obs = torch.as_tensor(env.reset(), dtype=torch.float32)
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: the tensor is created without a device
    return obs.to(device)


def rollout_with_device(env, device="cuda"):
    obs = torch.as_tensor(env.reset(), device=device)
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # want: TL302 "may have been initialised"
    return obs


def main(dataset):
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # want: TL302 "`main\(DATASET\)` on line \d+ runs after line \d+: `torch.zeros\(1\).cuda\(\)`"
    train(dataset, epochs=1)


def evaluate():
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # ok: called once before and once after CUDA use
    return 0


if __name__ == "__main__":
    DATASET = torch.utils.data.TensorDataset(torch.randn(256, 32), torch.randint(0, 10, (256,)))
    evaluate()
    probe = torch.zeros(1).cuda()
    evaluate()
    main(DATASET)
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # want: TL302 "line \d+: `torch.zeros\(1\).cuda\(\)`"
