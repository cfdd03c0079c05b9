"""TL201: a script (or a notebook, its cells one module) whose training
loop validates under a flag, and a later loop that runs the model after
it: that pass is no phase of the training loop, and its message names no
flag of it."""
import torch
import torch.nn as nn

model = nn.Linear(4, 2)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(4)]
losses = []

for step in range(100):
    is_val = step % 10 == 0
    x, y = batches[step % 4]
    if is_val:
        model.eval()
        with torch.no_grad():
            out = criterion(model(x), y)
        losses.append(out.item())
    else:
        model.train()
        out = criterion(model(x), y)
        optimizer.zero_grad()
        out.backward()
        optimizer.step()

model.eval()
table = {}
for i, (x, _) in enumerate(batches):
    table[i] = model(x)  # want: TL201 "after `model.eval\(\)`: autograd" TL102
