"""TL103: a loop over an iterable named for data (`data`, `train_data`)
draws a batch each step, as a loop over a loader does: nothing from
outside the step carries a graph into it."""
import torch
import torch.nn as nn

model = nn.Linear(4, 4)
encoder = nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def fit(data):
    for d, y in data:
        optimizer.zero_grad()
        loss = ((model(d) - y) ** 2).mean()
        loss.backward(retain_graph=True)  # want: TL103 "last backward through this step's graph"
        optimizer.step()


def fit_split(train_data):
    for d, y in train_data:
        optimizer.zero_grad()
        loss = ((model(d) - y) ** 2).mean()
        loss.backward(retain_graph=True)  # want: TL103 "last backward through this step's graph"
        optimizer.step()


def fit_shared(z, data):
    h = encoder(z)  # one graph made before the loop, shared by every step
    for d, y in data:
        optimizer.zero_grad()
        loss = ((model(d) + h - y) ** 2).mean()
        loss.backward(retain_graph=True)  # ok: every step's backward runs through h's graph again
        optimizer.step()


def fit_two_losses(data):
    for d, y in data:
        optimizer.zero_grad()
        out = model(d)
        fit = ((out - y) ** 2).mean()
        fit.backward(retain_graph=True)  # ok: the penalty's backward below runs through `out` again
        penalty = out.abs().mean()
        penalty.backward()
        optimizer.step()
