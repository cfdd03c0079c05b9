from bnn.base_net import *
import torch.nn.functional as F


class EnsembleNet(BaseNet):
    def __init__(self, hidden=8):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(4, hidden), nn.ReLU(), nn.Linear(hidden, 2))
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def fit(self, x, y):
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.data

    def eval(self, x, y):
        out = self.model(x)  # want: TL201(medium) "in `eval`"
        return F.cross_entropy(out, y).data, out.data.max(dim=1)[1]
