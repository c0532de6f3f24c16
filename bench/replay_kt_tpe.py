#!/usr/bin/python3
"""Optuna's TPE on a space Kernel Tuner recorded, replayed as `tune replay
--kernel-tuner` replays grid, random and the joint search: the same seeds'
draws and drift (served by `tune replay --kernel-tuner FILE --serve`), each
measurement one kernel process costing the configuration's recorded compile
plus benchmark time, until the budget is spent (the measurement that crosses
it counts). Per seed, one TPE study (a categorical over each parameter's
values; a configuration recorded as failing, or excluded by the record's
restrictions at no cost, is an infeasible trial) runs through the budgets in
turn; at each, its best trial's configuration is judged by its recorded time
over the best recorded. An invalid configuration is an infeasible trial
(TPESampler's constraints_func), told a value worse than any measured: as a
failed trial TPE ignores it and, past its startup trials, asks for the same
excluded configuration again and again (on convolution_A100, seed 0: 10
valid configurations, then 2,990 excluded ones in a row). A configuration TPE asks for again is measured again
(and paid for), as every strategy's is. Prints the rows of `tune replay
--kernel-tuner`'s table (strategy tpe), or with --format json its objects.

usage: bench/replay_kt_tpe.py [--tune PATH] [--seeds N] [--drift PCT]
                              [--budgets LIST] [--format table|json] FILE
Needs python3-optuna (Debian)."""
import argparse
import json
import math
import subprocess
import sys
import warnings

import optuna
from optuna.distributions import CategoricalDistribution
from optuna.trial import TrialState

# What an infeasible trial is told: worse than any time measured (ms).
INVALID_VALUE = 1e12


def quantile(v, q):
    """v sorted: interpolated between order statistics, as tune's replay."""
    h = (len(v) - 1) * q
    lo = int(h)
    f = h - lo
    if lo + 1 >= len(v) or f == 0:
        return v[lo]
    if math.isinf(v[lo + 1]):
        return math.inf
    return v[lo] + f * (v[lo + 1] - v[lo])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--tune", default="tune")
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--drift", default="10")
    ap.add_argument("--budgets", default="0.2,0.5,1,2,5")
    ap.add_argument("--format", choices=("table", "json"), default="table")
    a = ap.parse_args()
    budgets = sorted(float(b) / 100 for b in a.budgets.split(","))
    server = subprocess.Popen([a.tune, "replay", "--kernel-tuner", a.file, "--drift", a.drift, "--serve"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(line):
        server.stdin.write(line + "\n")
        server.stdin.flush()
        answer = server.stdout.readline().strip()
        if not answer or answer.startswith("error"):
            sys.exit("tune replay --serve: %s -> %s" % (line, answer or "no answer (see its message above)"))
        return answer

    space = json.loads(ask("space"))
    dists = {p["name"]: CategoricalDistribution(p["values"]) for p in space["params"]}
    names = [p["name"] for p in space["params"]]
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
    ratios = {b: [] for b in budgets}
    counts = {b: [0, 0, 0] for b in budgets}  # measured, failed, excluded: per budget, over seeds
    for seed in range(a.seeds):
        ask("seed %d" % seed)
        sampler = optuna.samplers.TPESampler(seed=seed, constraints_func=lambda t: [t.user_attrs["invalid"]])
        study = optuna.create_study(direction="minimize", sampler=sampler)
        spent, free, n = 0.0, 0, [0, 0, 0]
        for b in budgets:
            while spent < b * space["total_ms"] and free <= 4 * space["points"]:
                trial = study.ask(dists)
                answer = ask("measure " + ",".join(trial.params[k] for k in names)).split()
                cost = float(answer[1])
                spent += cost
                free += cost <= 0
                invalid = answer[0] == "invalid"
                trial.set_user_attr("invalid", 1.0 if invalid else 0.0)
                if invalid:
                    n[1 if cost > 0 else 2] += 1
                    study.tell(trial, INVALID_VALUE)
                else:
                    n[0] += 1
                    study.tell(trial, float(answer[0]))
            done = [t for t in study.trials if t.state == TrialState.COMPLETE and not t.user_attrs["invalid"]]
            if done:
                best = min(done, key=lambda t: t.value)
                ratios[b].append(float(ask("judge " + ",".join(best.params[k] for k in names))))
            else:
                ratios[b].append(math.inf)
            for k in range(3):
                counts[b][k] += n[k]
        if a.seeds >= 20 and seed % 10 == 9:
            print("tpe: %d of %d seeds" % (seed + 1, a.seeds), file=sys.stderr)
    server.stdin.close()
    server.wait()
    rows = []
    for b in budgets:
        v = sorted(ratios[b])
        rows.append({"strategy": "tpe", "budget_fraction": b, "drift_pct": float(a.drift), "seeds": a.seeds,
                     "median_ratio": quantile(v, 0.5), "p90_ratio": quantile(v, 0.9),
                     "within_5pct": sum(r <= 1.05 for r in v) / len(v),
                     "ratios": [r if math.isfinite(r) else None for r in ratios[b]],
                     "counts": [c / a.seeds for c in counts[b]]})
    if a.format == "json":
        for r in rows:
            del r["counts"]
            for k in ("median_ratio", "p90_ratio"):
                r[k] = r[k] if math.isfinite(r[k]) else None
        print(json.dumps(rows, indent=2))
        return
    print("Optuna %s TPE on '%s': %d seeds, drift %s%% per measurement" % (optuna.__version__, a.file, a.seeds,
                                                                         a.drift))
    print("%-9s %7s %9s %7s %9s %8s %8s %10s" % ("strategy", "budget", "measured", "failed", "excluded", "median",
                                                 "p90", "within 5%"))
    for r in rows:
        print("%-9s %6g%% %9.1f %7.1f %9.1f %8.3f %8.3f %9.0f%%"
              % (r["strategy"], 100 * r["budget_fraction"], r["counts"][0], r["counts"][1], r["counts"][2],
                 r["median_ratio"], r["p90_ratio"], 100 * r["within_5pct"]))


if __name__ == "__main__":
    main()
