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
