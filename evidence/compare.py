"""Compares two runs of the same training-step cases (TL502 to TL506) and
keeps the second run's figures beside the first's in its results file.

    python3 evidence/compare.py docs/evidence/results.json OTHER/results.json --rules TL502,TL503

For every setting and variant of the rules named, it prints each final
figure's median in both runs and whether each run's median lies within
the other's range over the seeds (minimum to maximum). With --keep, it
writes the other run's figures to rules[CODE]["second_run"] of the first
file, with the GPU, PyTorch version and date they were measured on, so
that a doc can quote both runs.
"""
import argparse
import json

FIGURES = ("test_acc", "test_loss", "train_loss", "best_test_acc", "first_epoch_test_acc")


def within(value, spread):
    return value is not None and spread.get("min") is not None and spread["min"] <= value <= spread["max"]


def compare(first, second, rules):
    """Rows (rule, setting, variant, figure, median 1, median 2, agree)."""
    rows = []
    for rule in rules:
        a, b = first["rules"][rule]["figures"], second["rules"][rule]["figures"]
        for setting in a:
            for variant in ("bad", "fixed"):
                fa, fb = a[setting].get(variant) or {}, (b.get(setting) or {}).get(variant) or {}
                for key in FIGURES:
                    sa, sb = fa.get(key), fb.get(key)
                    if not sa or not sb:
                        continue
                    agree = within(sa["median"], sb) and within(sb["median"], sa)
                    rows.append((rule, setting, variant, key, sa["median"], sb["median"], agree))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("other")
    parser.add_argument("--rules", default="TL502,TL503,TL504,TL505,TL506")
    parser.add_argument("--keep", action="store_true", help="write the other run's figures into RESULTS")
    args = parser.parse_args()
    with open(args.results) as f:
        first = json.load(f)
    with open(args.other) as f:
        second = json.load(f)
    rules = [r for r in args.rules.split(",") if r]
    for rule, setting, variant, key, m1, m2, agree in compare(first, second, rules):
        print(f"{rule} {setting:10s} {variant:5s} {key:20s} {m1:>8} {m2:>8} {'within' if agree else 'OUTSIDE'}")
    if args.keep:
        for rule in rules:
            entry = second["rules"][rule]
            first["rules"][rule]["second_run"] = {"measured_on": entry.get("measured_on"), "figures": entry["figures"]}
        with open(args.results, "w") as f:
            json.dump(first, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
