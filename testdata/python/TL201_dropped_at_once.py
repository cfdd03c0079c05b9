# A pass whose output its own statement drops says so: `.detach()` at the
# end of a chain of tensor methods and indexing, or no name holding the
# output at all. Outputs that only become indices or a mask used on the
# device (a Double DQN's greedy actions) are not said to reach the host. A pass that module-level code runs before it switches
# the model to evaluation mode runs in training mode: it is no pass of
# that region.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Agent:
    def __init__(self):
        self.q = nn.Linear(4, 2)
        self.target = nn.Linear(4, 2)
        self.target.eval()
        self.opt = torch.optim.Adam(self.q.parameters())

    def loss(self, s, a, r, s2):
        next_q = self.target(s2).max(dim=1, keepdim=True)[0].detach()  # want: TL201 "`.detach\(\)` drops the output at once"
        q = self.q(s).gather(1, a)
        return F.mse_loss(q, r + 0.99 * next_q)

    def double_q_target(self, s2):
        best = self.q(s2).argmax(dim=1, keepdim=True)  # want: TL201 "whose outputs only become indices \(`self.q\(s2\).argmax"
        return self.target(s2).gather(1, best).detach()  # want: TL201 "`.detach\(\)` drops the output at once"

    def confident(self, s):
        return torch.gt(self.q(s), 0.5).float()  # want: TL201 "whose outputs only become a mask \(`torch.gt\(self.q\(s\),0.5\)`\), which carries no graph"

    def greedy(self, s):
        return self.q(s).argmax(dim=1).tolist()  # want: TL201 "whose outputs only reach the host"

    def update(self, batch):
        loss = self.loss(*batch)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


def serve(model, example, requests):
    model.eval()
    model(example)  # want: TL201 "nothing holds the output, which frees them at once"
    return [model(r).tolist() for r in requests]


net = nn.Linear(4, 2)
warm = torch.load("warm.pt")
net(warm)  # ok: TL201 before the switch below: training mode
net.eval()


counter = nn.Conv2d(3, 1, 3)
counter.eval()
total = 0.0
for image in [torch.randn(1, 3, 8, 8) for _ in range(100)]:
    density = counter(image)  # want: TL201 "the next statement, `density = density.data.cpu\(\).numpy\(\)`, drops the output's graph"
    density = density.data.cpu().numpy()
    total += float(density.sum())
