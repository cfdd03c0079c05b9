import torch

from loading import load_for_finetuning
from models.lm import LM

lm = LM()
print(lm.generate(torch.load("ctx.pt", map_location="cpu"), 10))  # ok: reported in `LM.generate`, whose outputs only reach the host

model = load_for_finetuning("lm.pt")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for batch in torch.load("batches.pt", map_location="cpu"):
    opt.zero_grad()
    loss = model(batch).sum()  # ok: a model trained, not evaluated
    loss.backward()
    opt.step()
