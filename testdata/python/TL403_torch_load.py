"""torch.load with and without map_location."""
import torch
from torch import load as torch_load


def resume(model, path, device, load_kwargs):
    state = torch.load(path)  # want: TL403 "map_location"
    model.load_state_dict(state["model"])
    extra = torch_load(path + ".extra")  # want: TL403
    cpu_state = torch.load(path, map_location="cpu")  # ok: explicit map_location
    dev_state = torch.load(path, map_location=device)  # ok: explicit map_location
    positional = torch.load(path, "cpu")  # ok: map_location passed positionally
    forwarded = torch.load(path, **load_kwargs)  # ok: map_location may be among the kwargs
    weights_only = torch.load(  # want: TL403
        path,
        weights_only=True,
    )
    multi = torch.load(
        path,
        map_location=lambda storage, loc: storage,  # ok: map_location on a continuation line
    )
    return extra, cpu_state, dev_state, positional, forwarded, weights_only, multi


def load(path):  # a local function named load
    return open(path).read()


def read_config(path):
    return load(path)  # ok: not torch.load


def roundtrip(obj_bytes):
    import io

    buffer = io.BytesIO(obj_bytes)
    first = torch.load(buffer)  # ok: an in-memory round trip, not a checkpoint
    second = torch.load(io.BytesIO(obj_bytes), weights_only=True)  # ok: likewise
    return first, second


def load_either(path, use_cuda):
    if torch.cuda.is_available() and use_cuda:
        state = torch.load(path)  # ok: the other branch maps to the CPU; this one runs where CUDA is
    else:
        state = torch.load(path, map_location="cpu")
    return state
