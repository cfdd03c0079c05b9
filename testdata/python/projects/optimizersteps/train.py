import torch
import torch.nn as nn


def train_one_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()


def main(model, loader, epochs):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3)
    for epoch in range(epochs):
        train_one_epoch(model, loader, optimizer)
        scheduler.step()
