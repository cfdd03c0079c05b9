"""TL101: a name back-propagated in one loop and summed in another; the
backward reads only what its own iteration bound just before it."""
import torch

net = torch.nn.Linear(4, 2)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
train_dl = []

for epoch in range(10):
    for X, y in train_dl:
        optimizer.zero_grad()
        loss = criterion(net(X), y)
        loss.backward()
        optimizer.step()

    loss = 0
    for bX, by in train_dl:
        bloss = criterion(net(bX), by)
        loss += bloss  # want: TL101 "no backward\(\) of this loop is seen to run through"
    print(epoch, float(loss))


def inner_rebinding(loader, steps):
    # The inner loop rebinds the loss after its backward: its next
    # iteration back-propagates that binding, the sum.
    for x, y in loader:
        loss = criterion(net(x), y)
        for _ in range(steps):
            loss.backward(retain_graph=True)
            loss = loss + criterion(net(x), y)
