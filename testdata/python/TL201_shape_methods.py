"""TL201: reshaping an output like another tensor (`view_as`,
`expand_as`, `type_as`) keeps it a tensor on its way to the host."""
import torch
from torch import nn
from torchvision.utils import make_grid


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(16, 4)
        self.dec = nn.Linear(4, 16)

    def forward(self, x):
        return self.dec(self.enc(x))


def show_reconstruction(model, batch, logger):
    truth = batch.float() / 255.0
    recon = model(truth)  # want: TL201(high) "only reach the host"
    recon = recon.cpu().view_as(truth).data
    logger.log(make_grid(recon.view(-1, 1, 4, 4), nrow=4).numpy())


def show_reconstruction_quietly(model, batch, logger):
    truth = batch.float() / 255.0
    with torch.no_grad():
        recon = model(truth)  # ok: under no_grad
    logger.log(make_grid(recon.cpu().view_as(truth).view(-1, 1, 4, 4), nrow=4).numpy())


def train(model, opt, loader):
    for x in loader:
        opt.zero_grad()
        recon = model(x).view_as(x)  # ok: back-propagated
        loss = (recon - x).pow(2).mean()
        loss.backward()
        opt.step()


class Logger:
    def log(self, image):
        print(image.shape)


if __name__ == "__main__":
    net = AutoEncoder()
    opt = torch.optim.Adam(net.parameters())
    data = [torch.randn(8, 16) for _ in range(10)]
    for epoch in range(3):
        train(net, opt, data)
        show_reconstruction(net, data[0], Logger())
        show_reconstruction_quietly(net, data[0], Logger())
