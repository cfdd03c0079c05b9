# `torch` comes only from a star import of a package outside the project.
from trainkit.common import *


def valid_step(model, batch):
    model.eval()
    with torch.set_grad_enabled(False):
        out = model(batch)  # ok: grad is disabled
    return out.argmax(1).tolist()


def valid_step_open(model, batch):
    model.eval()
    out = model(batch)  # want: TL201 "in `valid_step_open`"
    return out.argmax(1).tolist()
