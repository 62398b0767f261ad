"""MLR's defaults on synthetic data shaped like other domains, ranked with the peers of the field.

    python benchmarks/other_domains.py                 # 3 folds each, prints Markdown
    python benchmarks/other_domains.py --out docs/other_domains.md --n-jobs 2
    python benchmarks/other_domains.py --quick         # 300 rows, 2 folds, BR-LR: a smoke test

The five shared datasets are all small and mostly dense; the defaults must also hold on text
(about a thousand sparse binary word features, 45-53 labels) and images (dense features). These
generators make such data without downloading anything, so that a default can be checked for
generalising before it is trusted (none of MLR's defaults was chosen on them):

- ``text_like``: 1,500 documents, 1,200 binary words (about 2% present), 45 labels with 1-3
  topics per document (30% also get a partner topic); each label has 25 indicative words present
  with probability 0.25, every word appears by chance with probability 0.01.
- ``image_like``: 1,500 rows, 200 dense features from 10 latent factors through tanh plus noise,
  6 labels that are thresholded linear functions of the factors.

Every learner runs through the experiment runner
(:func:`mlr_core.evaluation.experiments.run_experiment`) on the same 3 stratified folds, features
min-max scaled on the training fold: the peers of ``../shared/field`` that run here (binary
relevance, ML-kNN, ECC, RAkEL; BOOMER when installed) and MLR's configurations. Prints, per
measure, the fold means with ranks and the average rank over the two datasets.
"""

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from mlr_core import MLRClassifier
from mlr_core.data.loaders import Dataset
from mlr_core.evaluation.experiments import run_experiment
from mlr_core.evaluation.learners import available_learners, make_learner
from mlr_core.evaluation.measures import LOWER_IS_BETTER
from mlr_core.evaluation.statistics import rank_table
from mlr_core.evaluation.tables import markdown


def text_like(n=1500, d=1200, m=45, seed=1):
    rng = np.random.default_rng(seed)
    popularity = rng.dirichlet(np.full(m, 0.5))
    partner = rng.permutation(m)
    Y = np.zeros((n, m), dtype=np.uint8)
    for i in range(n):
        topics = rng.choice(m, size=rng.choice([1, 1, 2, 2, 3]), replace=False, p=popularity)
        Y[i, topics] = 1
        if rng.random() < 0.3:
            Y[i, partner[topics[0]]] = 1
    p = np.full((n, d), 0.01)
    for j in range(m):
        p[np.ix_(Y[:, j] == 1, rng.choice(d, 25, replace=False))] = 0.25
    return (rng.random((n, d)) < p).astype(float), Y


def image_like(n=1500, d=200, m=6, seed=1):
    rng = np.random.default_rng(seed)
    factors = rng.normal(size=(n, 10))
    X = np.tanh(factors @ rng.normal(size=(10, d)) / 3) + 0.3 * rng.normal(size=(n, d))
    Y = (factors @ rng.normal(size=(10, m)) + 0.5 * rng.normal(size=(n, m))) > 1.0
    return X, Y.astype(np.uint8)


PEERS = ("BR-LR", "MLkNN", "ECC-LR", "ECC-DT", "RAkELo-DT", "BOOMER")
CONFIGS = {"MLR vote": dict(weighting="vote"), "MLR defaults": {}}
MEASURES = ("hamming_loss", "accuracy", "f1", "micro_f1")


def datasets(n=1500) -> dict[str, Dataset]:
    found = {}
    for name, make in (("text_like", text_like), ("image_like", image_like)):
        X, Y = make(n=n)
        found[name] = Dataset(X=X, Y=Y, feature_names=[f"x{i}" for i in range(X.shape[1])],
                              label_names=[f"y{j}" for j in range(Y.shape[1])], name=name)
    return found


def report(results: pd.DataFrame, seconds: float) -> str:
    means = results.drop(columns="fold").groupby(["learner", "dataset"], sort=False).mean()
    learners = list(dict.fromkeys(results.learner))
    parts = [f"# MLR on data shaped like other domains\n\nCommand: `python "
             f"benchmarks/other_domains.py` ({results.fold.nunique()} stratified folds, "
             f"{len(results)} fits in {seconds:.0f} s). Rank among the {len(learners)} learners, "
             "1 = best."]
    for measure in (*MEASURES, "fit_seconds"):
        values = means[measure].unstack()[list(dict.fromkeys(results.dataset))]
        values = values.reindex(learners)
        if measure == "fit_seconds":
            parts += ["## fit seconds per fold", markdown(values.round(1))]
            continue
        ranks = rank_table(values, measure in LOWER_IS_BETTER)
        cells = pd.DataFrame({d: [f"{v:.4f} ({r:g})" for v, r in
                                  zip(values[d], ranks[d], strict=True)]
                              for d in values.columns}, index=values.index)
        cells["avg rank"] = ranks.avg_rank.map("{:.2f}".format)
        parts += [f"## {measure}", markdown(cells)]
    return "\n\n".join(parts) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n-jobs", type=int, default=1, help="joblib workers (-1: all cores)")
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    parser.add_argument("--quick", action="store_true",
                        help="300 rows, 2 folds, one peer (BR-LR), 5,000 iterations: a smoke test")
    args = parser.parse_args(argv)
    peers = PEERS[:1] if args.quick else PEERS
    learners = {name: make_learner(name, 0) for name in peers if name in available_learners()}
    quick = {"n_iter": 5000} if args.quick else {}
    learners.update({name: MLRClassifier(random_state=0, **params, **quick)
                     for name, params in CONFIGS.items()})
    start = time.perf_counter()
    results = run_experiment(learners, datasets(300 if args.quick else 1500),
                             folds=2 if args.quick else 3, n_jobs=args.n_jobs)
    text = report(results, time.perf_counter() - start)
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
