"""A script that samples from a model it switched to eval mode."""
import torch

from models import GPT

model = GPT()
model.eval()
prompt = torch.randn(1, 8)
print(model.generate(prompt, 10))  # want: TL201
