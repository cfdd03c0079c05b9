"""torch is bound only by the star import."""
from utils import *


def restore(path):
    return torch.load(path).cuda()  # want: TL403
