"""TL201: a shape check in `main()`, which the script runs once."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def main(path):
    net = Net()
    net.eval()
    sample = torch.load(path, map_location="cpu")
    # `main()` runs once per run of the script: one pass, one graph.
    print(net(sample).shape)  # want: TL201(low)


def report(net, batch):
    net.eval()
    # Called once per batch below: not a single pass.
    print(net(batch).argmax(1).tolist())  # want: TL201(high)


if __name__ == "__main__":
    main("sample.pt")
    model = Net()
    for b in [torch.ones(2, 4)] * 10:
        report(model, b)
    smoke = Net()
    smoke.eval()
    for batch in torch.utils.data.DataLoader(torch.ones(8, 4), batch_size=2):
        print(smoke(batch).shape)  # want: TL201(low)
        break
    probe = Net()
    probe.eval()
    for batch in torch.utils.data.DataLoader(torch.ones(8, 4), batch_size=2):
        if batch.sum() < 0:
            continue
        print(probe(batch).shape)  # want: TL201(high)
        break
    # A few dry runs on fresh random inputs, repeated by a literal range and
    # read for their shape: a smoke test, as one dry run is. Samples drawn
    # the same way and kept are not.
    tiny = Net()
    for i in range(10):
        inputs = torch.rand(2, 4)
        lengths = torch.IntTensor([4, 3])
        print(tiny(inputs).shape, lengths)  # ok: ten dry runs read for their shape
    sampler = Net()
    grid = []
    for j in range(10):
        grid.append(sampler(torch.rand(2, 4)).tolist())  # want: TL201 "only reach the host"
    print(grid)
