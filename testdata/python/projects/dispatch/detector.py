import torch.nn as nn

from registry import build_head


class Detector(nn.Module):
    def __init__(self, head_cfg):
        super().__init__()
        self.backbone = nn.Linear(8, 8)
        self.keypoint_head = build_head(head_cfg)

    def forward(self, x, return_loss=True):
        if return_loss:
            return self.keypoint_head(self.backbone(x)).sum()
        return self.forward_test(x)

    def forward_test(self, x):
        features = self.backbone(x)
        return self.keypoint_head.inference_model(features), self.keypoint_head.decode_model(features)
