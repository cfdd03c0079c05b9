import torch.nn as nn
from torch.autograd import Function


class _RoIPool(Function):
    @staticmethod
    def forward(ctx, features, rois, scale):
        ctx.save_for_backward(rois)
        return features[:, :, ::2, ::2] * scale

    @staticmethod
    def backward(ctx, grad):
        return grad, None, None


roi_pool = _RoIPool.apply


class RoIPool(nn.Module):
    # Settings only: what it runs is the operation, on what it is given.
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, features, rois):
        return roi_pool(features, rois, self.scale)


class RoIHead(nn.Module):
    def __init__(self, scale, dim):
        super().__init__()
        self.scale = scale
        self.fc = nn.Linear(dim, dim)

    def forward(self, features, rois):
        return self.fc(roi_pool(features, rois, self.scale).flatten(1))
