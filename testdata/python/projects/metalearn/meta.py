import torch.nn as nn

class Meta(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(2, 2)
        self.opt = None

    def forward(self, x, y):
        loss = (self.net(x) - y).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()  # a training step inside forward
