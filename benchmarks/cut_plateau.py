"""The cut chosen at the middle of its tuning curve's plateau, against the best cut on that curve.

With ``plateau_rows=0`` the cut is the candidate with the best guarded accuracy on the training
rows' leave-one-out scores (``mlr_core/bipartition.py``, ``tune``). On a few hundred tuning rows
that curve is flat to within a row or two over several thresholds and then falls off a cliff,
and the argmax may sit on the cliff's edge (genbase, fold 0: the best at 0.80, 1.3 rows' worth
better than 0.75 and 13 better than 0.85). This re-cuts each fold's own fit offline with
``mlr_core.bipartition.plateau_middle`` (``MLRClassifier(plateau_rows=k)``): among the
candidates of the best one's kind (and floor) whose target is within ``k`` tuning rows' worth of
the best (``k / n`` of the target, n the tuning rows), the middle of the contiguous run of
thresholds around the best. Nothing is refitted: every cut reads the same scores. Printed per
dataset: wrong label cells, Hamming loss, accuracy and F1 of each cut (``raw`` is the best cut,
``plateau_rows=0``, the default before), then the five's average Hamming-loss, accuracy and F1
ranks among the peers of ``../shared/field/peers.csv`` per seed, computed as ``field.py``
computes them.

    PYTHONPATH=$PWD:$PWD/benchmarks python benchmarks/cut_plateau.py --seeds 0 1 2 3 4 --n-jobs 2
    PYTHONPATH=$PWD:$PWD/benchmarks python benchmarks/cut_plateau.py --datasets slashdot ohsumed \
        mediamill sparse-12 sparse-30 sparse-100 emotions-exp slashdot-counts
"""

from __future__ import annotations

import argparse
import os
import time

import field
import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from mlr_core import MLRClassifier, bipartition
from mlr_core.data.synthetic import make_sparse_label_dataset
from mlr_core.evaluation import measures
from mlr_core.evaluation.folds import read_fold_file, stratified_folds
from mlr_core.training_session import TrainingSession


def dataset_and_folds(name):
    """A dataset of ``field.py`` (the five, the scale panel or a stand-in) and its folds."""
    if name in field.SPARSE:
        data = make_sparse_label_dataset(name=name, **field.SPARSE[name])
        return data, stratified_folds(data.Y, 5, random_state=0)
    data = field.heavy(name) if name in field.HEAVY else field.load(name)
    source = field.HEAVY[name][0] if name in field.HEAVY else name
    return data, read_fold_file(field.FIELD / "folds" / f"{source}.json", data.Y)


def fitted_fold(name, k, seed):
    """The defaults with the best cut (``plateau_rows=0``) fitted on fold k: the tuning rows'
    scores and labels, the candidate cuts, and the test rows' scores and labels."""
    data, folds = dataset_and_folds(name)
    train, test = folds[k]
    X, Y = np.asarray(data.X), np.asarray(data.Y)
    model = MLRClassifier(random_state=seed, plateau_rows=0)
    session = TrainingSession(model).fit(X[train], Y[train])
    scores, truth = session.tuning_scores()
    return dict(name=name, seed=seed, scores=scores, truth=truth,
                options=session.cut_options(), cut=model.bipartition_,
                test_scores=model.predict_proba(X[test]), test_truth=Y[test])


def recut(fold, tolerances) -> list[dict]:
    """Each cut's test measures on one fold: the best one's (``raw``) and each tolerance's."""
    truth = fold["truth"]
    values = np.array([bipartition.guarded_accuracy(truth, bipartition.apply(fold["scores"], o))
                       for o in fold["options"]])
    cuts = {"raw": fold["options"][int(np.argmax(values))]}
    assert cuts["raw"] == fold["cut"], "the re-cut does not reproduce the best cut"
    worth = bipartition.row_worth(bipartition.guarded_accuracy, truth)
    cuts |= {f"k={k:g}": bipartition.plateau_middle(fold["options"], values, k * worth)
             for k in tolerances}
    rows = []
    for how, cut in cuts.items():
        pred = bipartition.apply(fold["test_scores"], cut).astype(np.uint8)
        Y = fold["test_truth"]
        rows.append(dict(dataset=fold["name"], seed=fold["seed"], cut=how,
                         wrong=int((pred != Y).sum()),
                         hamming_loss=measures.hamming_loss(Y, pred),
                         accuracy=measures.accuracy(Y, pred), f1=measures.f1(Y, pred)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(field.FIVE))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    parser.add_argument("--tolerances", nargs="+", type=float, default=[5, 8],
                        help="plateaus within this many tuning rows' worth of the best")
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    start, load = time.perf_counter(), os.getloadavg()[0]
    folds = Parallel(n_jobs=args.n_jobs)(
        delayed(fitted_fold)(name, k, seed) for seed in args.seeds for name in args.datasets
        for k in range(5))
    results = pd.DataFrame([row for fold in folds for row in recut(fold, args.tolerances)])
    means = results.groupby(["dataset", "seed", "cut"], sort=False).agg(
        wrong=("wrong", "sum"), hamming_loss=("hamming_loss", "mean"),
        accuracy=("accuracy", "mean"), f1=("f1", "mean"))
    print(means.round(4).to_string())
    five = [name for name in field.FIVE if name in args.datasets]
    if len(five) == len(field.FIVE):
        peers = field.peers()
        mates = field.peers_on(peers, five)
        print("\nThe five's average ranks among", len(mates), "peers (Hamming loss, accuracy, "
              "F1):")
        for (seed, cut), frame in means.reset_index().groupby(["seed", "cut"], sort=False):
            mine = frame.assign(learner=cut)[["learner", "dataset", "hamming_loss", "accuracy",
                                              "f1"]]
            both = pd.concat([peers[peers.dataset.isin(five)], mine], ignore_index=True)
            ranks = [field.ranks_among(both, m, cut, mates, five).loc[cut, "avg_rank"]
                     for m in ("hamming_loss", "accuracy", "f1")]
            print(f"  seed {seed}, {cut:5}: " + ", ".join(f"{r:.2f}" for r in ranks))
    print(f"\n{len(folds)} fits in {time.perf_counter() - start:.0f} s, load {load:.1f} to "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
