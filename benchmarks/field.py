"""MLR against the field: our configurations on the shared fixed folds, ranked with the peers.

    python benchmarks/field.py                       # everything: 8 datasets x 5 folds
    python benchmarks/field.py --configs "MLR defaults" --datasets yeast flags --n-jobs 2
    python benchmarks/field.py --datasets slashdot ohsumed mediamill --folds 0 1 --sparse
    python benchmarks/field.py --out docs/field.md   # the committed report (notes kept)

Runs each MLR configuration below through the experiment runner
(:func:`mlr_core.evaluation.experiments.run_experiment`) on the folds in
``../shared/field/folds`` (their label hashes are checked), then ranks each configuration, one at
a time, among the learners measured on the same folds (``../shared/field/peers.csv``), as
``../shared/field/README.md`` prescribes: on the five paper datasets (`FIVE`) among nine peers
(ten learners per table); on the scale panel (`SCALE`: larger, sparser text and video data)
among the three peers run there; over all the datasets run, among the peers run on every one of
them. Prints, per measure (the bipartition measures and the threshold-free one-error and ranking
loss), the peers' and the MLR defaults' values with ranks and the average rank, with the label
density (the empty prediction's Hamming loss) beside the Hamming loss; each target's own cut
against the others' (`CUTS`); the ablation on the five (what each step did on each dataset);
Hamming loss, accuracy and F1 against the best peer; and fit seconds per fold.

The cuts (`CUTS`, the defaults among them) are one fit per fold, cut for each ``target``
(`EachCut`); the ablation's other configurations run on the five only.

Then the sparse stand-ins (`SPARSE`): data made by
:func:`mlr_core.data.synthetic.make_sparse_label_dataset` with label density 0.03-0.09 and weak
features, on which predicting no label is a strong baseline. No peer results exist for them, so
the peers that run here (`SPARSE_PEERS`, BOOMER when ``mlrl-boomer`` is importable) run on the
same 5 stratified folds beside `SPARSE_CONFIGS`; the table gives the empty prediction's Hamming
loss (the label density of the test folds) with them.
"""

import argparse
import os
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator

from mlr_core import MLRClassifier, load_dataset
from mlr_core import bipartition as bp
from mlr_core.data.synthetic import make_sparse_label_dataset
from mlr_core.evaluation.experiments import SharedFit, run_experiment
from mlr_core.evaluation.folds import read_fold_file, stratified_folds
from mlr_core.evaluation.learners import available_learners, make_learner
from mlr_core.evaluation.measures import LOWER_IS_BETTER
from mlr_core.evaluation.statistics import rank_table
from mlr_core.evaluation.tables import markdown
from mlr_core.params import PAPER_AXIS
from mlr_core.training_session import TrainingSession

REPO = Path(__file__).resolve().parents[1]
FIELD = REPO.parent / "shared" / "field"
DATA = REPO.parent / "shared" / "datasets"
FIVE = ("yeast", "emotions", "flags", "cal500", "genbase")
SCALE = ("slashdot", "ohsumed", "mediamill")
DATASETS = FIVE + SCALE
FILES = {"mediamill": "mediamill_small"}
"""Data files whose name is not the dataset's (as the fold files and ``peers.csv`` name it)."""
MEASURES = ("hamming_loss", "accuracy", "f1", "micro_f1", "macro_f1", "subset_accuracy",
            "one_error", "ranking_loss")
"""The bipartition measures, then the threshold-free ones (from the scores alone)."""
NOTES = "\n<!-- notes: written by hand, kept when the tables above are regenerated -->\n"

ABLATION = {name: {**PAPER_AXIS, "plateau_rows": 0, **params} for name, params in {
    "MLR before": dict(n_rules=1000, n_iter=50_000, target="f1", weighting="vote"),
    "+ capacity": dict(n_iter=150_000, target="f1", weighting="vote"),
    "+ tuned for accuracy": dict(n_iter=150_000, weighting="vote", target="accuracy"),
    "+ fitted rule weights": dict(n_iter=150_000, max_specified=11, target="accuracy"),
    "+ 3 features per rule": dict(n_iter=150_000, target="accuracy"),
    "+ balanced cut": dict(n_iter=150_000, target="balanced"),
    "+ guarded cut": dict(n_iter=150_000),
}.items()}
"""The ablation, one step at a time, ending one step before the defaults (run on `FIVE` only).
``MLR before``: the defaults this benchmark started from (N = 1000, 50,000 iterations, the
paper's vote, bipartition tuned for F1 on the training rows); ``+ capacity``: ``n_rules="auto"``
and 150,000 iterations; ``+ tuned for accuracy``: the bipartition tuned for accuracy
(``target="accuracy"``); ``+ fitted rule weights``: also ``weighting="fitted"`` (bipartition
tuned on leave-one-out scores) with the vote's specificity limit (ceil(log2 n_train) is 8 to 11
on these sets: 11); ``+ 3 features per rule``: ``max_specified="auto"``, 3 with fitted
weights; ``+ balanced cut``: ``target="balanced"`` (accuracy minus 3 x Hamming loss, the
default before); ``+ guarded cut``: ``target="guarded"`` instead (accuracy minus Hamming loss
over the label density, among cuts that beat predicting no label); then ``MLR defaults`` (in
`CUTS`): also ``n_iter="auto"`` (training stops when the population stops improving,
``mlr_core/stopping.py``) instead of 150,000 iterations, the rank axis (issue 31) and the cut at
its plateau's middle; every step before it is on the paper's min-max axis (`PAPER_AXIS`) and
cuts at the best point of its tuning curve (``plateau_rows=0``)."""

CUTS = {"MLR defaults": "guarded", **{f"cut: {target}": target for target in bp.TARGETS
                                      if target != "guarded"},
        "cut: top_unless_empty": "guarded top_unless_empty"}
"""The defaults and every other ``target`` of the estimator, each a row: the same fit per fold
(`EachCut`), its bipartition tuned for that target (``"target bipartition"``: with that
``bipartition`` parameter, else ``"auto"``), on every dataset. ``cut: top_unless_empty``: the
threshold or the best label, never an empty row where no training row is empty
(``bipartition="top_unless_empty"``, issue 31)."""
PER_LABEL = {"what-if: per-label cut for hamming_loss": "hamming_loss",
             "what-if: per-label cut for macro_f1": "macro_f1"}
"""Cuts the estimator does not offer (its cut is one rule for all labels), measured to see whether
they should be: one threshold per label, each the best of `bipartition.THRESHOLDS` and "never"
for that label's errors (the Hamming loss is their sum) or its F1 (macro-F1 is their mean), on
the leave-one-out scores the targets' cuts are tuned on (`per_label_thresholds`)."""
VARIANTS = {"axis: min-max (paper)": dict(PAPER_AXIS), "axis: rank, r0 0.5": dict(r0=0.5),
            "cut: best (plateau 0)": dict(plateau_rows=0)}
"""Other settings of the defaults, each its own fit, on every dataset: ``axis: min-max (paper)``
learns on each feature's training range with the paper's covering width (``axis="minmax",
r0=0.5``, the defaults before issue 31), against the defaults' rank axis (each feature's
order, ``r0=0.75``); ``axis: rank, r0 0.5`` is the rank axis with the paper's narrower intervals
(``docs/order_axis.md``: an interval of side 0.5 holds about 83% of a yeast column's rows on the
min-max axis, 43% on the rank axis); ``cut: best (plateau 0)`` cuts at the best point of the
tuning curve (``plateau_rows=0``, the default before), not the middle of its plateau
(``docs/field.md``, "The cut at its plateau's middle")."""
CONFIGS = (*ABLATION, *CUTS, *VARIANTS, *PER_LABEL)


def per_label_thresholds(scores, truth, measure) -> np.ndarray:
    """Per label, the threshold of `bipartition.THRESHOLDS` or infinity (the label never
    predicted) whose labels score best on that label alone by ``bipartition.TARGETS[measure]``;
    on ties the highest, which predicts the fewest labels."""
    grid = np.append(bp.THRESHOLDS, np.inf)[::-1]
    score = bp.TARGETS[measure]
    return np.array([grid[np.argmax([score(truth[:, [j]], (scores[:, [j]] >= t).astype(np.uint8))
                                     for t in grid])] for j in range(truth.shape[1])])


class EachCut(BaseEstimator):
    """``MLRClassifier(random_state=...)`` fitted once, its bipartition tuned for each of
    ``targets`` (``"t"`` or ``"t b"``, b a ``bipartition`` other than ``"auto"``): the fit does
    not depend on ``target`` or ``bipartition``, only the cut tuned after it, so each cut is
    what ``MLRClassifier(target=t, bipartition=b)`` predicts, at the cost of one fit and one
    more weight fit instead of one fit per cut. ``predict(X, cut=t)`` cuts by target t's;
    ``cut="per-label " + measure`` by `per_label_thresholds` for each measure of ``per_label``.

    The cuts are tuned on the estimator's own leave-one-out scores
    (`TrainingSession.tuning_scores`, one more weight fit)."""

    def __init__(self, random_state=0, targets=("guarded",), per_label=()):
        self.random_state = random_state
        self.targets = targets
        self.per_label = per_label

    def fit(self, X, Y):
        model = MLRClassifier(random_state=self.random_state).fit(X, Y)
        session = TrainingSession(model)
        loo, truth = session.tuning_scores()
        own, self.cuts_ = model.bipartition, {}
        for cut in self.targets:  # the options tried follow the bipartition parameter
            target, _, method = cut.partition(" ")
            model.set_params(bipartition=method or "auto")
            self.cuts_[cut] = session.bipartition_for(target, loo, truth)
        model.set_params(bipartition=own)
        self.cuts_.update({f"per-label {measure}": per_label_thresholds(loo, truth, measure)
                           for measure in self.per_label})
        self.model_ = model
        return self

    def predict_proba(self, X):
        return self.model_.predict_proba(X)

    def predict(self, X, cut="guarded"):
        scores, chosen = self.predict_proba(X), self.cuts_[cut]
        if isinstance(chosen, bp.Bipartition):
            return bp.apply(scores, chosen)
        return (scores >= chosen).astype(np.uint8)


def learners(configs, seed):
    """The runner's learners for ``configs``: one estimator per ablation step, one shared fit
    for all of `CUTS`."""
    settings = {**ABLATION, **VARIANTS}
    found = {name: MLRClassifier(random_state=seed, **settings[name])
             for name in configs if name in settings}
    cuts = {name: {"cut": CUTS[name]} for name in configs if name in CUTS}
    cuts.update({name: {"cut": f"per-label {PER_LABEL[name]}"} for name in configs
                 if name in PER_LABEL})
    if cuts:
        targets = tuple(CUTS[name] for name in configs if name in CUTS)
        per_label = tuple(PER_LABEL[name] for name in configs if name in PER_LABEL)
        found["cuts"] = SharedFit(EachCut(seed, targets, per_label), cuts)
    return found


def load(name):
    """A dataset of the field by its name (``FILES`` maps a fold file's name to its ARFF)."""
    return load_dataset(DATA / f"{FILES.get(name, name)}.arff")


def run(configs, datasets, n_jobs, seed=0, fold_numbers=None):
    """Per-fold results of ``configs`` on ``datasets`` (the ablation on `FIVE` only), with
    each test fold's label density (``density``, the empty prediction's Hamming loss)."""
    data = {name: load(name) for name in datasets}
    folds = {}
    for name, d in data.items():
        every = read_fold_file(FIELD / "folds" / f"{name}.json", d.Y)
        folds[name] = {k: every[k] for k in (fold_numbers or range(len(every)))}
    parts = []
    for panel, names in ((FIVE, configs), (SCALE, [c for c in configs if c not in ABLATION])):
        here = {name: d for name, d in data.items() if name in panel}
        if here and names:
            found = run_experiment(learners(names, seed), here,
                                   {name: list(folds[name].values()) for name in here},
                                   n_jobs=n_jobs)
            numbers = [list(folds[d])[k] for d, k in zip(found.dataset, found.fold, strict=True)]
            parts.append(found.assign(fold=numbers))
    return with_density(pd.concat(parts, ignore_index=True), data, folds)


SPARSE = {
    "sparse-12": dict(n_labels=12, cardinality=1.1, random_state=1),
    "sparse-30": dict(n_labels=30, cardinality=1.8, random_state=2),
    "sparse-100": dict(n_labels=100, cardinality=3.0, random_state=3),
}
"""Stand-ins for protein-function and text collections: 1,500 rows, 300 features of which each
label shifts 10 by 0.2-0.8 noise standard deviations (the generator's defaults); label density
0.09, 0.06 and 0.03. Never used to choose a default."""
SPARSE_CONFIGS = ("+ balanced cut", "MLR defaults", "cut: hamming_loss", "cut: top_unless_empty",
                  "axis: min-max (paper)")
SPARSE_PEERS = ("BR-LR", "MLkNN", "ECC-LR", "ECC-DT", "RAkELo-DT", "BOOMER")


HEAVY = {"emotions-exp": ("emotions", "exp"), "slashdot-counts": ("slashdot", "counts")}
"""Heavy-tailed stand-ins (issue 31), on the fixed folds of the dataset each comes from:
``emotions-exp``, every feature mapped by x -> exp(8u), u its min-max position in the column (a
strictly increasing map: a learner that reads only the values' order learns the same as on
emotions); ``slashdot-counts``, each word present replaced by a count drawn from a Zipf law
(exponent 1.5, at most 2,500, seed 0), the absent words 0, as word counts are. Never used to
choose a default."""
HEAVY_PEERS = ("BR-LR", "MLkNN")
HEAVY_CONFIGS = ("MLR defaults", "cut: hamming_loss", "cut: top_unless_empty",
                 "axis: min-max (paper)")


def heavy(name):
    """The heavy-tailed stand-in ``name`` of `HEAVY`."""
    source, how = HEAVY[name]
    data = load(source)
    X = data.X
    if how == "exp":
        low, high = X.min(axis=0), X.max(axis=0)
        X = np.exp(8.0 * (X - low) / np.where(high > low, high - low, 1.0))
    else:
        counts = np.minimum(np.random.default_rng(0).zipf(1.5, X.shape), 2500)
        X = np.where(X > 0, counts, 0).astype(np.float64)
    return replace(data, X=X, name=name)


def run_heavy(configs, names, n_jobs, seed=0):
    """`HEAVY_PEERS` and ``configs`` on the heavy-tailed stand-ins ``names`` (their fixed
    folds)."""
    data = {name: heavy(name) for name in names}
    folds = {name: read_fold_file(FIELD / "folds" / f"{HEAVY[name][0]}.json", d.Y)
             for name, d in data.items()}
    return run_stand_ins(data, folds, HEAVY_PEERS, configs, n_jobs, seed)


def run_stand_ins(data, folds, peer_names, configs, n_jobs, seed):
    """The peers of ``peer_names`` that run here and ``configs`` on stand-in ``data`` (a dataset
    by name) on ``folds`` (a list of (train, test) by name), with each test fold's density."""
    found = {name: make_learner(name, seed) for name in peer_names
             if name in available_learners()}
    found.update(learners(configs, seed))
    results = run_experiment(found, data, folds, n_jobs=n_jobs)
    return with_density(results, data, {name: dict(enumerate(f)) for name, f in folds.items()})


def heavy_report(results: pd.DataFrame) -> list[str]:
    """The heavy-tailed stand-ins: each learner's measures, the empty prediction's Hamming loss
    beside them."""
    means = results.drop(columns="fold").groupby(["learner", "dataset"], sort=False).mean()
    datasets = list(dict.fromkeys(results.dataset))
    parts = ["## Heavy-tailed stand-ins", "On the fixed folds of the dataset each comes from "
             "(`HEAVY` in `benchmarks/field.py`): "
             + "; ".join(f"`{d}` from {HEAVY[d][0]} ({HEAVY[d][1]})" for d in datasets)
             + f". Peers run here: {', '.join(HEAVY_PEERS)}."]
    for measure in ("hamming_loss", "accuracy", "f1", "one_error", "ranking_loss"):
        cells = means[measure].unstack()[datasets].map(lambda v: f"{v:.4f}")
        if measure == "hamming_loss":
            density = means.density.groupby("dataset", sort=False).first()
            cells.loc["empty prediction (= density)"] = [f"{density[d]:.4f}" for d in datasets]
        direction = "lower" if measure in LOWER_IS_BETTER else "higher"
        parts += [f"### {measure} ({direction} is better)", markdown(cells)]
    return parts


def with_density(results, data, folds):
    """``results`` with each test fold's label density (``density``: the empty prediction's
    Hamming loss); ``folds[name]`` maps the fold numbers of ``results`` to (train, test)."""
    density = {(name, k): data[name].Y[test].mean() for name in folds
               for k, (_, test) in folds[name].items()}
    keys = zip(results.dataset, results.fold, strict=True)
    return results.assign(density=[density[key] for key in keys])


def run_sparse(configs, datasets, n_jobs, seed=0):
    """The peers that run here and ``configs`` on the sparse stand-ins (5 stratified folds)."""
    data = {name: make_sparse_label_dataset(name=name, **SPARSE[name]) for name in datasets}
    folds = {name: stratified_folds(d.Y, 5, random_state=0) for name, d in data.items()}
    return run_stand_ins(data, folds, SPARSE_PEERS, configs, n_jobs, seed)


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


def peers_on(field: pd.DataFrame, datasets) -> list[str]:
    """The peers measured on every one of ``datasets``, in ``peers.csv``'s order."""
    return [name for name in dict.fromkeys(field.learner)
            if set(datasets) <= set(field.dataset[field.learner == name])]


def table(means: pd.DataFrame, measure: str, learners, datasets) -> pd.DataFrame:
    """learners x datasets of one measure's fold means."""
    frame = means[means.learner.isin(learners)].pivot(index="learner", columns="dataset",
                                                      values=measure)
    return frame.reindex(index=list(learners), columns=list(datasets))


def ranks_among(means, measure, config, peer_names, datasets):
    """The rank table of one MLR configuration among ``peer_names`` on ``datasets``."""
    return rank_table(table(means, measure, [*peer_names, config], datasets),
                      measure in LOWER_IS_BETTER)


def ran_on(mine: pd.DataFrame, datasets) -> list[str]:
    """The configurations run on every one of ``datasets``."""
    return [config for config in dict.fromkeys(mine.index.get_level_values("learner"))
            if all((config, d) in mine.index for d in datasets)]


def direction(measure: str) -> str:
    return "lower" if measure in LOWER_IS_BETTER else "higher"


def panel_report(means, density, configs, shown, peer_names, datasets, title) -> list[str]:
    """Average ranks of ``configs`` among ``peer_names`` on ``datasets``, then per measure the
    values and ranks of the peers and of ``shown`` (the defaults), with the label density
    beside the Hamming loss."""
    avg = pd.DataFrame({m: {c: ranks_among(means, m, c, peer_names, datasets).loc[c, "avg_rank"]
                            for c in configs} for m in MEASURES})
    parts = [f"## {title}: average rank among {len(peer_names) + 1} learners",
             f"Datasets: {', '.join(datasets)}. Peers: {', '.join(peer_names)}; each "
             "configuration ranked among them on its own.", markdown(avg.round(2))]
    for measure in MEASURES:
        ranks = ranks_among(means, measure, shown, peer_names, datasets)
        values = table(means, measure, [*peer_names, shown], datasets)
        cells = pd.DataFrame({d: [f"{v:.4f} ({r:g})" for v, r in
                                  zip(values[d], ranks[d], strict=True)] for d in datasets},
                             index=values.index)
        cells["avg rank"] = ranks.avg_rank.map("{:.2f}".format)
        if measure == "hamming_loss":
            above = values.loc[shown] > density[datasets]
            cells.loc[shown, datasets] = [f"{cell} **above density**" if flag else cell for
                                          cell, flag in zip(cells.loc[shown, datasets], above,
                                                            strict=True)]
            cells.loc["empty prediction (= density)"] = [*(f"{density[d]:.4f}"
                                                           for d in datasets), ""]
        parts += [f"### {measure} ({direction(measure)} is better), {shown}", markdown(cells)]
    return parts


def cuts_report(mine: pd.DataFrame, panels) -> list[str]:
    """Each target's cut against the others on the measure it is named for: the mean over
    datasets of the fold means, per panel, the best of each column in bold."""
    parts = ["## Each measure's own cut",
             "One fit per fold, its bipartition tuned on the leave-one-out scores for each "
             "`target` (`MLRClassifier(target=...)`; the threshold-free measures do not depend "
             "on the cut); the `what-if` rows are per-label cuts the estimator does not offer "
             "(`PER_LABEL` in the script). Mean over datasets of the fold means; the best of "
             "each column in bold. `own cut best`: on how many datasets the target's cut is the "
             "best of the targets' cuts on the measure it is named for (ties count); for a "
             "what-if row, on how many it beats them all."]
    measures = [m for m in MEASURES if m not in ("one_error", "ranking_loss")]
    named = {**CUTS, **PER_LABEL}
    for title, datasets in panels:
        rows = [c for c in named if datasets and c in ran_on(mine, datasets)]
        targets = [c for c in rows if c in CUTS]
        if len(rows) < 2:
            continue
        cells = pd.DataFrame(index=rows, columns=measures, dtype=object)
        for m in measures:
            column = mine.loc[[(c, d) for c in rows for d in datasets], m].groupby(
                level="learner", sort=False).mean().reindex(rows)
            best = column.min() if m in LOWER_IS_BETTER else column.max()
            cells[m] = [f"**{v:.4f}**" if v == best else f"{v:.4f}" for v in column]
        wins = []
        for config in rows:
            measure = named[config]
            if measure not in measures:
                wins.append("")
                continue
            per = mine.loc[[(c, d) for c in rows for d in datasets], measure].unstack()
            lower = measure in LOWER_IS_BETTER
            others = per.loc[[c for c in targets if c != config]]
            best = others.min() if lower else others.max()
            won = per.loc[config] <= best if lower else per.loc[config] >= best
            if config not in CUTS:
                won = per.loc[config] < best if lower else per.loc[config] > best
            wins.append(f"{int(won.sum())} of {len(datasets)}")
        cells["own cut best"] = wins
        parts += [f"### {title} ({', '.join(datasets)})", markdown(cells)]
    return parts


def report(results: pd.DataFrame, sparse: pd.DataFrame | None,
           heavy_tailed: pd.DataFrame | None, seconds: float | None, command: str,
           loads) -> str:
    field = peers()
    configs = list(dict.fromkeys(results.learner))
    datasets = [d for d in DATASETS if d in set(results.dataset)]
    mine = results.drop(columns="fold").groupby(["learner", "dataset"], sort=False).mean()
    density = mine.density.groupby("dataset").first()
    means = pd.concat([field[field.dataset.isin(datasets)],
                       mine.reset_index()], ignore_index=True)
    five = [d for d in FIVE if d in datasets]
    scale = [d for d in SCALE if d in datasets]
    shown = next((c for c in CUTS if c in configs), configs[-1])
    fits = len(results) + sum(0 if part is None else len(part) for part in (sparse, heavy_tailed))
    numbers = sorted(results.fold.unique())
    ran = ("results read back from an earlier run" if seconds is None else
           f"{fits} result rows in {seconds:.0f} s"
           + (", the stand-ins included" if sparse is not None or heavy_tailed is not None
              else "")
           + f"; load average {min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} CPUs "
           "while it ran, a machine shared with other work")
    parts = [
        "# MLR in the field",
        f"Command: `{command}` (folds {', '.join(map(str, numbers))} of the fixed folds of "
        f"`../shared/field/folds`; {ran}). Peers: `../shared/field/peers.csv` (their means "
        "over the same 5 folds"
        + ("" if len(numbers) == 5 else f": MLR's here are means over {len(numbers)} of them, "
           "so the ranks are indicative only") + "). Each MLR configuration is ranked among "
        "the peers on its own; 1 = best, ties share the mean rank. **above density**: a "
        "Hamming loss above the empty prediction's (the label density of the test folds), "
        "i.e. worse than predicting no label.",
    ]
    panels = [("The five", five), ("The scale panel", scale)]
    for title, names in panels:
        if names and shown in ran_on(mine, names):
            parts += panel_report(means, density, ran_on(mine, names), shown,
                                  peers_on(field, names), names, title)
    everywhere = ran_on(mine, datasets)
    if five and scale and shown in everywhere:
        common = peers_on(field, datasets)
        rows = {}
        for config in everywhere:
            rows[config] = {m: ranks_among(means, m, config, common, datasets)
                            .loc[config, "avg_rank"] for m in MEASURES}
        for peer in common:
            rows[f"{peer} (ranked with {shown})"] = {
                m: ranks_among(means, m, shown, common, datasets).loc[peer, "avg_rank"]
                for m in MEASURES}
        parts += [f"## All {len(datasets)} datasets: average rank among {len(common) + 1} "
                  "learners",
                  f"The peers run on every dataset ({', '.join(common)}) and each "
                  "configuration on its own; the full field on the five is above.",
                  markdown(pd.DataFrame(rows).T.round(2))]
    parts += cuts_report(mine, [("The five", five), ("The scale panel", scale),
                                ("All datasets", datasets if five and scale else [])])
    parts += ["## Each configuration per dataset (HL / accuracy / F1)"]
    cells = pd.DataFrame({d: {c: " / ".join(f"{mine.loc[(c, d), m]:.4f}"
                                            for m in ("hamming_loss", "accuracy", "f1"))
                              if (c, d) in mine.index else "-" for c in configs}
                          for d in datasets})
    cells.loc["empty prediction (HL = density)"] = [f"{density[d]:.4f}" for d in datasets]
    parts.append(markdown(cells))
    best = []
    for d in (d for d in datasets if (shown, d) in mine.index):
        p = field[field.dataset == d].set_index("learner")
        hl = mine.loc[(shown, d), "hamming_loss"]
        row = {"dataset": d, "density": f"{density[d]:.4f}",
               "HL above density": "**yes**" if hl > density[d] else "no"}
        for m in ("hamming_loss", "accuracy", "f1"):
            pick = p[m].idxmin() if m in LOWER_IS_BETTER else p[m].idxmax()
            row[f"{m} MLR"] = f"{mine.loc[(shown, d), m]:.4f}"
            row[f"{m} best peer"] = f"{p.loc[pick, m]:.4f} {pick}"
        row["HL gap"] = f"{hl - p.hamming_loss.min():+.4f}"
        best.append(row)
    parts += [f"## {shown} against the best peer per measure",
              markdown(pd.DataFrame(best).set_index("dataset"))]
    fitted = [c for c in configs if c in ABLATION or c in VARIANTS or c == shown]
    fit = results[results.learner.isin(fitted)].groupby(
        ["learner", "dataset"], sort=False).fit_seconds.agg(["mean", "max"])
    fit = fit.apply(lambda r: f"{r['mean']:.1f} (max {r['max']:.1f})", axis=1).unstack()
    parts += ["## Fit seconds per fold: mean (max)",
              f"`{shown}` is the one fit behind every cut (`EachCut`: the defaults' fit plus "
              "one more fit of the rule weights for the other targets' cuts); folds run "
              "side by side on a shared machine.",
              markdown(fit.reindex(index=fitted, columns=datasets).fillna("-"))]
    if sparse is not None:
        parts += sparse_report(sparse)
    if heavy_tailed is not None:
        parts += heavy_report(heavy_tailed)
    return "\n\n".join(parts) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=CONFIGS,
                        metavar="NAME", help=f"any of: {', '.join(CONFIGS)}")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--folds", nargs="+", type=int, default=None, choices=range(5),
                        metavar="K", help="fold numbers to run (0-4; all by default)")
    parser.add_argument("--sparse", nargs="*", default=list(SPARSE), choices=list(SPARSE),
                        help="sparse stand-ins to run (none with a bare --sparse)")
    parser.add_argument("--heavy", nargs="*", default=list(HEAVY), choices=list(HEAVY),
                        help="heavy-tailed stand-ins to run (none with a bare --heavy)")
    parser.add_argument("--n-jobs", type=int, default=1, help="joblib workers (-1: all cores)")
    parser.add_argument("--seed", type=int, default=0, help="MLR's random_state")
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    parser.add_argument("--csv", type=Path, default=None, help="write the per-fold results")
    parser.add_argument("--from-csv", type=Path, default=None,
                        help="report the per-fold results of an earlier --csv; run nothing")
    args = parser.parse_args(argv)
    command = " ".join(["python benchmarks/field.py",
                        *map(shlex.quote, sys.argv[1:] if argv is None else argv)])
    start, loads = time.perf_counter(), [os.getloadavg()[0]]
    if args.from_csv:
        every = pd.read_csv(args.from_csv)
        stand_in, heavy_tail = every.dataset.isin(list(SPARSE)), every.dataset.isin(list(HEAVY))
        results = every[~stand_in & ~heavy_tail]
        sparse = every[stand_in] if stand_in.any() else None
        heavy_tailed = every[heavy_tail] if heavy_tail.any() else None
    else:
        results = run(args.configs, args.datasets, args.n_jobs, args.seed, args.folds)
        sparse = None
        if args.sparse:
            configs = [name for name in SPARSE_CONFIGS if name in args.configs]
            sparse = run_sparse(configs, args.sparse, args.n_jobs, args.seed)
        heavy_tailed = None
        if args.heavy:
            configs = [name for name in HEAVY_CONFIGS if name in args.configs]
            heavy_tailed = run_heavy(configs, args.heavy, args.n_jobs, args.seed)
    loads.append(os.getloadavg()[0])
    if args.csv:
        pd.concat([results, sparse, heavy_tailed], ignore_index=True).to_csv(args.csv,
                                                                             index=False)
    seconds = None if args.from_csv else time.perf_counter() - start
    text = report(results, sparse, heavy_tailed, seconds, command, loads)
    print(text)
    if args.out:  # keep the hand-written notes below NOTES in an existing report
        old = args.out.read_text() if args.out.is_file() else ""
        args.out.write_text(text + (NOTES + old.split(NOTES, 1)[1] if NOTES in old else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
