"""A model that keeps, in its object, a graph built when it is made."""
import torch
import torch.nn as nn


class SoftMasked(nn.Module):
    def __init__(self, embedding, mask_id):
        super().__init__()
        self.embedding = embedding
        self.linear = nn.Linear(8, 8)
        self.mask_e = self.embedding(torch.tensor([[mask_id]]))

    def forward(self, ids, p):
        e = self.embedding(ids)
        return self.linear(p * self.mask_e + (1 - p) * e)
