"""torch.cuda.empty_cache() per step versus at phase boundaries."""
import gc

import torch
from torch.cuda import empty_cache
from torch.utils.data import DataLoader
import torch.nn.functional as F


def train(model, dataset, optimizer, epochs):
    loader = DataLoader(dataset, batch_size=32)
    for epoch in range(epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            torch.cuda.empty_cache()  # want: TL301
        torch.cuda.empty_cache()  # ok: once per epoch, between phases
        evaluate(model, loader)


def evaluate(model, batches):
    with torch.no_grad():
        for i, batch in enumerate(batches):
            model(batch)
            empty_cache()  # want: TL301 "every step"


def steps(model, data_iter, optimizer, max_steps):
    step = 0
    while step < max_steps:
        x, y = next(data_iter)
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()
        step += 1
        torch.cuda.empty_cache()  # want: TL301


def sweep(configs, build_model, data):
    for cfg in configs:
        model = build_model(cfg)
        model(data)
        del model
        gc.collect()
        torch.cuda.empty_cache()  # ok: a loop over models, freeing one before the next


def compare(models, data):
    for name, model in models.items():
        print(name, model(data))  # want: TL201 "outputs only reach the host"
        torch.cuda.empty_cache()  # ok: a loop over models


def cleanup():
    torch.cuda.empty_cache()  # ok: not in a loop


def save_all(checkpoints):
    for path in checkpoints:
        torch.save({}, path)
        torch.cuda.empty_cache()  # ok: the loop runs no step


def empty_cache_local():
    pass


def fake(loader):
    for batch in loader:
        empty_cache_local()  # ok: a different function


def lambda_in_loop(model, loader):
    for x in loader:
        model(x)
        cb = lambda: torch.cuda.empty_cache()  # ok: only defined in the loop, not called
        del cb


def train_with_validation(unet, train_dataloader, optimizer, build_pipeline, args):
    for epoch in range(args.epochs):
        for step, batch in enumerate(train_dataloader):
            optimizer.zero_grad()
            unet(batch).mean().backward()
            optimizer.step()
            if step % args.log_every == 0:
                torch.cuda.empty_cache()  # ok: periodic, not every step
        if epoch % args.validation_epochs == 0:
            pipeline = build_pipeline(unet)
            images = [pipeline(p) for p in args.prompts]
            del pipeline
            torch.cuda.empty_cache()  # ok: after validation, once the pipeline is freed


def denoise(unet, latents, timesteps, thresholds):
    for i, t in enumerate(timesteps):
        noise = unet(latents, t)
        if i in thresholds:
            del noise
            torch.cuda.empty_cache()  # ok: only on the selected refinement steps


def train_step_cleanup(model, loader, optimizer):
    for batch in loader:
        out = model(batch)
        loss = out.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        del loss, out
        torch.cuda.empty_cache()  # want: TL301


def predict_chunks(model, chunks_per_doc):
    for chunks in chunks_per_doc:
        outs = [model(c) for c in chunks]  # want: TL201
        torch.cuda.empty_cache()  # want: TL301
