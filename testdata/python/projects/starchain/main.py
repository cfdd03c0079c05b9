"""The decorator comes through two star imports: the package's, then its
module's."""
import torch

from utils import *

model = torch.nn.Linear(4, 2)


@make_nograd_func
def test_sample(sample, target):
    model.eval()
    return epe(model(sample), target)


def test_sample_plain(sample, target):
    model.eval()
    return epe(model(sample), target)  # want: TL201 "in `test_sample_plain`"
