"""TL102: a batch split into chunks whose gradients one optimizer step sums."""
import torch


def train_chunked(model, loader, crit, opt, n_chunks):
    for x, y in loader:
        opt.zero_grad()
        outs = []  # made afresh for each optimizer step
        for xc, yc in zip(x.chunk(n_chunks), y.chunk(n_chunks)):
            out = model(xc)
            outs.append(out)  # ok: holds the chunks of this step alone, dropped with the next batch
            (crit(out, yc) / n_chunks).backward()
        opt.step()
        print((torch.cat(outs).argmax(1) == y).float().mean().item())


def train_chunked_kept(model, loader, crit, opt, n_chunks):
    outs = []  # made once, for the whole run
    for x, y in loader:
        opt.zero_grad()
        for xc, yc in zip(x.chunk(n_chunks), y.chunk(n_chunks)):
            out = model(xc)
            outs.append(out)  # want: TL102 "after its backward"
            (crit(out, yc) / n_chunks).backward()
        opt.step()
    return outs


def train_per_chunk_step(model, batch, crit, opt, n_chunks):
    x, y = batch
    for epoch in range(10):
        outs = []
        for xc, yc in zip(x.chunk(n_chunks), y.chunk(n_chunks)):
            opt.zero_grad()
            out = model(xc)
            outs.append(out)  # want: TL102 "after its backward"
            crit(out, yc).backward()
            opt.step()
        print(len(outs))
