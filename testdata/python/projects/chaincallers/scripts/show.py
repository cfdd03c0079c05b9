import torch

from models.vae import Painter, Sampler


def show(batches):
    sampler = Sampler()
    sampler.eval()
    with torch.no_grad():
        return [sampler.sample(b) for b in batches]


def gallery(batches):
    painter = Painter()
    painter.eval()
    return [painter.paint(b) for b in batches]  # want: TL201


if __name__ == "__main__":
    show([torch.randn(2, 4)])
    gallery([torch.randn(2, 4)])
