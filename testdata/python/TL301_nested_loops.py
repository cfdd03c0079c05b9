"""torch.cuda.empty_cache() in loops nested in a loop over items, and in generators."""
import torch
from torch import nn


def render(models, rays, chunk_size, n_levels=2):
    outs = []
    for rays_chunk in torch.split(rays, chunk_size):
        for level in range(n_levels):
            net = models[f"level_{level}"]
            with torch.no_grad():
                out = net(rays_chunk)
            outs.append(out.cpu())
            torch.cuda.empty_cache()  # want: TL301 "every iteration of the loop at line 8, each of which runs the model"
    return outs


def render_coarse_first(net, rays, chunk_size, n_levels=2):
    outs = []
    for rays_chunk in torch.split(rays, chunk_size):
        samples = None
        for level in range(n_levels):
            if level == 0:
                samples = torch.linspace(0, 1, 64, device=rays_chunk.device)
                torch.cuda.empty_cache()  # want: TL301 "the loop at line 20"
            with torch.no_grad():
                out = net(rays_chunk, samples)
            samples = out[..., :64]
        outs.append(out.cpu())
    return outs


def offload(layers, loader):
    for x in loader:
        for layer in layers:
            layer.cuda()
            with torch.no_grad():
                x = layer(x)
            layer.cpu()
            torch.cuda.empty_cache()  # want: TL301 "every step of the loop at line 34"


def train(model, loader, optimizer, epochs):
    for epoch in range(epochs):
        for i, (x, y) in enumerate(loader):
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if i == 0:
                torch.cuda.empty_cache()  # ok: the first step of each epoch, once per epoch


def sweep(model, configs, samples):
    for cfg in configs:
        for i, x in enumerate(samples):
            with torch.no_grad():
                model(x, cfg)
            if i == 0:
                torch.cuda.empty_cache()  # ok: once per setting; each sample is drawn by the inner loop


def clips(model, videos):
    for video in videos:
        for t, frame in enumerate(video):
            with torch.no_grad():
                model(frame)
            if t == 0:
                torch.cuda.empty_cache()  # ok: once per video, whose frames the inner loop draws


def per_level_per_epoch(models, x, epochs):
    for epoch in range(epochs):
        for level in range(len(models)):
            net = models[level]
            with torch.no_grad():
                net(x)
            torch.cuda.empty_cache()  # ok: once per model; the epoch loop draws no item


def denoise(model, latents, steps):
    images = []
    for z in latents:
        for t in range(steps):
            with torch.no_grad():
                z = model(z, t)
        images.append(z.cpu())
        torch.cuda.empty_cache()  # ok: once per image, after its whole sampling loop
    return images


class VideoNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleDict({"fwd": nn.Conv2d(3, 3, 3), "bwd": nn.Conv2d(3, 3, 3)})
        self.heads = nn.ModuleList([nn.Conv2d(3, 3, 3) for _ in range(3)])

    def propagate(self, frames, direction):
        outs = []
        for i in range(len(frames)):
            feat = self.blocks[direction](frames[i])
            outs.append(feat.cpu())
            torch.cuda.empty_cache()  # want: TL301 "every iteration of this loop, each of which runs the model"
        return outs

    def per_head(self, x):
        outs = []
        for name in ["fwd", "bwd"]:
            outs.append(self.blocks[name](x))
            torch.cuda.empty_cache()  # ok: once per module of the dict
        for i in range(len(self.heads)):
            outs.append(self.heads[i](x))
            torch.cuda.empty_cache()  # ok: once per module of the list
        return outs


def interactive(net):
    while True:
        path = input("image path: ")
        if not path:
            break
        with torch.no_grad():
            print(net(torch.load(path, map_location="cpu")).shape)
        torch.cuda.empty_cache()  # ok: each iteration waits for a person to type a path


def step_through(net, loader, pause):
    for x in loader:
        with torch.no_grad():
            net(x)
        if pause:
            input("next? ")
        torch.cuda.empty_cache()  # want: TL301 "every step of this loop"


def batches(prompts, size):
    batch = []
    for p in prompts:
        batch.append(p)
        if len(batch) < size:
            continue
        yield torch.stack(batch)
        batch = []
        torch.cuda.empty_cache()


def batches_then_flush(prompts, size):
    for i in range(0, len(prompts), size):
        yield torch.stack(prompts[i:i + size])
    torch.cuda.empty_cache()


def generate(model, prompts):
    out = []
    for b in batches(prompts, 4):  # want: TL301 "through the generator `batches`, which calls it each time it yields \(line 144\)"
        with torch.no_grad():
            out.append(model(b.cuda()).cpu())
    for b in batches_then_flush(prompts, 4):  # ok: the generator flushes once, when it is exhausted
        with torch.no_grad():
            out.append(model(b.cuda()).cpu())
    for b in batches(prompts, 4):  # ok: this loop runs no model, only saves each batch
        torch.save(b, "batch.pt")
    return out


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, z):
        return self.fc(z)


def sample_checkpoints(paths, z):
    for path in paths:
        generator = Generator().cuda()
        generator.load_state_dict(torch.load(path))
        with torch.no_grad():
            torch.save(generator(z).cpu(), path + ".sample")
        torch.cuda.empty_cache()  # ok: once per model, each built afresh


def sweep_checkpoints(net, paths, z):
    for path in paths:
        net.load_state_dict(torch.load(path))
        with torch.no_grad():
            torch.save(net(z).cpu(), path + ".sample")
        torch.cuda.empty_cache()  # ok: once per checkpoint, each loaded afresh


def sample_every(generator, zs):
    for z in zs:
        with torch.no_grad():
            torch.save(generator(z).cpu(), "sample.pt")
        torch.cuda.empty_cache()  # want: TL301 "every iteration of this loop, each of which runs the model"


def sample_fresh_models(n, z):
    for _ in range(n):
        generator = Generator().cuda()
        with torch.no_grad():
            torch.save(generator(z).cpu(), "sample.pt")
        torch.cuda.empty_cache()  # ok: once per model, each built afresh and moved


def train_per_volume(model, loader, optimizer, cube):
    for volume, target in loader:
        # ok: each item is a whole volume; the steps run in the loop over its cubes, so this runs once per hundreds of steps
        torch.cuda.empty_cache()
        for x, y, z in cube(volume):
            optimizer.zero_grad()
            loss = (model(volume[..., x, y, z]) - target[..., x, y, z]).pow(2).mean()
            loss.backward()
            optimizer.step()
            torch.cuda.empty_cache()  # want: TL301 "every step of this loop"


def train_per_batch(model, loader, optimizer, log):
    for x, y in loader:
        torch.cuda.empty_cache()  # want: TL301 "every step of this loop"
        optimizer.zero_grad()
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        optimizer.step()
        for name, p in model.named_parameters():
            log(name, p.grad.norm().item())
