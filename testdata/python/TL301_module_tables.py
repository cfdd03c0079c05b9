"""TL301: models drawn from a table by a computed key, inside a loop over
chunks. Each chunk runs every level's model, so a flush in the level loop
runs once per chunk and level. A flush between models of one sweep does
not."""
import torch


def render(models, batch, n_chunks):
    outs = []
    for s in range(n_chunks):
        rays = batch["rays"][s]
        for level in range(models["levels"]):
            net = models["net_{}".format(level)]
            n_samples = models["samples"][level]  # the level's own setting
            depth = torch.linspace(0, 1, n_samples)
            with torch.no_grad():
                out = net(rays, depth)
            outs.append(out.cpu())
            torch.cuda.empty_cache()  # want: TL301 "every iteration of the loop at line 10"
    return outs


def render_slices(models, rays, chunk, n_levels=2):
    outs = []
    for s in range(0, rays.shape[0], chunk):
        for level in range(n_levels):
            net = models["net_{}".format(level)]
            with torch.no_grad():
                outs.append(net(rays[s:s + chunk]).cpu())
            torch.cuda.empty_cache()  # want: TL301 "every iteration of the loop at line 25"
    return outs


def sweep(models, rays, n_levels=2):
    outs = []
    for level in range(n_levels):
        net = models["net_{}".format(level)]
        with torch.no_grad():
            outs.append(net(rays).cpu())
        torch.cuda.empty_cache()  # ok: once per model of the sweep
    return outs


def sweep_per_epoch(models, loader, n_epochs, n_levels=2):
    for epoch in range(n_epochs):
        for level in range(n_levels):
            net = models["net_{}".format(level)]
            net.load_state_dict(torch.load("level_{}_{}.pt".format(level, epoch), map_location="cpu"))
            torch.cuda.empty_cache()  # ok: once per checkpoint loaded, between phases
