import torch

import plots
from nets import Critic, Generator, Table

G = Generator()
critic = Critic()
optimizer = torch.optim.Adam(G.parameters())
z = torch.randn(4, 3, 16, 16)
for epoch in range(10):
    for step in range(100):
        plots.fit_step(G, torch.randn(8, 3, 16, 16), optimizer)
    plots.show(G, z, f"epoch{epoch}.png")
    print(critic.report([torch.randn(2, 8)]))
    print(plots.apply(G, z), plots.apply(lambda t: t * 2, z))
    print(plots.render(Table(), ["a", "b"]))
    print(plots.score_model(G, [z]))
