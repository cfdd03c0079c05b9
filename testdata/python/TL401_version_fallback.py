"""The deprecated torch.cuda.amp names kept as the fallback for old
PyTorch releases, against the same names used unconditionally."""
import torch
from packaging import version

try:
    from torch.amp import GradScaler
except ImportError:
    from torch.cuda.amp import GradScaler  # ok: the fallback where torch.amp lacks it

TORCH_VERSION = tuple(int(v) for v in torch.__version__.split(".")[:2])


def make_scaler():
    if TORCH_VERSION >= (2, 4):
        return torch.amp.GradScaler("cuda")
    else:
        return torch.cuda.amp.GradScaler()  # ok: the branch for releases before 2.4


def make_scaler_parsed():
    if version.parse(torch.__version__) < version.parse("2.4"):
        scaler = torch.cuda.amp.GradScaler()  # ok: only on old releases
    else:
        scaler = torch.amp.GradScaler("cuda")
    return scaler


def autocast_context(dtype):
    if hasattr(torch, "amp") and hasattr(torch.amp, "autocast"):
        return torch.amp.autocast("cuda", dtype=dtype)
    return torch.cuda.amp.autocast(dtype=dtype)  # ok: reached only where torch.amp.autocast is missing


def autocast_flagged(enabled, dtype):
    if not enabled:
        return torch.amp.autocast("cuda", enabled=False)
    return torch.cuda.amp.autocast(dtype=dtype)  # want: TL401 "torch.amp.autocast"


def autocast_checked(dtype):
    if hasattr(torch.amp, "autocast"):
        ctx = torch.amp.autocast("cuda", dtype=dtype)
    else:
        ctx = torch.cuda.amp.autocast(dtype=dtype)  # ok: where torch.amp.autocast is missing
    return ctx


def make_scaler_try():
    try:
        return torch.amp.GradScaler("cuda")
    except (AttributeError, TypeError):
        return torch.cuda.amp.GradScaler()  # ok: where torch.amp's GradScaler does not take a device


def imported_scaler():
    return GradScaler()  # ok: bound by the import fallback above


def make_scaler_flagged(use_amp):
    if use_amp:
        return torch.cuda.amp.GradScaler()  # want: TL401 "torch.amp.GradScaler"
    return None


def make_scaler_try_other(path):
    try:
        state = torch.load(path, map_location="cpu")
    except FileNotFoundError:
        state = None
    scaler = torch.cuda.amp.GradScaler()  # want: TL401 "torch.amp.GradScaler"
    try:
        scaler.load_state_dict(state)
    except (KeyError, TypeError):
        scaler = torch.cuda.amp.GradScaler()  # want: TL401 "torch.amp.GradScaler"
    return scaler


def autocast_old_release(use_cpu, dtype):
    if TORCH_VERSION >= (1, 10):
        return torch.cuda.amp.autocast(dtype=dtype)  # want: TL401 "torch.amp.autocast"
    else:
        return torch.cuda.amp.autocast()  # want: TL401 "torch.amp.autocast"
