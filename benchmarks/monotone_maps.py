"""Does MLR's model depend on a feature's units? (issue 31): fold 0 of the shared folds, fitted
on the features as they are and after a strictly increasing map of every feature, in one process.

    python benchmarks/monotone_maps.py                          # yeast and emotions, both axes
    python benchmarks/monotone_maps.py --datasets yeast --axes rank --folds 0 1

The maps, of u, a value's min-max position in its training column (test values keep their
position beyond [0, 1]): ``exp``, x -> exp(8u), and ``pow6``, x -> max(u, 0) ** 6 (a value below
the training range then maps to the range's start, where both axes clip it anyway). A learner that
sees only the order of a feature's values splits the training rows the same way after either.
Per dataset, axis and map: accuracy and ranking loss before and after, and the share of predicted
label cells (rows x labels of the test fold) that stay the same. The issue's targets: |accuracy
change| <= 0.01, |ranking-loss change| <= 0.005, at least 97% of cells unchanged.
"""

import argparse
import os
import time

import numpy as np
import pandas as pd
from field import FIELD, load

from mlr_core import MLRClassifier
from mlr_core.evaluation.folds import read_fold_file
from mlr_core.evaluation.measures import accuracy, ranking_loss
from mlr_core.evaluation.tables import markdown
from mlr_core.params import PAPER_AXIS

MAPS = {
    "exp": lambda u: np.exp(8.0 * u),
    "pow6": lambda u: np.maximum(u, 0.0) ** 6,
}


def mapped(train, test, how):
    """``train`` and ``test`` after map ``how`` of each value's min-max position in train."""
    low = train.min(axis=0)
    span = np.where(train.max(axis=0) > low, train.max(axis=0) - low, 1.0)
    return MAPS[how]((train - low) / span), MAPS[how]((test - low) / span)


AXES = {"rank": {}, "minmax": PAPER_AXIS}
"""The defaults (the rank axis) and the paper's min-max axis with its covering width."""


def measure(X_train, Y_train, X_test, Y_test, axis, seed):
    model = MLRClassifier(random_state=seed, **AXES[axis]).fit(X_train, Y_train)
    labels, scores = model.predict(X_test), model.predict_proba(X_test)
    return labels, accuracy(Y_test, labels), ranking_loss(Y_test, scores)


def run(datasets, axes, folds, seed):
    rows = []
    for name in datasets:
        data = load(name)
        every = read_fold_file(FIELD / "folds" / f"{name}.json", data.Y)
        for k in folds:
            train, test = every[k]
            X_train, X_test = data.X[train], data.X[test]
            Y_train, Y_test = data.Y[train], data.Y[test]
            for axis in axes:
                base, acc, rl = measure(X_train, Y_train, X_test, Y_test, axis, seed)
                for how in MAPS:
                    M_train, M_test = mapped(X_train, X_test, how)
                    labels, acc_m, rl_m = measure(M_train, Y_train, M_test, Y_test, axis, seed)
                    rows.append(dict(dataset=name, fold=k, axis=axis, map=how, accuracy=acc,
                                     accuracy_mapped=acc_m, ranking_loss=rl,
                                     ranking_loss_mapped=rl_m,
                                     cells_same=float(np.mean(labels == base))))
    frame = pd.DataFrame(rows)
    frame["accuracy_change"] = frame.accuracy_mapped - frame.accuracy
    frame["ranking_loss_change"] = frame.ranking_loss_mapped - frame.ranking_loss
    return frame


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["yeast", "emotions"])
    parser.add_argument("--axes", nargs="+", default=["rank", "minmax"],
                        choices=list(AXES))
    parser.add_argument("--folds", nargs="+", type=int, default=[0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start, load_before = time.perf_counter(), os.getloadavg()[0]
    frame = run(args.datasets, args.axes, args.folds, args.seed)
    print(markdown(frame.set_index("dataset").round(4)))
    print(f"\n{time.perf_counter() - start:.0f} s; load average {load_before:.1f} -> "
          f"{os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
