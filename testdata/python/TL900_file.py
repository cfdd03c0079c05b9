# torchlint: noqa: TL301, TL101  # want: TL900 "names TL101, which suppresses nothing in this file"
# fixture-preview: TL403
"""File-level noqa codes: used and unused."""
import torch
from torch.utils.data import DataLoader


def train(model, dataset, optimizer):
    loader = DataLoader(dataset, batch_size=32)
    for x, y in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        torch.cuda.empty_cache()  # ok: suppressed for the whole file
        torch.cuda.empty_cache()  # noqa: TL301  # want: TL900 "names TL301,"


def resume(model, path):
    model.cuda()
    state = torch.load(path)  # noqa: TL403  # ok: a line code beside file-level codes
    model.load_state_dict(state)
    return torch.load(path).cuda()  # want: TL403
