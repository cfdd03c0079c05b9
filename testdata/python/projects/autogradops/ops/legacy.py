import torch.nn as nn
from torch.autograd import Function


class PoolFunction(Function):
    # Old style: settings in the instance, an instance `forward`.
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, features, rois):
        return features[:, :, ::2, ::2] * self.scale
