"""Training speed of two or more checkouts of this repository, alternated in one run.

    git worktree add /tmp/wt-base 21fff53
    python benchmarks/versions_ab.py base=/tmp/wt-base branch=. --rounds 3
    python benchmarks/versions_ab.py base=/tmp/wt-base branch=. --dataset genbase --n-iter 30000

Each round fits, for each checkout in turn, in a fresh process with that checkout first on the
path, MLR's defaults (``n_rules`` given) on the training part of fold 0 of the shared folds
(``../shared/field/folds``) and times ``n_iter`` training iterations (``learn``, one thread, in
process CPU seconds, which other processes sharing the cores move less than wall time), then
the same iterations again with the per-step cycle counter (``_engine/clock.py``) to split that
time between the cycle's steps. The checkouts alternate, round after round, so that all see the
same load; the machine's load average is printed before and after. Kernels are loaded (or
compiled) on a throw-away fit first.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
TAG = "VERSIONS-AB "

WORKER = """
import json, sys, time
import numba
from threadpoolctl import threadpool_limits
numba.set_num_threads(1)
threadpool_limits(1)
from mlr_core import MLRClassifier, TrainingSession, load_dataset
from mlr_core._engine.clock import STEPS, new_clock
from mlr_core.evaluation.folds import read_fold_file
shared, name, n_rules, n_iter = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
warm = load_dataset(shared + "/datasets/flags.arff")
run = TrainingSession(MLRClassifier(n_rules=100, random_state=0)).start_untuned(
    warm.X, warm.Y).model.run_
run.learn(300)
run.learn(10, clock=new_clock())
data = load_dataset(shared + "/datasets/" + name + ".arff")
train, _ = read_fold_file(shared + "/field/folds/" + name + ".json", data.Y)[0]
out = {}
for clock in (None, new_clock()):
    model = MLRClassifier(n_rules=n_rules, random_state=0)
    TrainingSession(model).start_untuned(data.X[train], data.Y[train])
    began = time.process_time()
    model.run_.learn(n_iter, clock=clock)
    seconds = time.process_time() - began
    if clock is None:
        out["us_per_iteration"] = 1e6 * seconds / n_iter
    else:
        out["steps_s"] = {s: seconds * c / clock.sum() for s, c in zip(STEPS, clock)}
print("TAG" + json.dumps(out))
""".replace("TAG", TAG)


def one_fit(checkout: Path, args) -> dict:
    """The worker's figures for one fit of ``checkout``."""
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(SHARED), args.dataset, str(args.n_rules),
         str(args.n_iter)],
        cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout), "NUMBA_NUM_THREADS": "1"},
        capture_output=True, text=True, check=True)
    line = next(x for x in done.stdout.splitlines() if x.startswith(TAG))
    return json.loads(line[len(TAG):])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", nargs="+", help="name=path of a checkout of this repo")
    parser.add_argument("--dataset", default="yeast")
    parser.add_argument("--n-rules", type=int, default=1000)
    parser.add_argument("--n-iter", type=int, default=60_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    checkouts = {name: Path(path).resolve()
                 for name, path in (c.split("=", 1) for c in args.checkouts)}
    print(f"{args.dataset}, fold 0, N = {args.n_rules}, {args.n_iter:,} iterations; "
          f"load average before {os.getloadavg()[0]:.1f}")
    results = {name: [] for name in checkouts}
    for round_ in range(args.rounds):
        for name, path in checkouts.items():
            fit = one_fit(path, args)
            results[name].append(fit)
            steps = ", ".join(f"{s} {v:.2f}" for s, v in fit["steps_s"].items())
            print(f"round {round_}: {name:10} {fit['us_per_iteration']:6.2f} us/iteration "
                  f"(steps, CPU s: {steps})", flush=True)
    print(f"load average after {os.getloadavg()[0]:.1f}")
    for name, fits in results.items():
        us = [f["us_per_iteration"] for f in fits]
        ga = [f["steps_s"]["ga"] for f in fits]
        print(f"{name:10} median {statistics.median(us):.2f} us/iteration of "
              f"{', '.join(f'{u:.2f}' for u in us)}; GA step median {statistics.median(ga):.3f} s")


if __name__ == "__main__":
    main()
