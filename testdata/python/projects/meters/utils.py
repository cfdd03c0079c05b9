"""Running statistics kept across the steps of an epoch."""
import torch


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class ScalarMeter:
    """Converts what it is given to a Python number first."""

    def __init__(self):
        self.total = 0.0

    def update(self, val):
        val = float(val)
        self.total += val


class History:
    def __init__(self):
        self.values = []

    def add(self, value):
        self.values.append(value.detach())

    def add_raw(self, value):
        self.values.append(value)


def log_value(value, n):
    total = 0
    total += value * n  # ok: a local total, gone when the function returns
    return total
