import torch

from model import BowModel
from utils import predict, show_samples


def main(batches, targets):
    model = BowModel(100, 16)
    opt = torch.optim.Adam(model.parameters())
    for x, y in zip(batches, targets):
        loss = torch.nn.functional.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(predict(model, batches))
    show_samples(model, batches)
