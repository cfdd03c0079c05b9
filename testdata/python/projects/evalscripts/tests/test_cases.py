# A pytest module beside test_util.py: its test returns nothing.
import numpy as np
import torch

from test_util import test_single_case


def test_case_shape():
    net = torch.nn.Conv2d(1, 1, 1)
    volume = np.zeros((2, 4, 4), dtype=np.float32)
    assert net(torch.from_numpy(volume[None, :1]).float()).shape[1] == 1  # ok: test code
    assert test_single_case(net, volume).shape == volume.shape
