"""Missing values, natively: MLR on rows with 20% of their feature cells missing, against MLR
after mean imputation and against BOOMER on the same rows.

    python benchmarks/missing_values.py                          # the five + the scale panel
    python benchmarks/missing_values.py --folds 0 --datasets flags emotions
    /work/boomervenv/bin/python benchmarks/missing_values.py     # with BOOMER, in one process

On the shared folds (``../shared/field/folds``), each fold's train and test feature cells are
made missing at random (`mlr_core.missing.with_missing`, ``--share`` of them, seeded by the
dataset and the fold), then: ``MLR native`` fits and predicts on the rows with their NaN
(the library's default, ``missing="typical"``: a missing value reads as its feature's typical
training value); ``MLR native (fail)`` the same with ``missing="fail"`` (a test on a missing
value fails); ``MLR imputed`` on the rows after scikit-learn's ``SimpleImputer`` (mean of the
training column, learned on the training part only);
``BOOMER`` (when ``mlrl-boomer`` imports) on the
rows with their NaN, which it handles natively. ``MLR complete`` is MLR on the same fold
without missing cells, for scale. Prints accuracy (Jaccard) and Hamming loss per dataset and
fold, their means, and fit seconds. ``docs/missing_values.md`` holds the results.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline

from mlr_core import MLRClassifier, load_dataset
from mlr_core.evaluation.folds import read_fold_file
from mlr_core.evaluation.learners import available_learners, make_learner
from mlr_core.evaluation.measures import accuracy, hamming_loss
from mlr_core.evaluation.tables import markdown
from mlr_core.missing import with_missing

REPO = Path(__file__).resolve().parents[1]
FIELD = REPO.parent / "shared" / "field"
DATA = REPO.parent / "shared" / "datasets"
DATASETS = ("yeast", "emotions", "flags", "cal500", "genbase", "slashdot", "ohsumed",
            "mediamill")
FILES = {"mediamill": "mediamill_small"}


def learners(seed: int, boomer: bool) -> dict:
    """The contenders, each a factory of a fresh estimator and whether it sees the holes."""
    out = {
        "MLR complete": (lambda: MLRClassifier(random_state=seed), False),
        "MLR native": (lambda: MLRClassifier(random_state=seed), True),
        "MLR native (fail)": (lambda: MLRClassifier(random_state=seed, missing="fail"), True),
        "MLR imputed": (lambda: make_pipeline(SimpleImputer(strategy="mean",
                                                            keep_empty_features=True),
                                              MLRClassifier(random_state=seed)), True),
    }
    if boomer:
        out["BOOMER"] = (lambda: make_learner("BOOMER", seed), True)
    return out


def run(datasets, folds, share, seed, names) -> pd.DataFrame:
    rows = []
    boomer = "BOOMER" in available_learners()
    for name in datasets:
        data = load_dataset(DATA / f"{FILES.get(name, name)}.arff")
        every = read_fold_file(FIELD / "folds" / f"{name}.json", data.Y)
        for k in folds:
            train, test = every[k]
            holed = with_missing(data.X, share, seed=hash_of(name, k, seed))
            for learner, (make, sees_holes) in learners(seed, boomer).items():
                if names and learner not in names:
                    continue
                X = holed if sees_holes else data.X
                model = make()
                start = time.process_time()
                model.fit(X[train], data.Y[train])
                fit_seconds = time.process_time() - start
                predicted = np.asarray(model.predict(X[test]))
                rows.append({"dataset": name, "fold": k, "learner": learner,
                             "accuracy": accuracy(data.Y[test], predicted),
                             "hamming_loss": hamming_loss(data.Y[test], predicted),
                             "fit CPU s": fit_seconds})
                print(f"{name} fold {k} {learner}: accuracy {rows[-1]['accuracy']:.4f}, "
                      f"Hamming loss {rows[-1]['hamming_loss']:.4f}, fit {fit_seconds:.1f} s",
                      flush=True)
    return pd.DataFrame(rows)


def hash_of(name: str, fold: int, seed: int) -> int:
    """The seed of a dataset's and fold's holes: the same in every run and process."""
    return seed * 1_000_003 + fold * 1009 + sum(map(ord, name)) * 17


def report(results: pd.DataFrame, share: float) -> list[str]:
    lines = [f"## {share:.0%} of feature cells missing at random (train and test)", ""]
    for measure in ("accuracy", "hamming_loss", "fit CPU s"):
        table = results.pivot_table(index="dataset", columns="learner", values=measure,
                                    aggfunc="mean", sort=False)
        table.loc["mean"] = table.mean()
        lines += [f"### {measure} (mean over the folds run)", "", markdown(table.round(4)), ""]
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--folds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--share", type=float, default=0.2, help="cells made missing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--learners", nargs="+", default=None,
                        help="only these (MLR complete, MLR native, MLR native (fail), "
                        "MLR imputed, BOOMER)")
    parser.add_argument("--csv", default=None, help="also write the per-fold rows here")
    args = parser.parse_args(argv)
    results = run(args.datasets, args.folds, args.share, args.seed, args.learners)
    if args.csv:
        results.to_csv(args.csv, index=False)
    print("\n".join(report(results, args.share)))
    print(f"python {Path(sys.argv[0]).name} {' '.join(sys.argv[1:])}; "
          f"BOOMER {'run' if 'BOOMER' in available_learners() else 'not importable here'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
