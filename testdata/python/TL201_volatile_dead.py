"""TL201: a file that knows PyTorch 0.4's API left its volatile flags dead."""
import torch
from torch import nn
from torch.autograd import Variable


def predict_all(net, batches):
    net.eval()
    total = 0.0
    for x in batches:
        x = Variable(x, volatile=True)  # want: TL202
        total += net(x).sum().item()  # want: TL201(high)
    return total


if __name__ == "__main__":
    print(predict_all(nn.Linear(4, 3), torch.randn(2, 5, 4)))
