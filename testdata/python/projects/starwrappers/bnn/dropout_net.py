from bnn.priors import *
from bnn.base_net import *
import torch.nn.functional as F


class Layers(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(F.dropout(self.fc1(x), p=0.5, training=True))


class DropoutNet(BaseNet):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.model = Layers()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr)

    def fit(self, x, y):
        self.optimizer.zero_grad()
        out = self.model(x)
        loss = F.cross_entropy(out, y)
        loss.backward()
        self.optimizer.step()
        return loss.data

    def eval(self, x, y):
        out = self.model(x)  # want: TL201(medium) "in `eval`"
        loss = F.cross_entropy(out, y)
        return loss.data, out.data.max(dim=1)[1]

    @torch.no_grad()
    def predict(self, x):
        return self.model(x).argmax(1)  # ok: under its own no_grad


class Head(BaseModule):
    def scores(self, x):
        return self.fc(x)  # ok: a module's method runs in its callers' mode
