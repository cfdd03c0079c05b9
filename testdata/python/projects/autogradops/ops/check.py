import torch

from pooling import RoIHead, RoIPool

features = torch.randn(2, 16, 8, 8).zero_()
rois = torch.tensor([[0, 0, 0, 4, 4]]).float()
pool = RoIPool(0.25)
out = pool(features, rois)  # ok: no parameter, and its inputs need no grad
print(out.mean().item())

head = RoIHead(0.25, 64)
for f in [features, features]:
    print(head(f, rois).argmax(1).tolist())  # want: TL201

from legacy_pool import LegacyPool


def check_legacy(loader):
    legacy = LegacyPool(0.25).cuda()
    for x, boxes in loader:
        print(legacy(x, boxes).mean().item())  # ok: settings and an operation of another file
