#  TorchLint:NOQA
"""A file exempt from every rule."""
import torch


def resume(model, path):
    state = torch.load(path)  # ok: the whole file is exempt
    extra = torch.load(path, map_location="cpu")  # noqa: TL403  # ok: nothing is reported in an exempt file
    model.load_state_dict(state)
    return extra
