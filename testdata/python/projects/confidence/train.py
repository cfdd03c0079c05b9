import torch
import torch.nn as nn

from evaluation import evaluate


def main(loader, epochs):
    model = nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(epochs):
        model.train()
        for x, y in loader:
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        print(evaluate(model, loader))


if __name__ == "__main__":
    main([], 1)
