"""A stored state that feeds the next iteration is chained into the state
the loop carries: an unrolled recurrence, back-propagated through on
purpose by the caller. A store read back only for a print keeps every
step's graph for nothing."""
import torch
import torch.nn as nn


def unroll(learner, meta: nn.Module, inputs, targets, epochs, bs):
    cI = meta.cell.cI.data
    hs = [None]
    for _ in range(epochs):
        for i in range(0, len(inputs), bs):
            x, y = inputs[i:i + bs], targets[i:i + bs]
            learner.copy_flat_params(cI)
            loss = learner.criterion(learner(x), y)
            learner.zero_grad()
            loss.backward()
            grad = torch.cat([p.grad.data.view(-1) for p in learner.parameters()], 0)
            cI, h = meta([loss.data.unsqueeze(0), grad], hs[-1])
            hs.append(h)  # ok: TL102 the next iteration's input
    return cI


def unroll_logged(learner, meta: nn.Module, inputs, targets, epochs, bs):
    cI = meta.cell.cI.data
    hs = [None]
    for _ in range(epochs):
        for i in range(0, len(inputs), bs):
            x, y = inputs[i:i + bs], targets[i:i + bs]
            learner.copy_flat_params(cI)
            loss = learner.criterion(learner(x), y)
            learner.zero_grad()
            loss.backward()
            grad = torch.cat([p.grad.data.view(-1) for p in learner.parameters()], 0)
            cI, h = meta([loss.data.unsqueeze(0), grad], None)
            hs.append(h)  # want: TL102
            print(hs[-1])
    return cI
