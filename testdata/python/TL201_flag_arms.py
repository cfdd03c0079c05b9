"""TL201: a function that trains or evaluates by a flag, called with the
flag that turns its backward() off, is reported at that call, with the
passes of the branches the flag selects, not the training branch's."""
import torch
import torch.nn as nn


def run(model, loader, optimizer, training=True):
    crit = nn.MSELoss()
    if training:
        for x, y in loader:
            loss = crit(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return loss.item()
    else:
        outs = []
        for x, y in loader:
            outs.append(model(x))  # want: TL102 "no backward\(\) of this step"
        if model.name == "two_heads":
            outs.append(model(x.flip(0)))  # ok: outside the loop, one graph
        return torch.cat(outs).detach().numpy()


def main(model, train_loader, test_loader, optimizer):
    for _ in range(5):
        run(model, train_loader, optimizer)  # ok: trains
    model.eval()
    return run(model, test_loader, optimizer, training=False)  # want: TL201 "with `training=False`, runs `model\(x\)` \(line 20\) and no backward\(\)"
