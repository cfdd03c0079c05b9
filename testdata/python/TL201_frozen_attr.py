"""TL201: random network distillation at module level. The bonus is
computed with the predictor's graph and read through `.data`, for the
environment's reward: that pass reaches no backward. The target network,
which its class's constructor freezes, records no graph of its own; the
predictor's loss is back-propagated on a batch of its own."""
import torch
from torch import nn


class RND(nn.Module):
    def __init__(self):
        super().__init__()
        self.predictor = nn.Linear(4, 8)
        self.target = nn.Linear(4, 8)
        for p in self.target.parameters():
            p.requires_grad = False


rnd = RND()
optimizer = torch.optim.Adam(rnd.predictor.parameters())
for obs, batch in zip(torch.randn(100, 16, 4), torch.randn(100, 16, 4)):
    target_feature = rnd.target(obs)  # ok: TL201 a frozen network on data without a graph
    predicted_feature = rnd.predictor(obs)  # want: TL201(high) "reach no backward\(\)|only reach the host"
    bonus = ((target_feature - predicted_feature).pow(2).sum(1) / 2).data
    print(bonus.mean().item())
    loss = (rnd.predictor(batch) - rnd.target(batch)).pow(2).mean()  # ok: TL201 the predictor's training pass
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
