"""Loops that sum what helpers of errors.py return."""
from trainer.errors import first_column_error, scaled, squared_error


def score(net, batches):
    total = 0
    for xb, yb in batches:
        total += squared_error(net(xb), yb)  # want: TL101 "seen to run through"
    return total


def score_first(net, batches):
    total = 0
    for xb, yb in batches:
        total += first_column_error(net(xb), yb)  # want: TL101 "seen to run through"
    return total


def score_numbers(pairs):
    total = 0
    for a, b in pairs:
        total += squared_error(a, b)  # ok: numbers in, a number out
    return total


def score_scaled(counts, factor):
    total = 0
    for c in counts:
        total += scaled(c, factor)  # ok: the helper is given counts
    return total
