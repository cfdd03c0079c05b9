"""TL201: the untrained model's predictions printed once before its training loop, and a pass run again to evaluate."""
import torch
import torch.nn as nn
import torch.nn.functional as F

x_train = torch.load("x.pt")
y_train = torch.load("y.pt")

model = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

# One pass before training: the loop's passes of the model are back-propagated.
print(model(x_train).squeeze().detach().tolist())  # want: TL201(low)

for epoch in range(100):
    loss = F.binary_cross_entropy(model(x_train), y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
net.load_state_dict(torch.load("net.pt"))
net.eval()
# Run again below, on every batch, to evaluate: not a single pass.
print(net(x_train).tolist())  # want: TL201(high)
for batch in torch.load("batches.pt"):
    print(net(batch).tolist())  # ok: TL201 the region's first pass is the one reported


def report(x, y):
    # Run again below only under no_grad: the print still runs once with grad.
    clf = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
    clf.load_state_dict(torch.load("clf.pt"))
    print(F.binary_cross_entropy(clf(x), y).item())  # want: TL201(low) "only reach the host"
    with torch.no_grad():
        for batch, target in torch.load("val.pt"):
            print(F.binary_cross_entropy(clf(batch), target).item())  # ok: under no_grad


def report_again(x, y):
    # Run again below with grad enabled, on every batch: not a single pass.
    clf = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
    clf.load_state_dict(torch.load("clf.pt"))
    print(F.binary_cross_entropy(clf(x), y).item())  # want: TL201(high) "only reach the host"
    for batch, target in torch.load("val.pt"):
        print(F.binary_cross_entropy(clf(batch), target).item())  # ok: TL201 one finding per function


if __name__ == "__main__":
    report(x_train, y_train)
    report_again(x_train, y_train)
