from ..agents import Policy


def evaluate_rollout(states):
    p = Policy()  # a module only through a class in another file, re-exported by __init__.py
    return [p(s).argmax() for s in states]  # want: TL201
