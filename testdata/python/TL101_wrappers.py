"""Grad switches the project wraps itself, and self(...) calls under no_grad."""
import torch
import torch.nn.functional as F
from utils.torch_utils import smart_inference_mode


@smart_inference_mode()
def run(model, dataloader, criterion):
    loss = 0
    for images, labels in dataloader:
        y = model(images)
        loss += criterion(y, labels)  # ok: a project's own inference_mode decorator
    return loss


class Predictor:
    def predict_loop(self, model, loader):
        with torch.no_grad():
            for batch in loader:
                self(batch, model)

    def __call__(self, batch, model):
        total = 0
        for window in batch:
            total += F.mse_loss(model(window), window)  # ok: every call of __call__ runs under no_grad
        return total


def no_grad_wrapper():
    return open("/dev/null")


def score(net, batches):
    acc = 0
    for xb, yb in batches:
        with no_grad_wrapper():
            acc += F.mse_loss(net(xb), yb)  # want: TL101
    return acc.item()
