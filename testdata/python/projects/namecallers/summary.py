import numpy as np


def summarize(runner, files, batches):
    # `runner` is a parameter: its class is not known here. Every class
    # defining `eval_model` runs its forward passes under its own no_grad;
    # one class runs `probe_model`'s in its caller's mode.
    out = []
    for f in files:
        runner.load_model(f)
        scores = runner.eval_model(batches)
        out.append(np.mean(scores))
        probes = runner.probe_model(batches)  # want: TL201 "grad enabled"
        out.append(np.mean(probes))
    return out
