import torch
import torch.nn as nn

from evaluation import evaluate_quiet

with torch.no_grad():
    print(evaluate_quiet(nn.Linear(8, 2), []))
