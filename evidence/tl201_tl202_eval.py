"""TL201 and TL202: evaluating a model with grad enabled (keeping the
output in a name until the next pass, or dropping it at once with
`model(x).argmax(-1)`), with the pre-0.4 `volatile=True`, under
`torch.no_grad()` and under `torch.inference_mode()`.

Two models with random weights, each at a fixed batch: ResNet-50 on 64
images of 224x224, and a transformer of GPT-2 small's shape on 8
sequences of 1024 tokens. The first WARMUP forward passes are not timed;
--repeat runs the whole loop again in the same process (the medians are
reported).

    python3 evidence/tl201_tl202_eval.py bad_grad --model all --steps 13
"""
import gc

import torch
import torchvision
from torch.autograd import Variable

from common import GPT, Probe, cli, median, median_of

WARMUP = 3


def bad_grad(model, batches, probe):
    model.eval()
    for step, x in enumerate(batches):
        out = model(x)  # evidence: TL201
        preds = out.argmax(-1)
        probe(step)


def bad_grad_dropped(model, batches, probe):
    model.eval()
    for step, x in enumerate(batches):
        preds = model(x).argmax(-1)  # evidence: TL201
        probe(step)


def bad_volatile(model, batches, probe):
    model.eval()
    for step, x in enumerate(batches):
        x = Variable(x, volatile=True)  # evidence: TL202
        out = model(x)  # evidence: TL201
        preds = out.argmax(-1)
        probe(step)


def fixed_no_grad(model, batches, probe):
    model.eval()
    with torch.no_grad():
        for step, x in enumerate(batches):
            out = model(x)
            preds = out.argmax(-1)
            probe(step)


def fixed_inference_mode(model, batches, probe):
    model.eval()
    with torch.inference_mode():
        for step, x in enumerate(batches):
            out = model(x)
            preds = out.argmax(-1)
            probe(step)


def build(name):
    """A model with random weights on the GPU and its fixed input batch."""
    torch.manual_seed(0)
    if name == "resnet50":
        net = torchvision.models.resnet50().to("cuda")
        return net, torch.randn(64, 3, 224, 224, device="cuda")
    with torch.device("cuda"):
        net = GPT()
    return net, torch.randint(0, 50257, (8, 1024), device="cuda")


def run(variant, args):
    names = ["resnet50", "gpt2"] if args.model == "all" else [args.model]
    figures = {}
    for name in names:
        net, x = build(name)
        reps = []
        for _ in range(args.repeat):
            probe = Probe(rss=False)
            probe.start()
            variant(net, [x] * args.steps, probe)
            trace = probe.trace
            reps.append({
                "params_m": sum(p.numel() for p in net.parameters()) / 1e6,
                "weights_mib": probe.base["alloc_mib"],
                "peak_mib": max(trace["peak_mib"]) - probe.base["alloc_mib"],
                "latency_ms": median(trace["ms"][WARMUP:] or trace["ms"]),
                "retained_mib": trace["alloc_mib"][-1] - probe.base["alloc_mib"],
            })
            gc.collect()
            torch.cuda.empty_cache()
        figures[name] = median_of(reps)
        del net, x
        gc.collect()
        torch.cuda.empty_cache()
    return {"figures": figures, "repeats": args.repeat}


if __name__ == "__main__":
    cli(run)
