"""A second caller of predict(), also under no_grad."""
import torch

from engine import predict
from models import Classifier


def serve(batches):
    net = Classifier()
    with torch.inference_mode():
        return [predict(net, b) for b in batches]
