"""What the evidence programs share: small models, synthetic data, a
per-step memory probe, and the command line.

Every program runs one variant of one pattern per process and prints one
JSON line of measurements; run.py starts the processes and aggregates them.
Nothing is downloaded: weights are random and data is synthetic.
"""
import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

MIB = 2**20
CLASSES = 10
VOCAB = 1000


class SmallCNN(nn.Module):
    """Three conv blocks and a linear head: CIFAR-sized images."""

    def __init__(self, classes=CLASSES):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.head = nn.Linear(64, classes)

    def forward(self, x):
        return self.head(self.body(x).mean((2, 3)))


class SmallTransformer(nn.Module):
    """A two-layer encoder that classifies token sequences."""

    def __init__(self, vocab=VOCAB, d=128, heads=4, layers=2, classes=CLASSES):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, batch_first=True)
        self.body = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head = nn.Linear(d, classes)

    def forward(self, tokens):
        return self.head(self.body(self.embed(tokens)).mean(1))


class Block(nn.Module):
    """A GPT-2 block: pre-norm causal self-attention and MLP."""

    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    """GPT-2 small's shape: 12 layers, 768 wide, 12 heads, 50257 tokens, tied embeddings (124M parameters)."""

    def __init__(self, vocab=50257, context=1024, d=768, layers=12, heads=12):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(context, d)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, tokens):
        x = self.tok(tokens) + self.pos(torch.arange(tokens.shape[1], device=tokens.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def small_model(name):
    """The small CNN or transformer on the GPU, in training mode."""
    torch.manual_seed(0)
    net = SmallCNN() if name == "cnn" else SmallTransformer()
    return net.to("cuda")


class SyntheticLoader:
    """Random (input, label) batches made on the GPU, one per step: images
    for the CNN and ResNets, token sequences for the transformer. Each
    pass yields the same batches."""

    def __init__(self, kind, steps, batch=16, size=32):
        self.kind, self.steps, self.batch, self.size = kind, steps, batch, size

    def __len__(self):
        return self.steps

    def __iter__(self):
        gen = torch.Generator(device="cuda")
        gen.manual_seed(0)
        for _ in range(self.steps):
            if self.kind == "transformer":
                x = torch.randint(0, VOCAB, (self.batch, 64), device="cuda", generator=gen)
            else:
                x = torch.randn(self.batch, 3, self.size, self.size, device="cuda", generator=gen)
            yield x, torch.randint(0, CLASSES, (self.batch,), device="cuda", generator=gen)


def synthetic_batches(kind, steps):
    """The batches of the small models' runs."""
    return SyntheticLoader(kind, steps)


def rss_kib():
    """The resident set size of this process, in KiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Probe:
    """Records, after each step, GPU memory allocated, the step's peak,
    reserved memory, host RSS and the step's wall time. It touches CUDA
    only when called, so that a program can create it before CUDA is
    initialised."""

    def __init__(self, rss=True):
        self.rss = rss
        self.trace = {"alloc_mib": [], "peak_mib": [], "reserved_mib": [], "peak_reserved_mib": [], "ms": [], "rss_kib": []}
        self.base = None
        self.last = time.perf_counter()

    def start(self):
        """Marks the state before the loop and resets the peak."""
        torch.cuda.synchronize()
        self.base = {"alloc_mib": torch.cuda.memory_allocated() / MIB, "rss_kib": rss_kib()}
        torch.cuda.reset_peak_memory_stats()
        self.last = time.perf_counter()

    def __call__(self, step):
        torch.cuda.synchronize()
        now = time.perf_counter()
        t = self.trace
        t["ms"].append((now - self.last) * 1e3)
        t["alloc_mib"].append(torch.cuda.memory_allocated() / MIB)
        t["peak_mib"].append(torch.cuda.max_memory_allocated() / MIB)
        t["reserved_mib"].append(torch.cuda.memory_reserved() / MIB)
        t["peak_reserved_mib"].append(torch.cuda.max_memory_reserved() / MIB)
        if self.rss:
            t["rss_kib"].append(rss_kib())
        torch.cuda.reset_peak_memory_stats()
        self.last = time.perf_counter()

    def result(self, warmup=20):
        """The trace, the state before the loop, and figures computed
        over the steps after the first warmup ones."""
        return {"base": self.base, "figures": trace_figures(self.trace, self.base, warmup), "trace": self.trace}


def slope(values):
    """The least-squares slope of values over their indices."""
    n = len(values)
    if n < 2:
        return 0.0
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    num = sum((i - mean_x) * (v - mean_y) for i, v in enumerate(values))
    return num / sum((i - mean_x) ** 2 for i in range(n))


def median(values):
    values = sorted(values)
    n = len(values)
    if n == 0:
        return None
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def median_of(runs):
    """The median of each figure over a list of figure dicts (nested one level)."""
    out = {}
    for key, first in runs[0].items():
        if isinstance(first, dict):
            out[key] = median_of([r[key] for r in runs])
        elif isinstance(first, bool) or first is None:
            out[key] = first
        else:
            out[key] = median([r[key] for r in runs])
    return out


BUDGET_MIB = 1024


def trace_figures(trace, base, warmup):
    """Per-run figures of a probe's trace: growth per step (a linear fit
    after warmup steps), the step at which the growth would exceed a
    1 GiB budget, memory after and within a step, and step time."""
    n = len(trace["alloc_mib"])
    w = min(warmup, n // 2)
    base = base or {"alloc_mib": 0.0, "rss_kib": 0}
    gpu = slope(trace["alloc_mib"][w:])
    out = {
        "steps": n,
        "gpu_mib_per_step": gpu,
        "gpu_budget_step": math.ceil(BUDGET_MIB / gpu) if gpu > 0 else None,
        "gpu_retained_mib": trace["alloc_mib"][-1] - base["alloc_mib"],
        "alloc_mib": median(trace["alloc_mib"][w:]),
        "step_peak_mib": median(trace["peak_mib"][w:]),
        "max_peak_mib": max(trace["peak_mib"]),
        "max_peak_above_base_mib": max(trace["peak_mib"]) - base["alloc_mib"],
        "max_reserved_mib": max(trace["peak_reserved_mib"]),
        "ms_per_step": median(trace["ms"][w:]),
    }
    if trace["rss_kib"]:
        host = slope(trace["rss_kib"][w:])
        out.update(
            host_kib_per_step=host,
            host_budget_step=math.ceil(BUDGET_MIB * 1024 / host) if host > 0 else None,
            host_retained_mib=(trace["rss_kib"][-1] - trace["rss_kib"][w]) / 1024,
        )
    return out


VARIANT_PREFIXES = ("bad_", "fixed_", "ref_")


def cli(run):
    """Parses `PROGRAM VARIANT [--model M] [--steps N]`, runs the variant
    (a function of the program named bad_*, fixed_* or ref_*) through
    run(variant, args) and prints its measurements as one JSON line.

    The variants are looked up by name rather than listed in a table: a
    function that is only referenced, never called, in its file leaves
    its grad mode unknown to a linter."""
    program = sys.modules["__main__"]
    variants = {name: getattr(program, name) for name in dir(program) if name.startswith(VARIANT_PREFIXES)}
    parser = argparse.ArgumentParser()
    parser.add_argument("variant", choices=sorted(variants))
    parser.add_argument("--model", default="cnn")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--path", default="")
    parser.add_argument("--repeat", type=int, default=1, help="repetitions within the process, for the timed programs")
    parser.add_argument("--epochs", type=int, default=0, help="epochs of the training-step programs (0: their own)")
    args = parser.parse_args()
    out = run(variants[args.variant], args)
    out.update(variant=args.variant, model=args.model, steps=args.steps)
    print(json.dumps(out), flush=True)


def train_variant(variant, args):
    """Runs a training-loop variant, variant(model, criterion, optimizer,
    loader, probe), on a fresh small model and synthetic batches, and
    returns the probe's measurements: the harness the TL101 to TL104
    programs share."""
    model = small_model(args.model)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    probe = Probe()
    probe.start()
    variant(model, criterion, optimizer, synthetic_batches(args.model, args.steps), probe)
    return probe.result()


def nvidia_smi(query):
    """One field of nvidia-smi for GPU 0, or None."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=" + query, "--format=csv,noheader,nounits", "-i", "0"],
                             capture_output=True, text=True, timeout=30, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def environment():
    """What the measurements ran on."""
    import torchvision

    props = torch.cuda.get_device_properties(0)
    return {
        "gpu": torch.cuda.get_device_name(0),
        "gpu_memory_gib": round(props.total_memory / 2**30, 1),
        "driver": nvidia_smi("driver_version"),
        "compute_mode": nvidia_smi("compute_mode"),
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "python": platform.python_version(),
        "host_cpus": os.cpu_count(),
        "alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF"),
    }


if __name__ == "__main__":
    json.dump(environment(), sys.stdout)
    print()
