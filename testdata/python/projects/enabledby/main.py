import torch

from gan import GAN


def main(loader):
    gan = GAN(8)
    gan.train(loader, 10)
    gan.visualize(10)
    with torch.no_grad():
        gan.preview()
