"""TL103: losses handed on, after a backward that retains their graph, to an
optimizer that back-propagates each of them, or to a logger that does not."""
import torch
from torch.optim import Optimizer

class GradBalancer(Optimizer):
    def __init__(self, params):
        super().__init__(params, {})

    def step(self, losses):
        self._balance(losses)

    def _balance(self, losses):
        for i, loss in enumerate(losses):
            loss.backward(retain_graph=True)
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.grad.mul_(1.0 / (i + 1))


class LossLogger:
    def __init__(self):
        self.seen = 0

    def step(self, losses):
        for i, loss in enumerate(losses):
            self.seen += i

def train(loader, epochs):
    model = torch.nn.Linear(8, 2)
    head_opt = torch.optim.SGD(model.parameters(), lr=0.1)
    balancer = GradBalancer(model.parameters())
    for _ in range(epochs):
        for x, y in loader:
            head_opt.zero_grad()
            out = model(x)
            loss_a = ((out[:, 0] - y) ** 2).mean()
            loss_b = ((out[:, 1] - y) ** 2).mean()
            (loss_a + loss_b).backward(retain_graph=True)  # ok: the balancer back-propagates each loss again
            head_opt.step()
            balancer.step([loss_a, loss_b])


def train_logged(loader, epochs):
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    logger = LossLogger()
    for _ in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            out = model(x)
            loss_a = ((out[:, 0] - y) ** 2).mean()
            loss_b = ((out[:, 1] - y) ** 2).mean()
            (loss_a + loss_b).backward(retain_graph=True)  # want: TL103(high) "is the last backward through this step's graph"
            opt.step()
            logger.step([loss_a, loss_b])
