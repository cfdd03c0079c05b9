"""TL201: functions a command-line library runs as the program."""
import fire
import torch
import torch.nn as nn


def sample(checkpoint, steps=60):
    # `fire.Fire(sample)` runs it as the program, with grad enabled: each
    # step's graph is chained into the next `x`.
    model = nn.Linear(2, 2)
    model.load_state_dict(torch.load(checkpoint, map_location="cpu"))
    model.eval()
    x = torch.randn(1, 2)
    for _ in range(steps):
        x = x - 0.1 * model(x)  # want: TL201(high)
    print(x.tolist())


def sample_quietly(checkpoint, steps=60):
    model = nn.Linear(2, 2)
    model.load_state_dict(torch.load(checkpoint, map_location="cpu"))
    model.eval()
    x = torch.randn(1, 2)
    for _ in range(steps):
        x = x - 0.1 * model(x)  # ok: the program's entry runs under no_grad
    print(x.tolist())


if __name__ == "__main__":
    fire.Fire(sample)
    with torch.no_grad():
        fire.Fire(sample_quietly)
