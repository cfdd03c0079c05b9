"""TL201: a comprehension reads the value its name holds where it runs."""
import torch
from torch import nn

model = nn.Linear(8, 3)
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.MSELoss()
loader = torch.load("train.pt")
val_loader = torch.load("val.pt")

for epoch in range(10):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        stages = model(x)  # ok: TL201 each stage goes into the loss, back-propagated
        loss = torch.stack([criterion(stages[j], y) for j in range(len(stages))]).sum()
        loss.backward()
        optimizer.step()
    model.eval()
    for xv, yv in val_loader:
        with torch.no_grad():
            stages = model(xv)
        stages = stages[0]
        print(stages.sum().item())
