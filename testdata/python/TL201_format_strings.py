"""TL201: outputs formatted into a string end on the host, whether the
format string is one literal or literals joined across lines."""
import sys

import torch
from torch import nn


def validate(model, loader, log):
    model.eval()
    for i, (x, y) in enumerate(loader):
        out = model(x)  # want: TL201(high) "in `validate`"
        log.write('batch {0}: '
                  'top {1:.3f}\n'.format(i, out.max()))


def validate_one_literal(model, loader, log):
    model.eval()
    for i, (x, y) in enumerate(loader):
        out = model(x)  # want: TL201(high) "in `validate_one_literal`"
        log.write('batch {0}: top {1:.3f}\n'.format(i, out.max()))


def validate_quietly(model, loader, log):
    model.eval()
    with torch.no_grad():
        for i, (x, y) in enumerate(loader):
            out = model(x)  # ok: under no_grad
            log.write('batch {0}: '
                      'top {1:.3f}\n'.format(i, out.max()))


@torch.no_grad()
def report(model, x, log):
    model.eval()
    log.write('top {0:.3f} '
              'of {1}\n'.format(model(x).max(), len(x)))  # ok: under the decorator's no_grad


if __name__ == "__main__":
    net = nn.Linear(4, 2)
    data = [(torch.randn(8, 4), torch.zeros(8)) for _ in range(100)]
    validate(net, data, sys.stdout)
    validate_one_literal(net, data, sys.stdout)
    validate_quietly(net, data, sys.stdout)
    report(net, data[0][0], sys.stdout)
