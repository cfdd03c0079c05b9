# A script named test_*.py whose functions are called by its own main:
# pytest would collect `test`, but nothing here is a pytest test, since
# the module runs them itself.
import argparse

import torch

from loading import load_model


def valid(model, loader):
    model.eval()
    correct = 0
    for data, label in loader:
        out = model(data)  # want: TL201
        correct += (out.argmax(1) == label).sum().item()
    return correct


def test(model, loader):
    model.eval()
    return [model(data).argmax(1).tolist() for data in loader]  # want: TL201


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkpoint")
    args = parser.parse_args()
    model = load_model(args.checkpoint)
    loader = torch.load("loader.pt", map_location="cpu")
    valid(model, loader)
    test(model, loader)


if __name__ == "__main__":
    main()
