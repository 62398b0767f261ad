"""MLR against the field: our configurations on the shared fixed folds, ranked with nine peers.

    python benchmarks/field.py                       # defaults + ablation, 5 datasets x 5 folds
    python benchmarks/field.py --configs "MLR defaults" --datasets yeast flags --n-jobs 2
    python benchmarks/field.py --out docs/field.md   # the committed report (notes kept)

Runs each MLR configuration below through the experiment runner
(:func:`mlr_core.evaluation.experiments.run_experiment`) on the folds in
``../shared/field/folds`` (their label hashes are checked), then ranks each configuration, one at
a time, among the nine learners measured on the same folds (``../shared/field/peers.csv``): ten
learners per table, as ``../shared/field/README.md`` prescribes. Prints, per measure, the peers'
and the MLR defaults' values with ranks and the average rank; the ablation (what each step did on
each dataset); Hamming loss, accuracy and F1 against the best peer; and fit seconds per fold.

Then the sparse stand-ins (`SPARSE`): data made by
:func:`mlr_core.data.synthetic.make_sparse_label_dataset` with label density 0.03-0.09 and weak
features, on which predicting no label is a strong baseline. No peer results exist for them, so
the peers that run here (`SPARSE_PEERS`, BOOMER when ``mlrl-boomer`` is importable) run on the
same 5 stratified folds beside `SPARSE_CONFIGS`; the table gives the empty prediction's Hamming
loss (the label density of the test folds) with them.
"""

import argparse
import time
from pathlib import Path

import pandas as pd

from mlr_core import MLRClassifier, load_dataset
from mlr_core.data.synthetic import make_sparse_label_dataset
from mlr_core.evaluation.experiments import (
    markdown,
    read_fold_file,
    run_experiment,
    stratified_folds,
)
from mlr_core.evaluation.learners import available_learners, make_learner
from mlr_core.evaluation.measures import LOWER_IS_BETTER
from mlr_core.evaluation.statistics import rank_table

REPO = Path(__file__).resolve().parents[1]
FIELD = REPO.parent / "shared" / "field"
DATA = REPO.parent / "shared" / "datasets"
DATASETS = ("yeast", "emotions", "flags", "cal500", "genbase")
MEASURES = ("hamming_loss", "accuracy", "f1", "micro_f1", "macro_f1", "one_error",
            "ranking_loss", "subset_accuracy")
NOTES = "\n<!-- notes: written by hand, kept when the tables above are regenerated -->\n"

CONFIGS = {
    "MLR before": dict(n_rules=1000, n_iter=50_000, target="f1", weighting="vote"),
    "+ capacity": dict(n_iter=150_000, target="f1", weighting="vote"),
    "+ tuned for accuracy": dict(n_iter=150_000, weighting="vote", target="accuracy"),
    "+ fitted rule weights": dict(n_iter=150_000, max_specified=11, target="accuracy"),
    "+ 3 features per rule": dict(n_iter=150_000, target="accuracy"),
    "+ balanced cut": dict(n_iter=150_000, target="balanced"),
    "+ guarded cut": dict(n_iter=150_000),
    "MLR defaults": dict(),
    "option: target=hamming_loss": dict(target="hamming_loss"),
}
"""The ablation, one step at a time, ending at the defaults, then an option in its own row.
``MLR before``: the defaults this benchmark started from (N = 1000, 50,000 iterations, the
paper's vote, bipartition tuned for F1 on the training rows); ``+ capacity``: ``n_rules="auto"``
and 150,000 iterations; ``+ tuned for accuracy``: the bipartition tuned for accuracy
(``target="accuracy"``); ``+ fitted rule weights``: also ``weighting="fitted"`` (bipartition
tuned on leave-one-out scores) with the vote's specificity limit (ceil(log2 n_train) is 8 to 11
on these sets: 11); ``+ 3 features per rule``: ``max_specified="auto"``, 3 with fitted
weights; ``+ balanced cut``: ``target="balanced"`` (accuracy minus 3 x Hamming loss, the
default before); ``+ guarded cut``: ``target="guarded"`` instead (accuracy minus Hamming loss
over the label density, among cuts that beat predicting no label); ``MLR defaults``: also
``n_iter="auto"`` (training stops when the population stops improving, ``mlr_core/stopping.py``)
instead of 150,000 iterations; the option tunes the bipartition for Hamming loss instead."""

SPARSE = {
    "sparse-12": dict(n_labels=12, cardinality=1.1, random_state=1),
    "sparse-30": dict(n_labels=30, cardinality=1.8, random_state=2),
    "sparse-100": dict(n_labels=100, cardinality=3.0, random_state=3),
}
"""Stand-ins for protein-function and text collections: 1,500 rows, 300 features of which each
label shifts 10 by 0.2-0.8 noise standard deviations (the generator's defaults); label density
0.09, 0.06 and 0.03. Never used to choose a default."""
SPARSE_CONFIGS = ("+ balanced cut", "MLR defaults", "option: target=hamming_loss")
SPARSE_PEERS = ("BR-LR", "MLkNN", "ECC-LR", "ECC-DT", "RAkELo-DT", "BOOMER")


def run(configs, datasets, n_jobs, seed=0):
    data = {name: load_dataset(DATA / f"{name}.arff") for name in datasets}
    folds = {name: read_fold_file(FIELD / "folds" / f"{name}.json", d.Y)
             for name, d in data.items()}
    learners = {name: MLRClassifier(random_state=seed, **CONFIGS[name]) for name in configs}
    return run_experiment(learners, data, folds, n_jobs=n_jobs)


def run_sparse(configs, datasets, n_jobs, seed=0):
    """The peers that run here and ``configs`` on the sparse stand-ins (5 stratified folds)."""
    data = {name: make_sparse_label_dataset(name=name, **SPARSE[name]) for name in datasets}
    folds = {name: stratified_folds(d.Y, 5, random_state=0) for name, d in data.items()}
    learners = {name: make_learner(name, seed) for name in SPARSE_PEERS
                if name in available_learners()}
    learners.update({name: MLRClassifier(random_state=seed, **CONFIGS[name])
                     for name in configs})
    results = run_experiment(learners, data, folds, n_jobs=n_jobs)
    density = {(name, k): data[name].Y[test].mean() for name in data
               for k, (_, test) in enumerate(folds[name])}
    keys = zip(results.dataset, results.fold, strict=True)
    return results.assign(density=[density[key] for key in keys])


def sparse_report(results: pd.DataFrame) -> list[str]:
    """The sparse stand-ins: every learner's Hamming loss, accuracy and F1 with the empty
    prediction's Hamming loss, and the MLR defaults against it and the best peer."""
    means = results.drop(columns="fold").groupby(["learner", "dataset"], sort=False).mean()
    learners = list(dict.fromkeys(results.learner))
    datasets = list(dict.fromkeys(results.dataset))
    peer_names = [name for name in learners if name in SPARSE_PEERS]
    density = means.density.groupby("dataset", sort=False).first()
    parts = ["## Sparse stand-ins: predicting nothing as the baseline",
             "`make_sparse_label_dataset` with " + "; ".join(
                 f"`{name}`: {SPARSE[name]['n_labels']} labels, cardinality "
                 f"{SPARSE[name]['cardinality']}" for name in datasets)
             + " (1,500 rows, 300 weak features; 5 stratified folds). Peers run here: "
             + ", ".join(peer_names) + ". Rank among the peers and that row's learner."]
    for measure in ("hamming_loss", "accuracy", "f1"):
        values = means[measure].unstack()[datasets].reindex(learners)
        lower = measure in LOWER_IS_BETTER
        cells = pd.DataFrame(index=learners, columns=datasets, dtype=object)
        for name in learners:
            mates = list(dict.fromkeys([*peer_names, name]))
            ranks = rank_table(values.loc[mates], lower)
            cells.loc[name] = [f"{values.loc[name, d]:.4f} ({ranks.loc[name, d]:g})"
                               for d in datasets]
        if measure == "hamming_loss":
            cells.loc["empty prediction (= density)"] = [f"{density[d]:.4f}" for d in datasets]
        direction = "lower" if lower else "higher"
        parts += [f"### {measure} ({direction} is better)", markdown(cells)]
    shown, rows = "MLR defaults", []
    for d in datasets:
        peer = means.loc[peer_names].xs(d, level="dataset")
        best = peer.hamming_loss.idxmin()
        row = {"dataset": d, "density": f"{density[d]:.4f}"}
        for config in (c for c in SPARSE_CONFIGS if (c, d) in means.index):
            row[f"HL {config}"] = f"{means.loc[(config, d), 'hamming_loss']:.4f}"
        row["HL best peer"] = f"{peer.hamming_loss.min():.4f} {best}"
        if (shown, d) in means.index:
            mine = means.loc[(shown, d)]
            row["defaults - density"] = f"{mine.hamming_loss - density[d]:+.4f}"
            row["defaults - best peer"] = f"{mine.hamming_loss - peer.hamming_loss.min():+.4f}"
            row["accuracy defaults / best peer"] = (f"{mine.accuracy:.4f} / "
                                                    f"{peer.accuracy.max():.4f}")
        rows.append(row)
    parts += ["### Hamming loss against predicting nothing and the best peer",
              markdown(pd.DataFrame(rows).set_index("dataset"))]
    return parts


def peers() -> pd.DataFrame:
    return pd.read_csv(FIELD / "peers.csv").rename(columns={"algorithm": "learner",
                                                            "rank_loss": "ranking_loss"})


def table(means: pd.DataFrame, measure: str, learners) -> pd.DataFrame:
    """learners x datasets of one measure's fold means."""
    frame = means[means.learner.isin(learners)].pivot(index="learner", columns="dataset",
                                                      values=measure)
    return frame.reindex(index=list(learners), columns=[d for d in DATASETS
                                                       if d in frame.columns])


def ranks_among_peers(means, measure, config, peer_names):
    """The rank table of one MLR configuration among the peers (ten learners)."""
    return rank_table(table(means, measure, [*peer_names, config]),
                      measure in LOWER_IS_BETTER)


def report(results: pd.DataFrame, sparse: pd.DataFrame | None, seconds: float) -> str:
    field = peers()
    peer_names = list(dict.fromkeys(field.learner))
    configs = list(dict.fromkeys(results.learner))
    datasets = list(dict.fromkeys(results.dataset))
    mine = results.drop(columns="fold").groupby(["learner", "dataset"], sort=False).mean()
    means = pd.concat([field[field.dataset.isin(datasets)],
                       mine.reset_index()], ignore_index=True)
    shown = "MLR defaults" if "MLR defaults" in configs else configs[-1]
    fits = len(results) + (0 if sparse is None else len(sparse))
    parts = [
        "# MLR in the field",
        f"Command: `python benchmarks/field.py` ({results.fold.nunique()} folds per dataset, "
        f"the fixed folds of `../shared/field/folds`, {fits} fits in {seconds:.0f} s, "
        "the sparse stand-ins included). "
        "Peers: `../shared/field/peers.csv` (same folds). Each MLR configuration is ranked "
        "among the nine peers on its own (ten learners); 1 = best, ties share the mean rank.",
        "## Average rank among the 10 learners",
    ]
    avg = pd.DataFrame({m: {c: ranks_among_peers(means, m, c, peer_names).loc[c, "avg_rank"]
                            for c in configs} for m in MEASURES})
    parts.append(markdown(avg.round(2)))
    for measure in MEASURES:
        ranks = ranks_among_peers(means, measure, shown, peer_names)
        values = table(means, measure, [*peer_names, shown])
        cells = pd.DataFrame({d: [f"{v:.4f} ({r:g})" for v, r in
                                  zip(values[d], ranks[d], strict=True)] for d in values.columns},
                             index=values.index)
        cells["avg rank"] = ranks.avg_rank.map("{:.2f}".format)
        direction = "lower" if measure in LOWER_IS_BETTER else "higher"
        parts += [f"## {measure} ({direction} is better), {shown}", markdown(cells)]
    parts += ["## Ablation: each configuration per dataset (HL / accuracy / F1)"]
    rows = {}
    for config in configs:
        rows[config] = {d: " / ".join(f"{mine.loc[(config, d), m]:.4f}"
                                      for m in ("hamming_loss", "accuracy", "f1"))
                        for d in datasets}
    parts.append(markdown(pd.DataFrame(rows).T))
    best = []
    for d in datasets:
        p = field[field.dataset == d].set_index("learner")
        row = {"dataset": d}
        for m in ("hamming_loss", "accuracy", "f1"):
            pick = p[m].idxmin() if m in LOWER_IS_BETTER else p[m].idxmax()
            row[f"{m} MLR"] = f"{mine.loc[(shown, d), m]:.4f}"
            row[f"{m} best peer"] = f"{p.loc[pick, m]:.4f} {pick}"
        row["HL gap"] = f"{mine.loc[(shown, d), 'hamming_loss'] - p.hamming_loss.min():+.4f}"
        best.append(row)
    parts += [f"## {shown} against the best peer per measure",
              markdown(pd.DataFrame(best).set_index("dataset"))]
    fit = results.groupby(["learner", "dataset"], sort=False).fit_seconds.agg(["mean", "max"])
    fit = fit.apply(lambda r: f"{r['mean']:.1f} (max {r['max']:.1f})", axis=1).unstack()
    parts += ["## Fit seconds per fold: mean (max)",
              markdown(fit.reindex(index=configs, columns=datasets))]
    if sparse is not None:
        parts += sparse_report(sparse)
    return "\n\n".join(parts) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS),
                        metavar="NAME", help=f"any of: {', '.join(CONFIGS)}")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--sparse", nargs="*", default=list(SPARSE), choices=list(SPARSE),
                        help="sparse stand-ins to run (none with a bare --sparse)")
    parser.add_argument("--n-jobs", type=int, default=1, help="joblib workers (-1: all cores)")
    parser.add_argument("--seed", type=int, default=0, help="MLR's random_state")
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    parser.add_argument("--csv", type=Path, default=None, help="write the per-fold results")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = run(args.configs, args.datasets, args.n_jobs, args.seed)
    sparse = None
    if args.sparse:
        configs = [name for name in SPARSE_CONFIGS if name in args.configs]
        sparse = run_sparse(configs, args.sparse, args.n_jobs, args.seed)
    text = report(results, sparse, time.perf_counter() - start)
    print(text)
    if args.out:  # keep the hand-written notes below NOTES in an existing report
        old = args.out.read_text() if args.out.is_file() else ""
        args.out.write_text(text + (NOTES + old.split(NOTES, 1)[1] if NOTES in old else ""))
    if args.csv:
        pd.concat([results, sparse], ignore_index=True).to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
