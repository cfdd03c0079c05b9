"""One PNG per rule from run.py's results and traces (matplotlib, Agg)."""
import os

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"train": "tab:blue", "eval": "tab:red", "metric": "tab:green", "extract": "tab:red", "retain": "tab:purple"}
MODELS = {"cnn": "small CNN", "transformer": "small transformer", "resnet50": "ResNet-50", "gpt2": "GPT-2 small shape",
          "cnn_host": "small CNN, batches prepared on the host",
          "cnn_blocking": "the same, copied with a blocking .to()"}


def footer(fig, results):
    env = results.get("environment", {})
    fig.text(0.01, 0.005, f"{env.get('gpu')}, driver {env.get('driver')}, PyTorch {env.get('torch')}, "
             f"{results['date']}; median of {results['settings']['reps']} runs", fontsize=7, color="gray")


def save(fig, out, rule):
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(os.path.join(out, f"{rule}.png"), dpi=110)
    plt.close(fig)


def traces_plot(rule, title, results, traces, out, rows):
    """Per-step lines, bad solid and fixed dashed, one column per model."""
    cases = {k: v for k, v in results["cases"].items() if rule in v["rules"]}
    fig, axes = plt.subplots(len(rows), 2, figsize=(11, 3.4 * len(rows)), squeeze=False)
    for col, model in enumerate(["cnn", "transformer"]):
        for row, (metric, label, scale, relative) in enumerate(rows):
            ax = axes[row][col]
            for key, case in sorted(cases.items()):
                if case["model"] != model:
                    continue
                series = traces.get(key, {}).get(metric)
                if not series:
                    continue
                kind, situation = case["variant"].split("_", 1)
                if relative:
                    series = [v - series[0] for v in series]
                ax.plot(range(1, len(series) + 1), [v * scale for v in series], color=COLORS.get(situation, "black"),
                        linestyle="-" if kind == "bad" else "--", label=f"{situation}: {kind}")
            ax.set_title(f"{MODELS[model]}: {label}", fontsize=10)
            ax.set_xlabel("step")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=11)
    footer(fig, results)
    save(fig, out, rule)


def bars(ax, labels, values, ylabel, title):
    values = [v if v is not None else 0 for v in values]
    ax.bar(labels, values, color=["tab:red" if l.startswith(("grad", "volatile", "every", "late", "without")) else "tab:blue" for l in labels])
    for i, v in enumerate(values):
        ax.text(i, v, f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}", ha="center", va="bottom", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.tick_params(axis="x", labelsize=8)


def eval_plot(rule, variants, title, results, out):
    figures = results["rules"][rule]["figures"]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7))
    for col, model in enumerate(["resnet50", "gpt2"]):
        labels = [v.replace("_", " ") for v in variants]
        peak = [figures.get(f"{model} {v}", {}).get("peak_mib") for v in variants]
        latency = [figures.get(f"{model} {v}", {}).get("latency_ms") for v in variants]
        bars(axes[0][col], labels, peak, "peak allocated above weights (MiB)", f"{MODELS[model]}: peak memory")
        bars(axes[1][col], labels, latency, "ms per forward pass", f"{MODELS[model]}: latency")
    fig.suptitle(title, fontsize=11)
    footer(fig, results)
    save(fig, out, rule)


def empty_cache_plot(results, out):
    figures = results["rules"]["TL301"]["figures"]
    variants = ["bad_every_step", "fixed_never", "fixed_per_epoch"]
    labels = ["every step", "never", "once per epoch"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    bars(axes[0], labels, [figures[v].get("steps_per_s") for v in variants], "training steps/s", "throughput")
    bars(axes[1], labels, [figures[v].get("peak_reserved_mib") for v in variants], "MiB", "peak reserved memory")
    fig.suptitle("TL301: torch.cuda.empty_cache() in a ResNet-18 training loop", fontsize=11)
    footer(fig, results)
    save(fig, out, "TL301")


def alloc_conf_plot(results, traces, out):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    styles = {"ref_unset": ("not set", "tab:gray", "-"), "bad_late": ("set after CUDA init", "tab:red", "--"),
              "fixed_early": ("set before CUDA init", "tab:blue", "-")}
    for variant, (label, color, style) in styles.items():
        trace = traces.get(f"tl302_alloc_conf {variant}", {})
        if trace.get("reserved_mib"):
            ax.plot(range(1, len(trace["reserved_mib"]) + 1), trace["reserved_mib"], color=color, linestyle=style,
                    label=f"reserved, {label}")
    unset = traces.get("tl302_alloc_conf ref_unset", {})
    if unset.get("peak_mib"):
        ax.plot(range(1, len(unset["peak_mib"]) + 1), unset["peak_mib"], color="black", linestyle=":", label="peak allocated in the step")
    ax.set_xlabel("step (the batch grows every step)")
    ax.set_ylabel("MiB")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("TL302: expandable_segments:True set before CUDA init, after it, or not at all", fontsize=10)
    footer(fig, results)
    save(fig, out, "TL302")


def load_plot(results, out):
    figures = results["rules"]["TL403"]["figures"]
    labels = ["without map_location", 'map_location="cpu"']
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    bars(axes[0], labels, [figures[v].get("gpu_allocated_mib") for v in ("bad_load", "fixed_load")], "MiB",
         "GPU memory allocated by torch.load")
    bars(axes[1], labels, [figures[v].get("device_used_mib") for v in ("bad_load", "fixed_load")], "MiB",
         "GPU memory in use (nvidia-smi), before vs after")
    fig.suptitle("TL403: torch.load of a ResNet-50 checkpoint (weights + Adam state) saved from cuda:0", fontsize=11)
    footer(fig, results)
    save(fig, out, "TL403")


def host_sync_plot(results, out):
    figures = results["rules"]["TL501"]["figures"]
    variants = ["bad_item_every_step", "fixed_detach", "ref_item_every_50"]
    labels = ["every step .item()", ".detach(), one .item()", ".item() every 50"]
    models = ["cnn", "transformer", "gpt2", "cnn_host", "cnn_blocking"]
    fig, axes = plt.subplots(1, len(models), figsize=(21, 4))
    for ax, model in zip(axes, models):
        per = figures.get(model, {})
        bars(ax, labels, [per.get(v, {}).get("steps_per_s") for v in variants], "training steps/s", MODELS[model])
    fig.suptitle("TL501: reading the loss on the host every step vs accumulating it on the GPU", fontsize=11)
    update = next((u for u in reversed(results.get("updates", [])) if "tl501" in u.get("only", "")), None)
    footer(fig, dict(results, environment=update["environment"], date=update["date"]) if update else results)
    save(fig, out, "TL501")


SETTINGS = {"sgd": "SGD", "adam": "Adam", "sgd_low_lr": "SGD at lr 0.0025", "sgd_clip": "SGD, clip_grad_norm_ 1.0", "adam_clip": "Adam, clip_grad_norm_ 1.0",
            "cnn": "CNN with batch norm and dropout", "plain": "the same CNN without either"}
TRAINING = {
    # rule: program, bad variant and label, fixed variant and label, settings, title
    "TL502": ("tl502_zero_grad", "bad_no_zero_grad", "no zero_grad()", "fixed_zero_grad", "zero_grad() every step",
              ["sgd", "adam"], "TL502: a training loop that never clears the gradients"),
    "TL503": ("tl503_eval_mode", "bad_left_in_eval", "left in eval() after the first validation", "fixed_train_each_epoch",
              "train() every epoch", ["cnn", "plain"], "TL503: a model left in evaluation mode after validation (SGD)"),
    "TL504": ("tl504_softmax", "bad_softmax", "cross_entropy(softmax(logits))", "fixed_logits", "cross_entropy(logits)",
              ["sgd", "adam"], "TL504: cross-entropy given probabilities instead of logits"),
    "TL505": ("tl505_set_epoch", "bad_no_set_epoch", "set_epoch never called", "fixed_set_epoch", "set_epoch(epoch)",
              ["sgd"], "TL505: DistributedSampler without set_epoch, two ranks simulated in one process (SGD)"),
    "TL506": ("tl506_accumulation", "bad_unscaled", "loss not divided by 4", "fixed_scaled", "loss / 4",
              ["sgd", "sgd_low_lr", "adam", "sgd_clip", "adam_clip"], "TL506: gradient accumulation over 4 micro-batches"),
}


def band(ax, x, trace, key, color, style, label):
    """A median curve and its min-max band; None (not finite) leaves a gap."""
    med = [float("nan") if v is None else v for v in trace.get(key, [])]
    lo = [float("nan") if v is None else v for v in trace.get(key + "_min", [])]
    hi = [float("nan") if v is None else v for v in trace.get(key + "_max", [])]
    if not med:
        return
    xs = [x(i) for i in range(len(med))]
    ax.plot(xs, med, color=color, linestyle=style, label=label, marker="o" if len(xs) < 40 else None, markersize=3)
    if lo and hi:
        n = min(len(lo), len(hi), len(xs))
        ax.fill_between(xs[:n], lo[:n], hi[:n], color=color, alpha=0.15, linewidth=0)


def training_plot(rule, results, traces, out):
    """Held-out accuracy per epoch and the training loss, median of the
    seeds with their min-max band, bad (red, solid) vs fixed (blue, dashed),
    one column per setting."""
    program, bad, bad_label, fixed, fixed_label, settings, title = TRAINING[rule]
    figures = results["rules"][rule]["figures"]
    fig, axes = plt.subplots(2, len(settings), figsize=(max(5.2 * len(settings), 9), 7), squeeze=False)
    for col, setting in enumerate(settings):
        per = figures.get(setting, {})
        steps = (per.get("fixed", {}).get("steps_per_epoch") or 1)
        for variant, label, color, style in ((bad, bad_label, "tab:red", "-"), (fixed, fixed_label, "tab:blue", "--")):
            trace = traces.get(f"{program} {variant} {setting}", {})
            band(axes[0][col], lambda i: i + 1, trace, "test_acc", color, style, label)
            band(axes[1][col], lambda i: (i + 1) * 10 / steps, trace, "train_loss", color, style, label)
        axes[0][col].set_title(f"{SETTINGS[setting]}: held-out accuracy", fontsize=10)
        axes[0][col].set_xlabel("epoch")
        axes[0][col].set_ylabel("accuracy (%)")
        axes[1][col].set_title(f"{SETTINGS[setting]}: training loss (mean of 10 steps)", fontsize=10)
        axes[1][col].set_xlabel("epoch")
        axes[1][col].set_ylabel("loss the loop computes")
        axes[1][col].set_yscale("log")
        plain = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
        axes[1][col].yaxis.set_major_formatter(plain)
        low, high = axes[1][col].get_ylim()
        # Minor labels only where the axis spans less than a decade.
        axes[1][col].yaxis.set_minor_formatter(plain if high < 10 * low else matplotlib.ticker.NullFormatter())
        axes[1][col].tick_params(axis="y", which="minor", labelsize=6)
        for ax in axes[:, col]:
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=11)
    on = results["rules"][rule].get("measured_on", {})
    env = dict(results.get("environment", {}), gpu=on.get("gpu"), torch=on.get("torch"))
    update = next((u for u in reversed(results.get("updates", [])) if u.get("date") == on.get("date")
                   and u.get("environment", {}).get("gpu") == on.get("gpu")), None)
    if update:
        env = update["environment"]
    fig.text(0.01, 0.005, f"{env.get('gpu')}, driver {env.get('driver')}, PyTorch {env.get('torch')}, {on.get('date')}; "
             f"median of {figures.get(settings[0], {}).get('fixed', {}).get('seeds')} seeds, band: min to max",
             fontsize=7, color="gray")
    save(fig, out, rule)


def all_plots(results, traces, out, rules=None):
    """Draws every rule's plot, or only those of the given rules."""
    memory_rows = [("alloc_mib", "GPU allocated (MiB)", 1, False), ("rss_kib", "host RSS growth since step 1 (MiB)", 1 / 1024, True)]
    drawers = {
        "TL101": lambda: traces_plot("TL101", "TL101: total += loss, bad (solid) vs fixed (dashed)", results, traces, out,
                                     memory_rows),
        "TL102": lambda: traces_plot("TL102", "TL102: list.append(tensor), bad (solid) vs fixed (dashed)", results, traces,
                                     out, memory_rows),
        "TL103": lambda: traces_plot("TL103", "TL103: backward(retain_graph=True) (solid) vs backward() (dashed)", results,
                                     traces, out, [("alloc_mib", "GPU allocated after the step (MiB)", 1, False),
                                                   ("peak_mib", "peak allocated in the step (MiB)", 1, False)]),
        "TL104": lambda: traces_plot("TL104", "TL104: forward hook keeps output (solid) vs output.detach() (dashed)",
                                     results, traces, out, memory_rows),
        "TL201": lambda: eval_plot("TL201", ["grad", "no_grad", "inference_mode"],
                                   "TL201: evaluation with grad enabled vs no_grad vs inference_mode", results, out),
        "TL202": lambda: eval_plot("TL202", ["grad", "volatile", "no_grad"],
                                   "TL202: Variable(x, volatile=True) vs grad enabled vs no_grad", results, out),
        "TL301": lambda: empty_cache_plot(results, out),
        "TL302": lambda: alloc_conf_plot(results, traces, out),
        "TL403": lambda: load_plot(results, out),
        "TL501": lambda: host_sync_plot(results, out),
    }
    for rule in TRAINING:
        drawers[rule] = lambda rule=rule: training_plot(rule, results, traces, out)
    for rule, draw in drawers.items():
        if rules is None or rule in rules:
            draw()
