"""TL302: `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` set before
CUDA is initialised, after it, or not at all.

The workload fragments the caching allocator: a linear layer's forward
and backward over a batch that grows every step, as with sequences that
get longer. Each step's tensors are too large for the blocks the
previous steps left in the cache, so without expandable segments every
step reserves new ones.

    python3 evidence/tl302_alloc_conf.py bad_late --steps 40
"""
import os

import torch
import torch.nn as nn

from common import MIB, Probe, cli


def workload(layer, probe, steps):
    for step in range(steps):
        x = torch.randn(8192 + 2048 * step, 256, device="cuda")
        layer(x).relu().sum().backward()
        probe(step)


def bad_late(probe, steps):
    layer = nn.Linear(256, 256).cuda()
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"  # evidence: TL302
    workload(layer, probe, steps)


def fixed_early(probe, steps):
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    layer = nn.Linear(256, 256).cuda()
    workload(layer, probe, steps)


def ref_unset(probe, steps):
    layer = nn.Linear(256, 256).cuda()
    workload(layer, probe, steps)


def run(variant, args):
    probe = Probe(rss=False)
    variant(probe, args.steps)
    stats = torch.cuda.memory_stats()
    segments = torch.cuda.memory_snapshot()
    trace = probe.trace
    figures = {
        "expandable_segments": any(seg.get("is_expandable", False) for seg in segments),
        "peak_reserved_mib": max(trace["peak_reserved_mib"]),
        "peak_alloc_mib": max(trace["peak_mib"]),
        "reserved_after_mib": trace["reserved_mib"][-1],
        "segments": len(segments),
        "device_mallocs": stats.get("segment.all.allocated"),
        "alloc_retries": stats.get("num_alloc_retries"),
        "ms_per_step": sum(trace["ms"][1:]) / max(1, len(trace["ms"]) - 1),
    }
    figures["reserved_per_allocated"] = figures["peak_reserved_mib"] / figures["peak_alloc_mib"]
    return {"figures": figures, "trace": {k: trace[k] for k in ("reserved_mib", "alloc_mib", "peak_mib")}}


if __name__ == "__main__":
    cli(run)
