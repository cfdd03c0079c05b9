# A module without `import torch`: the fix adds it.
from torch import autocast as generic_autocast
from torch.amp import GradScaler as AmpScaler
from torch.cuda.amp import GradScaler, autocast


def step(model, x, optimizer, scaler=None):
    scaler = scaler or GradScaler(65536.0, 2.0)  # want: TL401
    with autocast(True, None, False):  # want: TL401
        loss = model(x)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()


def configure(torch_dtype):
    torch = {"dtype": torch_dtype}  # the name torch is not the module here
    with autocast(**torch):  # want: TL401
        return torch


def modern_step(model, x):
    scaler = AmpScaler("cuda")  # ok: torch.amp.GradScaler, imported under another name
    with generic_autocast("cuda"):  # ok: torch.autocast is device-generic
        loss = model(x)
    with generic_autocast(device_type="cuda", dtype=None):  # ok: likewise, with keywords
        loss = loss + model(x)
    return scaler.scale(loss)
