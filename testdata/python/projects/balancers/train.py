"""Two task losses back-propagated together with retain_graph=True, then
handed each to a balancer that back-propagates them again; beside it, a
logger that does not."""
import torch

from balance import GradBalancer, LossLogger


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
            (loss_a + loss_b).backward(retain_graph=True)
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
