# A module whose forward calls functions of its file that build only
# layers without parameters (a softmax, a mask) holds no parameter, and
# records no graph on inputs that need none. A function of the file that
# builds a layer with weights, itself or through another, keeps the
# finding.
import math

import torch
import torch.nn as nn


def sequence_mask(x, lengths, value=0.0):
    mask = torch.arange(x.size(1))[None, :] < lengths[:, None]
    x[~mask] = value
    return x


def masked_softmax(x, lengths):
    softmax = nn.Softmax(dim=-1)
    if lengths is None:
        return softmax(x)
    shape = x.shape
    return softmax(sequence_mask(x.reshape(-1, shape[-1]), lengths)).reshape(shape)


def projected(x):
    return nn.Linear(x.shape[-1], x.shape[-1])(x)


def mixed(x):
    return masked_softmax(projected(x), None)


class DotAttention(nn.Module):
    """Dropout, and a softmax made by a function of the file."""

    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, q, k, v, lengths=None):
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.shape[-1])
        return torch.bmm(self.dropout(masked_softmax(scores, lengths)), v)


class ProjectedAttention(DotAttention):
    """The same, through a function that builds a linear layer."""

    def forward(self, q, k, v, lengths=None):
        return super().forward(projected(q), k, v, lengths)


class MixedAttention(DotAttention):
    """The linear layer, two functions away."""

    def forward(self, q, k, v, lengths=None):
        return super().forward(mixed(q), k, v, lengths)


def weights(batches):
    attention = DotAttention(0.1)
    attention.eval()
    return [attention(q, k, v).tolist() for q, k, v in batches]  # ok: TL201 no parameters


def projected_weights(batches):
    attention = ProjectedAttention(0.1)
    attention.eval()
    return [attention(q, k, v).tolist() for q, k, v in batches]  # want: TL201 "attention\(q, k, v\)"


def mixed_weights(batches):
    attention = MixedAttention(0.1)
    attention.eval()
    return [attention(q, k, v).tolist() for q, k, v in batches]  # want: TL201 "attention\(q, k, v\)"
