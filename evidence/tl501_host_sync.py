"""TL501: reading the loss on the host every training step (`.item()`)
against accumulating it on the GPU (`.detach()`) and reading it once.

Four setups, trained with SGD: `cnn`, the small CNN on 32x32 images in
batches of 32 (short steps: about 3 ms on an H100);
`transformer`, the two-layer encoder on 64-token sequences in batches of
64; `gpt2`, GPT-2 small's shape on 1024-token sequences in batches of 8
(long steps: about 70 ms); `cnn_host`, the small CNN in batches of 256
fed from the host: 8-bit images converted and normalised in the training
process, pinned and copied to the GPU without blocking each step; and
`cnn_blocking`, the same batches copied as most tutorials copy them,
`x.to(device)` from pageable memory, a copy that itself waits for the
GPU's queued work every step. The first three make their synthetic
batches on the GPU. Matmuls
run in TF32. Nothing else synchronises inside the loop: the time is
taken over all measured steps, with one `torch.cuda.synchronize()`
before and after.

    python3 evidence/tl501_host_sync.py bad_item_every_step --model cnn --steps 300
"""
import time

import torch
import torch.nn as nn

from common import GPT, SyntheticLoader, cli, median_of, small_model

WARMUP = 50


def bad_item_every_step(model, criterion, optimizer, loader):
    total = 0.0
    for x, y in loader:
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.item()  # evidence: TL501
    return total


def fixed_detach(model, criterion, optimizer, loader):
    total = 0.0
    for x, y in loader:
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.detach()
    return total.item()


def ref_item_every_50(model, criterion, optimizer, loader):
    total, logged = 0.0, []
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.detach()
        if step % 50 == 0:
            logged.append(loss.item())
    return total.item(), logged


class TokenLoader(SyntheticLoader):
    """GPT-2 batches: random tokens and next-token labels."""

    def __init__(self, steps, batch=8, length=1024, vocab=50257):
        super().__init__("tokens", steps, batch)
        self.length, self.vocab = length, vocab

    def __iter__(self):
        gen = torch.Generator(device="cuda")
        gen.manual_seed(0)
        for _ in range(self.steps):
            x = torch.randint(0, self.vocab, (self.batch, self.length), device="cuda", generator=gen)
            yield x, torch.roll(x, -1, 1)


class HostLoader:
    """Batches prepared on the host each step, as a DataLoader with
    num_workers=0 and pin_memory=True prepares them: 8-bit images
    indexed, converted to float, normalised, pinned, and copied to the
    GPU without blocking. With blocking=True, as a DataLoader without
    pin_memory and `x.to(device)` copy them: pageable memory, and a copy
    that waits for the GPU."""

    def __init__(self, steps, batch=256, size=32, images=4096, blocking=False):
        self.steps, self.batch, self.blocking = steps, batch, blocking
        gen = torch.Generator().manual_seed(0)
        self.images = torch.randint(0, 256, (images, 3, size, size), dtype=torch.uint8, generator=gen)
        self.labels = torch.randint(0, 10, (images,), generator=gen)

    def __iter__(self):
        gen = torch.Generator().manual_seed(0)
        for _ in range(self.steps):
            idx = torch.randint(0, len(self.images), (self.batch,), generator=gen)
            x = self.images[idx].float().div_(255).sub_(0.5).div_(0.25)
            y = self.labels[idx]
            if self.blocking:
                yield x.to("cuda"), y.to("cuda")
                continue
            yield x.pin_memory().to("cuda", non_blocking=True), y.pin_memory().to("cuda", non_blocking=True)


class TokenLoss(nn.Module):
    """Cross-entropy over every position of a language model's logits."""

    def forward(self, logits, targets):
        return nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten())


def setup(name, steps):
    torch.manual_seed(0)
    torch.set_float32_matmul_precision("high")  # TF32 matmuls, as most training runs use
    if name == "gpt2":
        model = GPT().to("cuda")
        return model, TokenLoss(), TokenLoader(steps)
    if name in ("cnn_host", "cnn_blocking"):
        return small_model("cnn"), nn.CrossEntropyLoss(), HostLoader(steps, blocking=name == "cnn_blocking")
    model = small_model(name)
    kind = "images" if name == "cnn" else "transformer"
    batch = 32 if name == "cnn" else 64
    return model, nn.CrossEntropyLoss(), SyntheticLoader(kind, steps, batch=batch)


def run(variant, args):
    reps = []
    for _ in range(args.repeat):
        model, criterion, loader = setup(args.model, args.steps)
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
        variant(model, criterion, optimizer, SyntheticLoaderSlice(loader, WARMUP))
        torch.cuda.synchronize()
        start = time.perf_counter()
        variant(model, criterion, optimizer, loader)
        torch.cuda.synchronize()
        seconds = time.perf_counter() - start
        reps.append({"steps_per_s": args.steps / seconds, "ms_per_step": 1e3 * seconds / args.steps})
        del model, optimizer
        torch.cuda.empty_cache()
    return {"figures": median_of(reps), "repeats": args.repeat}


class SyntheticLoaderSlice:
    """The first n batches of a loader: the warmup."""

    def __init__(self, loader, n):
        self.loader, self.n = loader, n

    def __iter__(self):
        for i, batch in enumerate(self.loader):
            if i == self.n:
                return
            yield batch


if __name__ == "__main__":
    cli(run)
