"""Runs every evidence program, each variant in its own process and
repeated, and writes the medians to results.json, the median per-step
traces to traces.json, and one plot per rule.

    python3 evidence/run.py --out docs/evidence                       # the full run, one GPU
    python3 evidence/run.py --out /tmp/evidence --steps 30 --reps 1 --epochs 1  # a smoke test

The full run of the memory and timing programs takes about 9 minutes on
one H100. It can be split in two (each under 10 minutes):
`--phase memory --out DIR` writes DIR/raw-memory.json, and
`--phase timing --merge DIR/raw-memory.json` runs the rest and writes
the results. The training-step programs (TL502 to TL506) take about 5
minutes more on one H200 and run with the memory phase; to keep each
part under 10 minutes, run them on their own, replacing their cases in
the results of an earlier run:

    python3 evidence/run.py --update --only tl502,tl503,tl504,tl505,tl506

Runs that only measure memory go in parallel (each process reads its
own allocator and RSS), one process per repetition, and so do the
training-step runs, each repeating over its seeds within one process;
runs that measure time go one at a time, alone on the GPU, and the
evaluation (TL201, TL202) and empty_cache (TL301) programs repeat their
loop within one process per variant. PYTORCH_CUDA_ALLOC_CONF is removed
from the environment of every run. compare.py compares two runs of the
training-step programs and keeps the second's figures beside the first's.
"""
import argparse
import concurrent.futures
import datetime
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MEMORY_PROGRAMS = [
    # rule, program, situations
    ("TL101", "tl101_accumulate.py", ["train", "eval", "metric"]),
    ("TL102", "tl102_stored.py", ["train", "eval", "metric"]),
    ("TL103", "tl103_retain_graph.py", ["retain"]),
    ("TL104", "tl104_hook.py", ["extract", "train"]),
]
SMALL_MODELS = ["cnn", "transformer"]
SYNC_MODELS = ["cnn", "transformer", "gpt2", "cnn_host", "cnn_blocking"]
SYNC_VARIANTS = ["bad_item_every_step", "fixed_detach", "ref_item_every_50"]
TRAINING_PROGRAMS = [
    # rule, program, bad variant, fixed variant, settings (--model)
    ("TL502", "tl502_zero_grad.py", "bad_no_zero_grad", "fixed_zero_grad", ["sgd", "adam"]),
    ("TL503", "tl503_eval_mode.py", "bad_left_in_eval", "fixed_train_each_epoch", ["cnn", "plain"]),
    ("TL504", "tl504_softmax.py", "bad_softmax", "fixed_logits", ["sgd", "adam"]),
    ("TL505", "tl505_set_epoch.py", "bad_no_set_epoch", "fixed_set_epoch", ["sgd"]),
    ("TL506", "tl506_accumulation.py", "bad_unscaled", "fixed_scaled", ["sgd", "sgd_low_lr", "adam", "sgd_clip", "adam_clip"]),
]
TRAINING_FILES = {program for _, program, _, _, _ in TRAINING_PROGRAMS}
TRAINING_CURVES = ("test_acc", "test_acc_min", "test_acc_max", "test_loss", "test_loss_min", "test_loss_max",
                   "train_loss", "train_loss_min", "train_loss_max")


class Case:
    def __init__(self, rules, program, variant, model="", steps=0, serial=False, path="", repeat=0, epochs=0):
        self.rules, self.program, self.variant = rules, program, variant
        self.model, self.steps, self.serial, self.path = model, steps, serial, path
        self.repeat = repeat  # repetitions within one process instead of one process each
        self.epochs = epochs

    @property
    def key(self):
        return " ".join(p for p in (self.program.removesuffix(".py"), self.variant, self.model) if p)

    def argv(self):
        argv = [sys.executable, os.path.join(HERE, self.program), self.variant]
        if self.model:
            argv += ["--model", self.model]
        if self.steps:
            argv += ["--steps", str(self.steps)]
        if self.path:
            argv += ["--path", self.path]
        if self.repeat:
            argv += ["--repeat", str(self.repeat)]
        if self.epochs:
            argv += ["--epochs", str(self.epochs)]
        return argv


def cases(args, checkpoint):
    out = []
    for variant in ("bad_late", "fixed_early", "ref_unset"):
        out.append(Case(["TL302"], "tl302_alloc_conf.py", variant, "", args.alloc_steps))
    for rule, program, situations in MEMORY_PROGRAMS:
        for model in SMALL_MODELS:
            for situation in situations:
                for kind in ("bad", "fixed"):
                    out.append(Case([rule], program, f"{kind}_{situation}", model, args.steps))
    for variant in ("bad_grad", "bad_grad_dropped", "bad_volatile", "fixed_no_grad", "fixed_inference_mode"):
        out.append(Case(["TL201", "TL202"], "tl201_tl202_eval.py", variant, "all", args.eval_steps, serial=True,
                        repeat=args.reps))
    for variant in ("bad_every_step", "fixed_never", "fixed_per_epoch"):
        out.append(Case(["TL301"], "tl301_empty_cache.py", variant, "", args.epoch_steps, serial=True,
                        repeat=args.reps))
    for variant in ("bad_load", "fixed_load"):
        out.append(Case(["TL403"], "tl403_load.py", variant, "", 0, serial=True, path=checkpoint))
    for model in SYNC_MODELS:
        for variant in SYNC_VARIANTS:
            steps = args.gpt_steps if model == "gpt2" else args.sync_steps
            out.append(Case(["TL501"], "tl501_host_sync.py", variant, model, steps, serial=True, repeat=args.reps))
    # The training-step programs measure outcomes, not time or memory: they
    # run in parallel, each repeating over its seeds within one process.
    for rule, program, bad, fixed, settings in TRAINING_PROGRAMS:
        for setting in settings:
            for variant in (bad, fixed):
                out.append(Case([rule], program, variant, setting, repeat=args.reps, epochs=args.epochs))
    return out


def selected(key, only):
    """Whether a case's key is selected by --only: it contains one of the
    comma-separated parts (all when only is empty)."""
    return not only or any(part and part in key for part in only.split(","))


def child_env():
    env = dict(os.environ)
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    env.pop("PYTORCH_ALLOC_CONF", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def run_once(case, timeout):
    """Runs one process; returns its JSON output or an error."""
    start = time.time()
    try:
        proc = subprocess.run(case.argv(), capture_output=True, text=True, timeout=timeout, env=child_env())
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout} s"}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"error": f"exit {proc.returncode}: {proc.stderr[-2000:]}"}
    out = json.loads(lines[-1])
    out["wall_s"] = time.time() - start
    return out


def median(values):
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def rounded(v):
    if isinstance(v, float):
        return float(f"{v:.4g}") if abs(v) >= 1 else round(v, 4)
    return v


def median_figures(runs):
    """The median of each figure over the runs, flattening one level of
    nesting (per-model figures); booleans must agree."""
    out = {}
    keys = []
    for r in runs:
        for k in r["figures"]:
            if k not in keys:
                keys.append(k)
    for k in keys:
        values = [r["figures"].get(k) for r in runs]
        first = next((v for v in values if v is not None), None)
        if isinstance(first, dict):
            out[k] = median_figures([{"figures": v} for v in values if v])
        elif isinstance(first, bool):
            out[k] = first if all(v == first for v in values) else "varies"
        else:
            none = sum(v is None for v in values)
            out[k] = rounded(median(values)) if none * 2 < len(values) else None
    return out


def median_trace(runs):
    traces = [r["trace"] for r in runs if r.get("trace")]
    if not traces:
        return {}
    out = {}
    for k in ("alloc_mib", "peak_mib", "reserved_mib", "rss_kib") + TRAINING_CURVES:
        series = [t[k] for t in traces if t.get(k)]
        if not series:
            continue
        n = min(len(s) for s in series)
        out[k] = [rounded(median([s[i] for s in series])) for i in range(n)]
    return out


def environment():
    proc = subprocess.run([sys.executable, os.path.join(HERE, "common.py")], capture_output=True, text=True, env=child_env())
    if proc.returncode != 0:
        return {"error": proc.stderr[-2000:]}
    return json.loads(proc.stdout)


def summarise(results):
    """Figures per rule, drawn from the cases, with the ratios the docs quote."""
    cases = results["cases"]

    def fig(key):
        return cases.get(key, {}).get("median") or {}

    def ratio(a, b):
        return rounded(a / b) if a is not None and b else None

    rules = {}
    for rule, program, situations in MEMORY_PROGRAMS:
        figures = {}
        for model in SMALL_MODELS:
            for situation in situations:
                for kind in ("bad", "fixed"):
                    f = fig(f"{program.removesuffix('.py')} {kind}_{situation} {model}")
                    figures[f"{model} {situation} {kind}"] = {k: f.get(k) for k in (
                        "gpu_mib_per_step", "gpu_budget_step", "gpu_retained_mib", "host_kib_per_step",
                        "host_budget_step", "host_retained_mib", "alloc_mib", "step_peak_mib", "max_peak_above_base_mib")}
        rules[rule] = {"program": "evidence/" + program, "plot": f"docs/evidence/{rule}.png", "figures": figures}
    for model in SMALL_MODELS:
        bad = rules["TL103"]["figures"][f"{model} retain bad"]
        fixed = rules["TL103"]["figures"][f"{model} retain fixed"]
        rules["TL103"]["figures"][f"{model} retain"] = {
            "extra_alloc_mib": rounded((bad["alloc_mib"] or 0) - (fixed["alloc_mib"] or 0)),
            "extra_peak_mib": rounded((bad["step_peak_mib"] or 0) - (fixed["step_peak_mib"] or 0)),
            "peak_ratio": ratio(bad["step_peak_mib"], fixed["step_peak_mib"]),
        }

    evals = {}
    for variant in ("bad_grad", "bad_grad_dropped", "bad_volatile", "fixed_no_grad", "fixed_inference_mode"):
        for model, f in fig(f"tl201_tl202_eval {variant} all").items():
            evals[f"{model} {variant.split('_', 1)[1]}"] = f
    for model in ("resnet50", "gpt2"):
        grad, no_grad = evals.get(f"{model} grad", {}), evals.get(f"{model} no_grad", {})
        inference, volatile = evals.get(f"{model} inference_mode", {}), evals.get(f"{model} volatile", {})
        dropped = evals.get(f"{model} grad_dropped", {})
        evals[f"{model} ratios"] = {
            "grad_peak_over_no_grad": ratio(grad.get("peak_mib"), no_grad.get("peak_mib")),
            "dropped_peak_over_no_grad": ratio(dropped.get("peak_mib"), no_grad.get("peak_mib")),
            "dropped_peak_over_grad": ratio(dropped.get("peak_mib"), grad.get("peak_mib")),
            "grad_latency_over_no_grad": ratio(grad.get("latency_ms"), no_grad.get("latency_ms")),
            "no_grad_latency_over_inference_mode": ratio(no_grad.get("latency_ms"), inference.get("latency_ms")),
            "volatile_peak_over_grad": ratio(volatile.get("peak_mib"), grad.get("peak_mib")),
            "volatile_peak_over_no_grad": ratio(volatile.get("peak_mib"), no_grad.get("peak_mib")),
        }
    for rule in ("TL201", "TL202"):
        rules[rule] = {"program": "evidence/tl201_tl202_eval.py", "plot": f"docs/evidence/{rule}.png", "figures": evals}

    cache = {v: fig(f"tl301_empty_cache {v}") for v in ("bad_every_step", "fixed_never", "fixed_per_epoch")}
    cache["ratios"] = {
        "every_step_throughput_over_never": ratio(cache["bad_every_step"].get("steps_per_s"), cache["fixed_never"].get("steps_per_s")),
        "per_epoch_throughput_over_never": ratio(cache["fixed_per_epoch"].get("steps_per_s"), cache["fixed_never"].get("steps_per_s")),
    }
    rules["TL301"] = {"program": "evidence/tl301_empty_cache.py", "plot": "docs/evidence/TL301.png", "figures": cache}

    conf = {v: fig(f"tl302_alloc_conf {v}") for v in ("bad_late", "fixed_early", "ref_unset")}
    conf["ratios"] = {
        "unset_reserved_over_early": ratio(conf["ref_unset"].get("peak_reserved_mib"), conf["fixed_early"].get("peak_reserved_mib")),
        "late_reserved_over_unset": ratio(conf["bad_late"].get("peak_reserved_mib"), conf["ref_unset"].get("peak_reserved_mib")),
    }
    rules["TL302"] = {"program": "evidence/tl302_alloc_conf.py", "plot": "docs/evidence/TL302.png", "figures": conf}

    load = {v: fig(f"tl403_load {v}") for v in ("bad_load", "fixed_load")}
    rules["TL403"] = {"program": "evidence/tl403_load.py", "plot": "docs/evidence/TL403.png", "figures": load}

    sync = {}
    for model in SYNC_MODELS:
        per = {v: fig(f"tl501_host_sync {v} {model}") for v in SYNC_VARIANTS}
        per["ratios"] = {
            "item_throughput_over_detach": ratio(per["bad_item_every_step"].get("steps_per_s"),
                                                 per["fixed_detach"].get("steps_per_s")),
            "every_50_throughput_over_detach": ratio(per["ref_item_every_50"].get("steps_per_s"),
                                                     per["fixed_detach"].get("steps_per_s")),
        }
        sync[model] = per
    rules["TL501"] = {"program": "evidence/tl501_host_sync.py", "plot": "docs/evidence/TL501.png", "figures": sync}

    for rule, program, bad, fixed, settings in TRAINING_PROGRAMS:
        stem = program.removesuffix(".py")
        per = {}
        for setting in settings:
            b, f = fig(f"{stem} {bad} {setting}"), fig(f"{stem} {fixed} {setting}")

            def gap(key, b=b, f=f):
                bm, fm = (b.get(key) or {}).get("median"), (f.get(key) or {}).get("median")
                return rounded(fm - bm) if bm is not None and fm is not None else None

            per[setting] = {"bad": b, "fixed": f, "differences": {
                "test_acc_fixed_minus_bad": gap("test_acc"),
                "test_loss_fixed_minus_bad": gap("test_loss"),
                "train_loss_fixed_minus_bad": gap("train_loss"),
            }}
        rules[rule] = {"program": "evidence/" + program, "plot": f"docs/evidence/{rule}.png", "figures": per}

    for rule, entry in rules.items():
        entry["measured_on"] = measured_on(results, rule)
    return rules


def measured_on(results, rule):
    """The GPU, PyTorch version and date of the run that measured a rule's
    cases: the latest --update that ran any of them, else the first run."""
    keys = [k for k, c in results["cases"].items() if rule in c["rules"]]
    run = {"environment": results.get("environment", {}), "date": results.get("date")}
    for update in results.get("updates", []):
        if any(selected(k, update.get("only", "")) for k in keys):
            run = update
    env = run.get("environment", {})
    return {"gpu": env.get("gpu"), "torch": env.get("torch"), "date": run.get("date")}


def run_cases(todo, args, started, parallel):
    """Runs the cases' repetitions, repetition by repetition: memory-only
    cases args.jobs at a time, timed ones one at a time."""
    runs = {c.key: [] for c in todo}

    def one(case):
        if args.deadline and time.time() - started > args.deadline:
            return case, {"error": "skipped: deadline"}
        return case, run_once(case, 540 if case.program in TRAINING_FILES else 300)

    order = [c for rep in range(args.reps) for c in todo if rep == 0 or not c.repeat]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs if parallel else 1) as pool:
        for case, out in pool.map(one, order):
            runs[case.key].append(out)
    print(f"{len(order)} runs done at {time.time() - started:.0f} s", flush=True)
    return runs


def trimmed(out):
    """A run's output without the parts of its trace that are not kept."""
    if "trace" in out:
        out = dict(out, trace={k: v for k, v in out["trace"].items() if k in ("alloc_mib", "peak_mib", "reserved_mib", "rss_kib")})
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(HERE, "..", "docs", "evidence"))
    parser.add_argument("--phase", choices=["all", "memory", "timing"], default="all",
                        help="memory: the memory-only runs, in parallel, to raw-memory.json; "
                             "timing: the timed runs, merged with --merge, to the results")
    parser.add_argument("--merge", default="", help="raw-memory.json of an earlier --phase memory")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--steps", type=int, default=300, help="steps of the small-model runs")
    parser.add_argument("--eval-steps", type=int, default=13, help="forward passes per model for TL201/TL202 (3 warmup)")
    parser.add_argument("--epoch-steps", type=int, default=25, help="steps per epoch for TL301")
    parser.add_argument("--alloc-steps", type=int, default=40, help="steps of the TL302 workload")
    parser.add_argument("--sync-steps", type=int, default=1000, help="measured steps of the small models for TL501")
    parser.add_argument("--gpt-steps", type=int, default=40, help="measured steps of GPT-2 small for TL501")
    parser.add_argument("--update", action="store_true",
                        help="keep the cases of OUT/results.json that this run (--only) does not run")
    parser.add_argument("--jobs", type=int, default=12, help="memory-only runs in parallel")
    parser.add_argument("--deadline", type=float, default=0, help="seconds after which no new run starts (0: none)")
    parser.add_argument("--epochs", type=int, default=0,
                        help="epochs of the training-step programs (0: each program's own; fewer for a smoke test)")
    parser.add_argument("--only", default="", help="run only the cases whose key contains this, or one of these "
                                                   "comma-separated parts (tl502,tl503)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    started = time.time()
    checkpoint = os.path.join(tempfile.mkdtemp(), "checkpoint.pt")
    settings = {"reps": args.reps, "steps": args.steps, "budget_gib": 1, "warmup_steps": 20,
                "eval_steps": args.eval_steps, "eval_warmup": 3, "epoch_steps": args.epoch_steps,
                "alloc_steps": args.alloc_steps, "sync_steps": args.sync_steps, "gpt_steps": args.gpt_steps,
                "parallel_jobs": args.jobs, "train_epochs": args.epochs}
    env = environment()
    print(json.dumps(env), flush=True)
    todo = [c for c in cases(args, checkpoint) if selected(c.key, args.only)]
    runs, memory_env = {}, None
    if args.phase in ("all", "memory"):
        runs.update(run_cases([c for c in todo if not c.serial], args, started, parallel=True))
        if args.phase == "memory":
            with open(os.path.join(args.out, "raw-memory.json"), "w") as f:
                json.dump({"environment": env, "settings": settings,
                           "runs": {k: [trimmed(r) for r in v] for k, v in runs.items()}}, f, separators=(",", ":"))
            return
    if args.merge:
        with open(args.merge) as f:
            raw = json.load(f)
        runs.update(raw["runs"])
        memory_env = raw["environment"]
    if args.phase in ("all", "timing"):
        if any(c.program == "tl403_load.py" for c in todo):
            saved = run_once(Case(["TL403"], "tl403_load.py", "ref_save", path=checkpoint), 300)
            settings["checkpoint_mib"] = rounded(saved.get("figures", {}).get("file_mib"))
        runs.update(run_cases([c for c in todo if c.serial], args, started, parallel=False))

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    results = {
        "date": date,
        "environment": env,
        "settings": settings,
        "cases": {},
    }
    if memory_env and memory_env != env:
        results["environment_memory_runs"] = memory_env
    traces = {}
    if args.update:
        # The cases run now replace their earlier figures; the others, and
        # the run they came from, are kept as they were.
        with open(os.path.join(args.out, "results.json")) as f:
            results = json.load(f)
        with open(os.path.join(args.out, "traces.json")) as f:
            traces = json.load(f)
        results.setdefault("updates", []).append({"date": date, "only": args.only, "environment": env,
                                                  "settings": settings})
    for case in todo:
        outs = runs.get(case.key, [])
        ok = [r for r in outs if "error" not in r]
        errors = sorted({r["error"] for r in outs if "error" in r})
        results["cases"][case.key] = {
            "rules": case.rules, "program": "evidence/" + case.program, "variant": case.variant, "model": case.model,
            "steps": case.steps, "reps": len(ok) * (case.repeat or 1), "processes": len(ok), "errors": errors,
            "median": median_figures(ok) if ok else None,
            "wall_s": rounded(median([r["wall_s"] for r in ok])) if ok else None,
        }
        traces[case.key] = median_trace(ok)
        for e in errors:
            print(f"{case.key}: {e}", file=sys.stderr, flush=True)
    earlier = results.get("rules", {})
    results["rules"] = summarise(results)
    ran = {r for c in todo for r in c.rules}
    for rule, entry in earlier.items():
        # A second run kept by compare.py stays with the figures it checked.
        if "second_run" in entry and rule in results["rules"] and rule not in ran:
            results["rules"][rule]["second_run"] = entry["second_run"]
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    with open(os.path.join(args.out, "traces.json"), "w") as f:
        json.dump(traces, f, separators=(",", ":"))
        f.write("\n")
    try:
        import plots
    except ImportError as err:
        print(f"no plots: {err}", file=sys.stderr)
        return
    # An update draws only the plots of the rules it ran.
    plots.all_plots(results, traces, args.out, {r for c in todo for r in c.rules} if args.update else None)
    print(f"done in {time.time() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
