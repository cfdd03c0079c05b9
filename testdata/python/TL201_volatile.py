"""TL201: code written for PyTorch 0.3, whose volatile inputs recorded no graph then."""
import torch
from torch import nn
from torch.autograd import Variable


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x)


def predict_all(net, batches):
    net.eval()
    labels = []
    for x in batches:
        x = Variable(x, volatile=True)  # want: TL202
        labels.extend(net(x).argmax(1).tolist())  # want: TL201(medium)
    return labels


def act_all(net, states):
    net.eval()
    # No volatile input here: grad is on in every version.
    return [net(Variable(s)).argmax(1).tolist() for s in states]  # want: TL201(high)


if __name__ == "__main__":
    print(predict_all(Net(), torch.randn(2, 5, 4)), act_all(Net(), torch.randn(2, 5, 4)))
