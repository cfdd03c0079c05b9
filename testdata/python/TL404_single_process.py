"""A single-process script: nothing in it shows the default device doing harm."""
# fixture-preview: TL403
import io

import torch


def inspect(path):
    meta = torch.load(path)  # want: TL404 "saved from"
    return sorted(meta)


def evaluate(model, path):
    state = torch.load(path, weights_only=True)  # want: TL404
    model.load_state_dict(state)
    return model


def forwarded(path, **load_kwargs):
    return torch.load(path, **load_kwargs)  # ok: map_location may be among the kwargs


def roundtrip(blob):
    return torch.load(io.BytesIO(blob))  # ok: an in-memory round trip


def moved(path):
    return torch.load(path).cuda()  # want: TL403 "moved to a device afterwards"
