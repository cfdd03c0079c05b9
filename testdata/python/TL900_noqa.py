"""noqa comments that suppress something, and ones that suppress nothing."""
# fixture-preview: TL403
import torch  # torchlint: noqa  # ok: not on a line of its own, so not file-level
from torch.utils.data import DataLoader

# The script also runs without a GPU, so a load without map_location fails there.
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def resume(model, path):
    state = torch.load(path)  # noqa: TL403  # ok: the TL403 finding on this line is suppressed
    legacy = torch.load(path)  # NoQA:tl403  # ok: case and spacing do not matter
    extra = torch.load(path + ".extra")  # noqa: TL403 our own bucket, trusted  # ok: reason text after the code
    typed = torch.load(path)  # type: ignore  # noqa: TL403  # ok: another comment before the directive
    spread = torch.load(  # noqa: TL403  # ok: a finding spanning lines is suppressed on its first line
        path,
        weights_only=True,
    )
    listed = torch.load(path)  # noqa: E501, TL403 F401  # ok: other tools' codes mixed in
    blanket = torch.load(path)  # noqa  # ok: a blanket noqa suppresses every rule
    model.load_state_dict(state)
    return legacy, extra, typed, spread, listed, blanket


def load_on_cpu(model, path):
    cpu = torch.load(path, map_location="cpu")  # noqa: TL403  # want: TL900 "names TL403, which suppresses nothing on this line; remove it"
    twice = torch.load(path)  # noqa: TL403, TL403  # want: TL900 "names TL403,"
    mixed = torch.load(path)  # noqa: TL403, TL301  # want: TL900 "names TL301,"
    other = torch.load(path, map_location="cpu")  # noqa: E501, TL101  # want: TL900 "names TL101,"
    lower = torch.load(path, map_location="cpu")  #NOQA:tl403,tl301  # want: TL900 "names tl403, tl301, which suppress nothing"
    typed = torch.load(path, map_location="cpu")  # type: ignore  # noqa: TL401  # want: TL900
    reason = torch.load(path, map_location="cpu")  # noqa: TL403 kept from an old version  # want: TL900
    # noqa: TL101  # want: TL900
    late = torch.load(  # want: TL403
        path,  # noqa: TL403  # want: TL900 "names TL403,"
    )
    syntax = torch.load(path, map_location="cpu")  # noqa: TL001  # want: TL900 "names TL001,"
    model.load_state_dict(cpu)
    return twice, mixed, other, lower, typed, reason, late, syntax


def train(model, dataset, optimizer, path):
    loader = DataLoader(dataset, batch_size=32)
    for x, y in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        torch.cuda.empty_cache()  # noqa: TL301  # ok: the TL301 finding on this line is suppressed
    note = "# noqa: TL403"  # ok: noqa inside a string is not a comment
    plain = torch.load(path, map_location="cpu")  # noqa: E501  # ok: only another tool's code
    bare = torch.load(path, map_location="cpu")  # noqa  # ok: a blanket noqa is never reported
    unknown = torch.load(path, map_location="cpu")  # noqa: TL999  # ok: not a torchlint rule
    kept = torch.load(path, map_location="cpu")  # noqa: TL900, TL101  # ok: TL900 in the list suppresses its own report
    glued = torch.load(path, map_location="cpu")  # noqanything  # ok: not a noqa directive
    return note, plain, bare, unknown, kept, glued
