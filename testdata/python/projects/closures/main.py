"""Which scorer runs is chosen at import time: a call of the name is a
call of either function."""
import sys

import torch

model = torch.load(sys.argv[1], map_location="cpu")
loader = torch.utils.data.DataLoader(torch.load(sys.argv[2], map_location="cpu"), batch_size=64)
if sys.argv[3] == "ood":
    from evals import eval_ood_detection
else:
    from evals.ood_pre import eval_ood_detection

with torch.no_grad():
    auroc = eval_ood_detection(model, loader)
print(auroc)
