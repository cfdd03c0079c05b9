"""TL403: `torch.load` of a checkpoint saved from the GPU, without
`map_location` and with `map_location="cpu"`.

The checkpoint is a ResNet-50's weights and its Adam state after one
step, saved from cuda:0 by ref_save. Each load runs in a fresh process
that has not used CUDA yet, as a data-loading worker or a CPU-only tool
would.

    python3 evidence/tl403_load.py ref_save --path /tmp/ckpt.pt
    python3 evidence/tl403_load.py bad_load --path /tmp/ckpt.pt
"""
import os
import time

import torch
import torchvision

from common import MIB, cli, nvidia_smi


def ref_save(path):
    torch.manual_seed(0)
    model = torchvision.models.resnet50().to("cuda")
    optimizer = torch.optim.Adam(model.parameters())
    model(torch.randn(2, 3, 224, 224, device="cuda")).sum().backward()
    optimizer.step()
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)


def bad_load(path):
    return torch.load(path)  # evidence: TL403


def fixed_load(path):
    return torch.load(path, map_location="cpu")


def tensors(obj):
    """The tensors in a nest of dicts, lists and tuples."""
    if torch.is_tensor(obj):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from tensors(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from tensors(v)


def device_used_mib():
    used = nvidia_smi("memory.used")
    return float(used) if used else None


def run(variant, args):
    if not torch.cuda.is_available():
        raise SystemExit("tl403_load.py measures a checkpoint saved from a GPU; no GPU is available")
    if variant is ref_save:
        variant(args.path)
        return {"figures": {"file_mib": os.path.getsize(args.path) / MIB}}
    before = device_used_mib()
    start = time.perf_counter()
    state = variant(args.path)
    seconds = time.perf_counter() - start
    after = device_used_mib()
    found = list(tensors(state))
    figures = {
        "cuda_initialised": torch.cuda.is_initialized(),
        "gpu_allocated_mib": torch.cuda.memory_allocated() / MIB,
        "device_used_mib": after - before if before is not None and after is not None else None,
        "tensors_on_gpu": sum(t.is_cuda for t in found),
        "tensors": len(found),
        "checkpoint_mib": sum(t.numel() * t.element_size() for t in found) / MIB,
        "load_s": seconds,
    }
    return {"figures": figures}


if __name__ == "__main__":
    cli(run)
