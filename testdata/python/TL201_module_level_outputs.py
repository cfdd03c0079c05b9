# Module-level forward passes whose outputs only reach the host: a name of
# the script (or notebook) that holds them keeps the last graph alive; a
# function's name is freed when it returns.
import torch
import torch.nn as nn


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)


scorer = Scorer()
scorer.load_state_dict(torch.load("scorer.pt", map_location="cpu"))
batches = torch.load("batches.pt", map_location="cpu")

for x in batches:
    out = scorer(x)  # want: TL201 "only reach the host.*`out`, a module-level name, keeps the last outputs and their graph alive until bound again or deleted"
    print(out.argmax(-1).tolist())


def scores(xs):
    for x in xs:
        logits = scorer(x)  # want: TL201 "only reach the host.*`logits` holds the outputs, and the graph with them, until the next pass binds it again"
        print(logits.argmax(-1).tolist())


scores(batches)

probe = Scorer()
probe.load_state_dict(torch.load("probe.pt", map_location="cpu"))
probe.eval()
for name in ("a.pt", "b.pt"):
    y = probe(torch.load(name, map_location="cpu"))  # want: TL201(low) "after `probe.eval\(\)`: autograd records the graph and keeps its activations alive"
    print(y.max().item())
