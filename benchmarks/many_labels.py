"""Fit time on few rows and many labels, and the share of it the weights' second stage takes
(issue 33: 20 rows x 50,000 labels took 32.6 s to fit, 96% of it in `calibration.calibrate`).

    python benchmarks/many_labels.py                       # 20 rows x 50,000 labels, both cases
    python benchmarks/many_labels.py --rows 20 --labels 5000 --cases sparse

Two label matrices on the same features (`make_sparse_label_dataset`'s 300 noise features):

- ``sparse``: that generator's labels, 1.5 per row drawn by a Dirichlet popularity: on 20 rows
  all but a few dozen labels never occur, so nearly every label is constant there;
- ``dense``: each label present with probability 0.05 on each row: about a third of the labels
  constant on 20 rows, two thirds to be fitted.

Each case fits ``MLRClassifier(random_state=0)`` once in this process after a throw-away fit on
50 of the labels (it loads the libraries and compiled code), timing ``fit`` in wall-clock and
process CPU seconds and the CPU seconds spent in ``calibrate`` (wrapped where the training
session calls it); "without" is the fit's CPU seconds less those, the fit as it was before the
second stage. CPU seconds are the fair figure on a shared machine; the load average is printed.
Making the sparse labels takes a while (the generator draws a partner per label): untimed.
"""

import argparse
import os
import time

import numpy as np

import mlr_core.training_session as session
from mlr_core import MLRClassifier
from mlr_core.data.synthetic import make_sparse_label_dataset


def label_cases(rows: int, labels: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    data = make_sparse_label_dataset(n_samples=rows, n_labels=labels, random_state=0)
    dense = (np.random.default_rng(0).random((rows, labels)) < 0.05).astype(np.uint8)
    return data.X, {"sparse": data.Y, "dense": dense}


def timed_fit(X: np.ndarray, Y: np.ndarray) -> tuple[float, float, float, str]:
    """Wall and CPU seconds of one fit, the CPU seconds of its calibration, the link kept."""
    calibrate, spent = session.calibrate, []

    def calibrate_timed(*args, **kwargs):
        began = time.process_time()
        result = calibrate(*args, **kwargs)
        spent.append(time.process_time() - began)
        return result

    session.calibrate = calibrate_timed
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        model = MLRClassifier(random_state=0).fit(X, Y)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        session.calibrate = calibrate
    return wall, cpu, sum(spent), model.rule_set_.scorer.link


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--labels", type=int, default=50_000)
    parser.add_argument("--cases", nargs="+", default=["sparse", "dense"])
    args = parser.parse_args()
    X, cases = label_cases(args.rows, args.labels)
    MLRClassifier(random_state=0).fit(X, cases["dense"][:, :50])  # loads and compiles: untimed
    print(f"{args.rows} rows x {args.labels:,} labels, load average "
          f"{', '.join(f'{v:.1f}' for v in os.getloadavg())} (CPU seconds; wall in brackets)")
    print(f"{'labels':<8}{'constant':>10}{'fit':>16}{'calibrate':>11}{'without':>9}"
          f"{'fit / without':>15}   link kept")
    for name in args.cases:
        Y = cases[name]
        positives = Y.sum(axis=0)
        constant = int(np.count_nonzero((positives == 0) | (positives == len(Y))))
        wall, cpu, calibrating, link = timed_fit(X, Y)
        without = cpu - calibrating
        print(f"{name:<8}{constant:>10,}{cpu:>8.2f} ({wall:5.1f}){calibrating:>11.2f}"
              f"{without:>9.2f}{cpu / without:>14.2f}x   {link}")


if __name__ == "__main__":
    main()
