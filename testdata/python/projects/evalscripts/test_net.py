# An evaluation script that research code calls test_*.py: pytest would
# collect nothing here, so it is code like any other.
import torch

from loading import load_model

model = load_model("lm.pt")
batches = torch.load("batches.pt", map_location="cpu")
for batch in batches:
    print(model(batch).argmax(1))  # want: TL201 "after `load_model\("
