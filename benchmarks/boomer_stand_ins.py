"""BOOMER on issue 31's stand-ins, beside MLR and the issue's other peers: the full models and
50-rule ones.

    PYTHONPATH=$PWD:$PWD/benchmarks python benchmarks/boomer_stand_ins.py \
        --boomer-python ../boomer-venv/bin/python --n-jobs 2 --out docs/boomer_stand_ins.md

Issue 31 judges MLR on sparse-label and heavy-tailed data among BR-LR, ML-kNN, ECC-LR, BOOMER
and RAkELo-DT (accuracy, F1 and ranking loss first; Hamming loss in the top two and below the
empty prediction), and its 50-rule models against BOOMER's. ``field.py``'s stand-ins for such
data (`field.SPARSE`, `field.HEAVY`) run the peers of this environment; mlr-boomer pins an older
scikit-learn than this project, so it lives in its own environment, and this script fits it
there: per fold, the training rows (min-max scaled on themselves, features constant on them
dropped, as ``fit_time.py`` and the shared peers do) and the test rows go to a fresh process of
``--boomer-python``, which fits ``BoomerClassifier(random_state=1)`` with its defaults and with
``max_rules=50`` and sends back their predictions and ``predict_proba``. The other learners run
here on the same folds (``run_experiment``); MLR-50 is ``compact(model, 50)`` of the defaults'
fit (`Compact`). Nothing here chooses a default.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from field import FIELD, HEAVY, SPARSE, heavy
from fit_time import DEFAULT_BOOMER_PYTHON, boomer_available
from sklearn.base import BaseEstimator
from sklearn.feature_selection import VarianceThreshold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler

from mlr_core import MLRClassifier
from mlr_core.compaction import compact
from mlr_core.data.synthetic import make_sparse_label_dataset
from mlr_core.evaluation.experiments import run_experiment
from mlr_core.evaluation.folds import read_fold_file, stratified_folds
from mlr_core.evaluation.learners import make_learner
from mlr_core.evaluation.measures import LOWER_IS_BETTER, evaluate
from mlr_core.evaluation.statistics import rank_table
from mlr_core.evaluation.tables import markdown

PEERS = ("BR-LR", "MLkNN", "ECC-LR", "RAkELo-DT")
"""Issue 31's peers that run in this environment; BOOMER is the fifth."""
BUDGET = 50
MEASURES = ("hamming_loss", "accuracy", "f1", "one_error", "ranking_loss")
BOOMERS = {"BOOMER": None, f"BOOMER-{BUDGET}": BUDGET}
"""BOOMER's runs by name: its ``max_rules`` (None: its default)."""

WORKER = """
import json, sys
import numpy as np
from mlrl.boosting import BoomerClassifier
data, out = np.load(sys.argv[1]), {}
for name, budget in json.loads(sys.argv[3]).items():
    model = BoomerClassifier(random_state=1, **({} if budget is None else {"max_rules": budget}))
    model.fit(data["X"], data["Y"])
    labels, scores = model.predict(data["Xt"]), model.predict_proba(data["Xt"])
    out[name + ":labels"] = labels.toarray() if hasattr(labels, "toarray") else labels
    out[name + ":scores"] = scores.toarray() if hasattr(scores, "toarray") else scores
np.savez(sys.argv[2], **out)
"""
"""Fits `BOOMERS` (argv: the fold's ``.npz``, the answers' ``.npz``, `BOOMERS` as JSON)."""


def stand_ins(names, n_folds):
    """(datasets, their first ``n_folds`` folds) by name: `field.SPARSE` on 5 stratified folds,
    `field.HEAVY` on the fixed folds of the dataset each comes from."""
    data, folds = {}, {}
    for name in names:
        if name in HEAVY:
            data[name] = heavy(name)
            folds[name] = read_fold_file(FIELD / "folds" / f"{HEAVY[name][0]}.json",
                                         data[name].Y)
        else:
            data[name] = make_sparse_label_dataset(name=name, **SPARSE[name])
            folds[name] = stratified_folds(data[name].Y, 5, random_state=0)
        folds[name] = folds[name][:n_folds]
    return data, folds


def boomer_fold(python, X, Y, train, test, folder) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """BOOMER's runs on one fold, fitted in a fresh process of ``python``: name -> (labels,
    scores) of the test rows."""
    scale = make_pipeline(VarianceThreshold(), MinMaxScaler()).fit(X[train])
    inputs, outputs = Path(folder) / "fold.npz", Path(folder) / "out.npz"
    np.savez(inputs, X=scale.transform(X[train]), Y=np.asarray(Y[train], dtype=np.uint8),
             Xt=scale.transform(X[test]))
    subprocess.run([str(python), "-c", WORKER, str(inputs), str(outputs), json.dumps(BOOMERS)],
                   check=True, cwd=folder)
    found = np.load(outputs)
    return {name: (found[f"{name}:labels"], found[f"{name}:scores"]) for name in BOOMERS}


def run_boomer(python, data, folds) -> pd.DataFrame:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, d in data.items():
            Y = np.asarray(d.Y)
            for k, (train, test) in enumerate(folds[name]):
                for learner, (labels, scores) in boomer_fold(python, d.X, Y, train, test,
                                                             folder).items():
                    rows.append({"learner": learner, "dataset": name, "fold": k,
                                 **evaluate(Y[test], labels, scores)})
                print(f"  BOOMER: {name} fold {k}", flush=True)
    return pd.DataFrame(rows)


class Compact(BaseEstimator):
    """The defaults' compact model of ``max_rules`` rules: its own labels and its own scores
    (``compact.CompactPath`` shares the full model's scores, which its report does not use)."""

    def __init__(self, max_rules=BUDGET, random_state=0):
        self.max_rules = max_rules
        self.random_state = random_state

    def fit(self, X, Y):
        self.model_ = compact(MLRClassifier(random_state=self.random_state).fit(X, Y),
                              self.max_rules)
        return self

    def predict(self, X):
        return self.model_.predict(X)

    def predict_proba(self, X):
        return self.model_.predict_proba(X)


def run_here(data, folds, n_jobs) -> pd.DataFrame:
    learners = {"MLR": MLRClassifier(random_state=0), f"MLR-{BUDGET}": Compact(),
                **{name: make_learner(name, 0) for name in PEERS}}
    return run_experiment(learners, data, folds, n_jobs=n_jobs)


def report(results: pd.DataFrame, density: dict[str, float], command: str) -> str:
    means = results.groupby(["learner", "dataset"], sort=False)[list(MEASURES)].mean()
    datasets = list(dict.fromkeys(results.dataset))
    ran = set(results.learner)
    full = [x for x in (*PEERS, "BOOMER", "MLR") if x in ran]
    parts = ["# BOOMER on the stand-ins (issue 31)", f"Command: `{command}`. " + __doc__.split(
        "\n\n", 2)[2].replace("\n", " ").strip(), ""]
    for measure in MEASURES:
        table = means[measure].unstack()[datasets]
        ranks = rank_table(table.loc[full], measure in LOWER_IS_BETTER)
        rows = {}
        for learner in (*full, *(x for x in (f"BOOMER-{BUDGET}", f"MLR-{BUDGET}") if x in ran)):
            ranked = learner in full
            rows[learner] = [f"{table.loc[learner, d]:.4f}"
                             + (f" ({ranks.loc[learner, d]:g})" if ranked else "")
                             for d in datasets]
            rows[learner].append(f"{ranks.loc[learner, 'avg_rank']:.2f}" if ranked else "")
        if measure == "hamming_loss":
            rows["empty prediction (= density)"] = [f"{density[d]:.4f}" for d in datasets] + [""]
        cells = pd.DataFrame.from_dict(rows, orient="index", columns=[*datasets, "avg rank"])
        cells.index.name = "learner"
        direction = "lower" if measure in LOWER_IS_BETTER else "higher"
        parts += [f"## {measure} ({direction} is better; ranks among the full models)",
                  markdown(cells), ""]
    if "BOOMER" not in ran:
        return "\n".join([*parts, "BOOMER not run: no `--boomer-python` that imports "
                           "mlrl.boosting."]) + "\n"
    ours, theirs = means.loc[f"MLR-{BUDGET}"], means.loc[f"BOOMER-{BUDGET}"]
    ahead = [d for d in datasets if ours.loc[d, "accuracy"] > theirs.loc[d, "accuracy"]]
    parts += [f"**{BUDGET} rules:** MLR-{BUDGET} mean accuracy "
              f"{ours['accuracy'].mean():.4f} against BOOMER-{BUDGET}'s "
              f"{theirs['accuracy'].mean():.4f}; ahead on {len(ahead)} of {len(datasets)} "
              f"({', '.join(ahead) or 'none'})."]
    return "\n".join(parts) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=[*SPARSE, *HEAVY],
                        choices=[*SPARSE, *HEAVY])
    parser.add_argument("--boomer-python", type=Path, default=DEFAULT_BOOMER_PYTHON)
    parser.add_argument("--folds", type=int, default=5, help="the first N folds")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    data, folds = stand_ins(args.datasets, args.folds)
    found = run_here(data, folds, args.n_jobs)
    if boomer_available(args.boomer_python):
        found = pd.concat([found, run_boomer(args.boomer_python, data, folds)],
                          ignore_index=True)
    density = {name: float(np.mean([np.asarray(d.Y)[test].mean() for _, test in folds[name]]))
               for name, d in data.items()}
    command = "python benchmarks/boomer_stand_ins.py " + " ".join(sys.argv[1:])
    text = report(found, density, command)
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
