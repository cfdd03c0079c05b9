import torch

import _init_paths  # noqa: F401
from core.function import train_epoch, validate


def main(model, train_loader, val_loader, optimizer, epochs):
    for epoch in range(epochs):
        train_epoch(model, train_loader, optimizer)
        with torch.no_grad():
            print(validate(model, val_loader))
