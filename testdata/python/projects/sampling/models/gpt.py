import torch
import torch.nn as nn


class GPT(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x)

    def generate(self, x, steps):
        for _ in range(steps):
            x = self(x)  # ok: its callers set the grad mode; reported where they call it
        return x

    def decode(self, x):
        return self(x)  # ok: its one caller disables grad

    @torch.no_grad()
    def sample(self, x):
        return self(x)

    def fit_step(self, x, opt):
        loss = self(x).sum()
        loss.backward()
        opt.step()
        return loss.item()
