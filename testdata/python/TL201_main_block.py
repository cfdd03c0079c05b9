"""TL201: a name bound in the `__main__` block and used in it is bound there on every path."""
import numpy as np
import torch
from torch import nn


class Segmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(3, 4, 1)

    def forward(self, x):
        return self.head(x)

    def tile_predict(self, img):
        out = np.zeros((1, 4) + tuple(img.shape[2:]))
        for i in range(0, img.shape[2], 64):
            out[:, :, i:i + 64] = self.forward(img[:, :, i:i + 64]).softmax(1).data.cpu().numpy()  # want: TL201 "only reach the host"
        return out


if __name__ == "__main__":
    seg = Segmenter()
    seg.load_state_dict(torch.load("seg.pt"))
    seg.eval()
    pred = seg.tile_predict(torch.load("image.pt")).argmax(1)  # ok: reported in the method, whose class is known here
    print(pred.shape)
    seg = nn.DataParallel(seg)  # bound again after the use: the use still sees the Segmenter
    torch.save(seg.state_dict(), "seg_dp.pt")
