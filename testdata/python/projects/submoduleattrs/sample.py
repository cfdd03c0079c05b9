import torch

from process import LatentProcess


def plot_prior(path, x, n):
    process = LatentProcess(4)
    process.load_state_dict(torch.load(path, map_location="cpu"))
    means = []
    for _ in range(n):
        z = torch.randn_like(x)
        mu = process.xz_to_y(x, z)  # want: TL201(medium) "only reach the host"
        means.append(mu.detach().numpy())
    return means


def fit(loader, path):
    process = LatentProcess(4)
    opt = torch.optim.Adam(process.parameters())
    for x, y in loader:
        z = torch.randn_like(x)
        loss = (process.xz_to_y(x, z) - y).pow(2).mean()  # ok: TL201 back-propagated
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save(process.state_dict(), path)
