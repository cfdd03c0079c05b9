"""Single-process loads whose tensors end up on a device anyway."""
import torch


def load_embeddings(path, device):
    return torch.load(path).to(device)  # want: TL403 "moved to a device afterwards"


def load_stats(path):
    stats = torch.load(path)  # want: TL403 "moved to a device afterwards"
    stats = stats.cuda()
    return stats


def resume(model, path):
    model.cuda()
    state = torch.load(path)  # want: TL403 "loaded into a model that is moved"
    model.load_state_dict(state["model"])
    return model


def inspect(path):
    # ok: read on the host and never moved; TL404 (off by default) reports it
    meta = torch.load(path)
    return sorted(meta)


def evaluate(model, path):
    # ok: the model is never moved in this function; nothing shows the harm
    state = torch.load(path)
    model.load_state_dict(state)
    return model
