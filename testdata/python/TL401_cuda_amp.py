"""Deprecated torch.cuda.amp entry points, however imported."""
import torch
import torch.cuda.amp as cuda_amp
from torch.cuda.amp import GradScaler, autocast, custom_bwd, custom_fwd
from torch.cpu.amp import autocast as cpu_autocast


def train(model, loader, optimizer):
    scaler = torch.cuda.amp.GradScaler()  # want: TL401 "torch.amp.GradScaler"
    other = GradScaler(init_scale=1024)  # want: TL401
    for x in loader:
        with torch.cuda.amp.autocast(dtype=torch.bfloat16):  # want: TL401 "torch.amp.autocast"
            loss = model(x)
        with autocast():  # want: TL401
            loss = loss + model(x)
        with cuda_amp.autocast():  # want: TL401
            loss = loss + model(x)
        with torch.amp.autocast("cuda"):  # ok: the device-generic replacement
            loss = loss + model(x)
        with torch.autocast("cuda"):  # ok: torch.autocast is the generic one too
            loss = loss + model(x)
        with cpu_autocast():  # ok: torch.cpu.amp is not this rule's concern
            loss = loss + model(x)
        with autocast(device_type="cuda", dtype=torch.bfloat16):  # want: TL401 "takes no `device_type`: this call raises `TypeError`"
            loss = loss + model(x)
        scaler.scale(loss).backward()
    return other


class Scale(torch.autograd.Function):
    @staticmethod
    @custom_fwd(cast_inputs=torch.float32)  # want: TL401 "custom_fwd"
    def forward(ctx, x):
        return x * 2

    @staticmethod
    @custom_bwd  # want: TL401 "custom_bwd"
    def backward(ctx, grad):
        return grad * 2


class Shift(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda")  # ok: the replacement
    def forward(ctx, x):
        return x + 1

    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")  # ok: the replacement
    def backward(ctx, grad):
        return grad


def autocast_local():  # a local function of another name
    return None


def uses_local(model, x):
    scaler = torch.amp.GradScaler("cuda")  # ok: the replacement
    autocast_local()  # ok: not torch's
    return scaler, model(x)


TORCH_2_4 = hasattr(torch.amp, "GradScaler")


def make_scaler(device):
    # ok below: the fallback for old PyTorch beside the torch.amp form
    return torch.amp.GradScaler(device=device) if TORCH_2_4 else torch.cuda.amp.GradScaler()  # ok: version fallback


def make_context(use_amp, run):
    from contextlib import suppress

    amp_autocast = suppress
    if use_amp:
        amp_autocast = torch.cuda.amp.autocast  # want: TL401 "functools.partial\(torch.amp.autocast, \"cuda\"\)"
    run(context=autocast)  # want: TL401 "value kept here"
    return amp_autocast


def is_scaler(obj, scaler: torch.cuda.amp.GradScaler = None):
    # ok: an annotation and an isinstance test construct nothing
    return isinstance(obj, torch.cuda.amp.GradScaler) or scaler is not None
