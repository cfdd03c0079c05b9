"""TL201: a step that trains or evaluates by a flag computed once from
its phase (`train = (phase == "train")`): the switch to evaluation mode
and the backward() are in exclusive arms of the same test."""
import torch
from torch import nn


def run_step(phase, model, opt, crit, x, y):
    train = (phase == "train")
    if train:
        model.train()
    else:
        model.eval()
    y_hat = model(x)  # want: TL201(high) "after `model.eval\(\)`"
    loss = crit(y_hat, y)
    if train:
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def run_step_rebound(phase, step, model, opt, crit, x, y):
    train = (phase == "train")
    if train:
        model.train()
    else:
        model.eval()
    y_hat = model(x)  # ok: the flag is bound again, the backward may follow the switch
    loss = crit(y_hat, y)
    train = step > 0
    if train:
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    net = nn.Linear(4, 4)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    data = [(torch.randn(2, 4), torch.tensor([0, 1])) for _ in range(10)]
    for epoch in range(3):
        for phase in ("train", "val"):
            for i, (x, y) in enumerate(data):
                run_step(phase, net, opt, nn.CrossEntropyLoss(), x, y)
                run_step_rebound(phase, i, net, opt, nn.CrossEntropyLoss(), x, y)
