# A script that shows no accelerator and trains, at module level, what
# it builds keeps its tensors on the host: reading a loss there waits for
# nothing. (Words in comments, such as `.cuda()`, show none.) A function
# may be handed a model and batches that another file moved.
import torch
from torch import nn, optim

model = nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=0.01)
loader = [(torch.randn(8, 784), torch.randint(0, 10, (8,))) for _ in range(4)]

for epoch in range(2):
    running = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        running += loss.item()  # ok: TL501 the host's own tensors
    print(running)


def fit(net, batches, opt, crit):
    for x, y in batches:
        opt.zero_grad()
        loss = crit(net(x), y)
        loss.backward()
        opt.step()
        print(loss.item())  # want: TL501 "makes the host wait"
