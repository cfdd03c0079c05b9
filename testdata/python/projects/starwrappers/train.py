"""Each wrapper comes in by a star import: the calls below are calls of
its class's methods, in this script's mode (grad enabled)."""
import argparse

from bnn.dropout_net import *
from bnn.ensemble_net import *

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="dropout")
args = parser.parse_args()

if args.model == "dropout":
    net = DropoutNet()
else:
    net = EnsembleNet()

train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,))))
for epoch in range(10):
    net.set_mode_train(True)
    for x, y in train_loader:
        net.fit(x, y)
    net.set_mode_train(False)
    for x, y in train_loader:
        cost, pred = net.eval(x, y)
    print(net.predict(x))
