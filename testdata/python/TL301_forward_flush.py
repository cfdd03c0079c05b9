"""TL301: torch.cuda.empty_cache() in a module's forward, or in a helper
every forward calls, runs once per batch wherever the module is trained
or run, even where no loop of the project shows it. A flush under a test
on the input, or in a method that runs once, does not."""
import torch
import torch.nn as nn


def group(points, k):
    idx = torch.cdist(points, points).topk(k, largest=False).indices
    torch.cuda.empty_cache()
    return points[idx]


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        torch.cuda.empty_cache()  # ok: once, when the module is built

    def forward(self, x):
        y = self.fc(x)
        torch.cuda.empty_cache()  # want: TL301(medium) "every forward pass of `Encoder`"
        return y

    def reset(self):
        self.fc.reset_parameters()
        torch.cuda.empty_cache()  # ok: a method run once in a while


class Grouper(nn.Module):
    def __init__(self, k, dense):
        super().__init__()
        self.k, self.dense = k, dense
        self.fc = nn.Linear(3, 8)

    def forward(self, points):
        if self.dense:
            grouped = points
        else:
            grouped = group(points, self.k)  # want: TL301(medium) "through `group`"
        return self.fc(grouped)


class Guarded(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        if x.numel() > 10_000_000:
            torch.cuda.empty_cache()  # ok: only on the rare huge input
        return self.fc(x)


class Plain:
    def forward(self, x):
        torch.cuda.empty_cache()  # ok: not a module; what runs it, and how often, is not known
        return x


class Stepper(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        torch.cuda.empty_cache()  # want: TL301(medium) "every forward pass of `Stepper`"
        return self.fc(x)

    def training_step(self, batch, batch_idx):
        return self.forward(batch).sum()  # ok: the flush is reported in forward, not again here
