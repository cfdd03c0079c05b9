import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)

    def forward(self, idx):
        return self.body(idx)

    def generate(self, idx, n):
        for _ in range(n):
            logits = self(idx)  # want: TL201 "only reach the host"
            idx = torch.cat((idx, logits.argmax(-1, keepdim=True)), dim=1)
        return idx
