"""Where a fit's time goes: each step of the training cycle, the rule weights and the bipartition.

    python benchmarks/profile_fit.py                          # yeast, N = 1,000 and 3,000
    python benchmarks/profile_fit.py --datasets flags genbase --sizes 1000 --n-iter 50000
    python benchmarks/profile_fit.py --quick                  # flags, N = 1,000, 5,000 iterations

It fits on the training part of fold 0 of the shared folds (``../shared/field/folds``). A fit is
``start`` (bind the data), the training cycle (``n_iter`` iterations of the compiled
kernel) and ``tune_bipartition`` (the match matrix, the ridge fit of the rule weights with its
leave-one-out scores, the choice of cut). The cycle is one compiled kernel, opaque to sampling
profilers, so it counts CPU cycles per step itself (``mlr_core/_engine/clock.py``); the rest
is timed around its Python calls. Kernels are compiled (or loaded from the cache) on a throw-away
model first. Everything runs on one thread (numba's and BLAS's pools held to one) and is timed in
process CPU seconds, which other processes sharing the cores hardly move; the cycle counter
counts wall cycles, so the cycle's CPU seconds are split between its steps in the proportions it
counted. The machine's load average is printed beside the figures.
"""

import argparse
import os
import time
from pathlib import Path

import numba
import numpy as np
from threadpoolctl import threadpool_limits

from mlr_core import MLRClassifier, TrainingSession, load_dataset
from mlr_core._engine.clock import STEPS, new_clock
from mlr_core._engine.matching import match_matrix
from mlr_core.evaluation.folds import read_fold_file
from mlr_core.rule_weights import fit_rule_weights, fitting_rows

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATA = SHARED / "datasets"
CHUNKS = 20  # the cycle runs in this many calls, so its cost can be followed over the run


def timed(call):
    """The call's result and its process CPU seconds."""
    began = time.process_time()
    result = call()
    return result, time.process_time() - began


def profile(X, Y, n_rules, n_iter, seed):
    """CPU seconds per part of one fit of the defaults (``n_rules`` given), and the cost per
    iteration over the run."""
    model = MLRClassifier(n_rules=n_rules, n_iter=n_iter, random_state=seed)
    session = TrainingSession(model)
    _, start_s = timed(lambda: session.start(X, Y))
    run = model.run_
    clock = new_clock()
    chunk_us = []
    for size in np.diff(np.linspace(0, n_iter, CHUNKS + 1).astype(int)):
        _, s = timed(lambda size=size: run.learn(int(size), clock=clock))
        chunk_us.append(1e6 * s / max(int(size), 1))
    cycle_s = sum(chunk_us) * n_iter / CHUNKS / 1e6
    rows = fitting_rows(len(run.y_ids), seed=run.iteration)
    A, matrix_s = timed(lambda: match_matrix(run.population, run.X[rows]))
    truth = run.truth()[rows]
    (_, loo), weights_s = timed(lambda: fit_rule_weights(A, truth))
    _, cut_s = timed(lambda: session.bipartition_for(model.target, loo, truth))
    parts = {f"cycle: {name}": cycle_s * c / clock.sum() for name, c in zip(STEPS, clock,
                                                                           strict=True)}
    parts.update({"start (bind, first tune)": start_s, "weights: match matrix": matrix_s,
                  "weights: ridge + leave-one-out": weights_s, "bipartition": cut_s})
    summary = run.summary()
    return parts, chunk_us, summary, A.shape


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["yeast"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[1000, 3000])
    parser.add_argument("--n-iter", type=int, default=150_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true",
                        help="flags, N = 1,000, 5,000 iterations: a smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.datasets, args.sizes, args.n_iter = ["flags"], [1000], 5000
    numba.set_num_threads(1)
    threadpool_limits(1)
    warm = load_dataset(DATA / "flags.arff")
    MLRClassifier(n_rules=100, n_iter=500, random_state=0).fit(warm.X, warm.Y)
    model = TrainingSession(MLRClassifier(n_rules=100, random_state=0)).start(warm.X, warm.Y).model
    model.run_.learn(10, clock=new_clock())
    print(f"one thread (numba and BLAS); load average {os.getloadavg()[0]:.1f}")
    for name in args.datasets:
        data = load_dataset(DATA / f"{name}.arff")
        train, _ = read_fold_file(SHARED / "field" / "folds" / f"{name}.json", data.Y)[0]
        X, Y = data.X[train], data.Y[train]
        for n_rules in args.sizes:
            parts, chunk_us, summary, shape = profile(X, Y, n_rules, args.n_iter, args.seed)
            total = sum(parts.values())
            print(f"\n{name}, fold 0 ({X.shape[0]} x {X.shape[1]}, {Y.shape[1]} labels),"
                  f" N = {n_rules}, {args.n_iter:,} iterations: {total:.2f} s; rules at the "
                  f"end {summary['macro_size']} macro / {summary['micro_size']} micro; "
                  f"match matrix {shape[0]} x {shape[1]}; load {os.getloadavg()[0]:.1f}")
            for part, seconds in parts.items():
                print(f"  {part:40} {seconds:8.3f} s  {100 * seconds / total:5.1f}%")
            print(f"  us per iteration, first / middle / last twentieth: {chunk_us[0]:.1f} / "
                  f"{chunk_us[len(chunk_us) // 2]:.1f} / {chunk_us[-1]:.1f}")


if __name__ == "__main__":
    main()
