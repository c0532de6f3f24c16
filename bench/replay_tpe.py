#!/usr/bin/python3
"""Optuna's TPE on the replay's objective: the same recorded runs and drift as
`tune replay`, each measurement one kernel process (a median of the sweep's
runs drawn at that g), served by `tune replay --serve`. For each seed a TPE
study of n trials picks its best g; `judge` says whether it lies in the
plateau. Prints, per budget, how often TPE's choice is in the plateau, with
g sampled on a linear scale (Optuna's default) and on a log scale (as the
adaptive search walks g).

usage: bench/replay_tpe.py TUNE SWEEP RECORDED BRIDGE DB G_MIN G_MAX SEEDS DRIFT_PCT BUDGET...
Needs python3-optuna (Debian)."""
import subprocess
import sys

import optuna


def main():
    tune, sweep, recorded, bridge, db = sys.argv[1:6]
    g_min, g_max, seeds = int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
    drift, budgets = sys.argv[9], [int(b) for b in sys.argv[10:]]
    cmd = [tune, "replay", sweep, "--from", recorded, "--db", db, "--drift", drift, "--serve"]
    if bridge != "-":
        cmd[5:5] = ["--bridge", bridge]
    server = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(line):
        server.stdin.write(line + "\n")
        server.stdin.flush()
        answer = server.stdout.readline().strip()
        if not answer or answer.startswith("error"):
            sys.exit("tune replay --serve: %s -> %s" % (line, answer or "no answer"))
        return answer

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    for log in (False, True):
        hits = {b: 0 for b in budgets}
        by_median = {b: 0 for b in budgets}
        for seed in range(seeds):
            ask("seed %d" % seed)
            study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
            done = 0
            for budget in sorted(budgets):
                study.optimize(lambda t: float(ask("measure %d" % t.suggest_int("g", g_min, g_max, log=log))),
                               n_trials=budget - done)
                done = budget
                verdict = ask("judge %d" % study.best_params["g"]).split()
                hits[budget] += verdict[0] == "in"
                by_median[budget] += verdict[1] == "in"
        print("Optuna TPE (%s), g in [%d, %d] on a %s scale, %d seeds, drift %s%% per measurement:"
              % (optuna.__version__, g_min, g_max, "log" if log else "linear", seeds, drift))
        print("%-8s %16s %10s" % ("trials", "in plateau", "by median"))
        for b in sorted(budgets):
            print("%-8d %9.0f%% (%d/%d) %9.0f%%"
                  % (b, 100.0 * hits[b] / seeds, hits[b], seeds, 100.0 * by_median[b] / seeds))
    server.stdin.close()
    server.wait()


if __name__ == "__main__":
    main()
