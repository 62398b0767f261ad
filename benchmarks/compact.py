"""The size-accuracy curve: compact MLR models of k rules against BOOMER limited to k rules.

    python benchmarks/compact.py --n-jobs 2 --out docs/compact.md     # 5 datasets x 5 folds
    python benchmarks/compact.py --datasets flags --folds 1            # a quick look

One MLR fit per fold (the library's defaults, ``random_state=0``) serves every size: its
:func:`mlr_core.compaction.compaction_path` gives the models of k = 10, 20, 50, 100 and 200
rules (the baseline counted as one rule, as BOOMER's default rule is), predicted beside the full
model through the experiment runner on the fixed folds of ``../shared/field/folds``. BOOMER at
the same budgets and the nine peers come from ``../shared/field/peers_rule_budget.csv`` and
``peers.csv`` (measured on the same folds). The ranking measures of the compact rows are the
full model's (one ``predict_proba`` per fit), so only the bipartition measures are reported.
Then, on fold 0 of each dataset, the fit and the compaction are timed apart. Writes the report
(``--out``) and the plot of accuracy and F1 against k beside it (PNG, drawn by plotly in the
Chromium the browser tests use, when it is there).
"""

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator

from mlr_core import MLRClassifier, load_dataset
from mlr_core.compaction import SIZES, compact, compaction_path
from mlr_core.evaluation.experiments import SharedFit, run_experiment
from mlr_core.evaluation.folds import read_fold_file
from mlr_core.evaluation.tables import markdown

REPO = Path(__file__).resolve().parents[1]
FIELD = REPO.parent / "shared" / "field"
DATA = REPO.parent / "shared" / "datasets"
DATASETS = ("yeast", "emotions", "flags", "cal500", "genbase")
MEASURES = ("accuracy", "f1", "hamming_loss", "micro_f1")
FULL = "MLR (all rules)"


class CompactPath(BaseEstimator):
    """The defaults fitted once, answering ``predict(X, max_rules=k)`` with the compact model
    of k rules (the full model without ``max_rules``): a benchmark harness, so that one
    evolution serves every size."""

    def __init__(self, sizes=SIZES, random_state=0):
        self.sizes = sizes
        self.random_state = random_state

    def fit(self, X, Y):
        self.model_ = MLRClassifier(random_state=self.random_state).fit(X, Y)
        self.path_ = compaction_path(self.model_, self.sizes)
        return self

    def predict(self, X, max_rules=None):
        return (self.path_[max_rules] if max_rules else self.model_).predict(X)

    def predict_proba(self, X):
        return self.model_.predict_proba(X)


def name(k):
    return f"MLR-{k}"


def run(datasets, n_folds, n_jobs):
    data = {d: load_dataset(DATA / f"{d}.arff") for d in datasets}
    folds = {d: read_fold_file(FIELD / "folds" / f"{d}.json", data[d].Y)[:n_folds]
             for d in datasets}
    shared = SharedFit(CompactPath(), {**{name(k): {"max_rules": k} for k in SIZES}, FULL: {}})
    results = run_experiment({"MLR": shared}, data, folds, n_jobs=n_jobs)
    return data, folds, results


def timings(data, folds):
    """Fold 0 of each dataset: the fit, then the compaction to each size, timed apart in CPU
    seconds of this process (all its threads): on a shared machine wall time measures the
    neighbours as much as the work."""
    from mlr_core.evaluation.experiments import _numeric_mask, _scaled

    rows = []
    for d, dataset in data.items():
        train, test = folds[d][0]
        X_train, X_test = _scaled(dataset.X, _numeric_mask(dataset), train, test)
        start = time.process_time()
        model = MLRClassifier(random_state=0).fit(X_train, dataset.Y[train])
        fit = time.process_time() - start
        start = time.process_time()
        small = compact(model, 50)
        one = time.process_time() - start
        start = time.process_time()
        compaction_path(model, SIZES)
        every = time.process_time() - start
        rows.append({"dataset": d, "fit s": f"{fit:.2f}", "compact(50) s": f"{one:.2f}",
                     "share of the fit": f"{one / fit:.0%}",
                     "all five sizes s": f"{every:.2f}",
                     "rules: full model": model.rule_set_.rule_count,
                     "rules matching a test row, median: full / 50":
                         f"{np.median(model.rule_set_.match_counts(X_test)):.0f} / "
                         f"{np.median(small.rule_set_.match_counts(X_test)):.0f}"})
    return pd.DataFrame(rows).set_index("dataset")


def field_tables(means, datasets):
    """measure -> learners x datasets: ours, BOOMER at the budgets, the nine peers."""
    peers = pd.read_csv(FIELD / "peers.csv")
    budget = pd.read_csv(FIELD / "peers_rule_budget.csv")
    theirs = pd.concat([budget, peers]).rename(columns={"algorithm": "learner"})
    theirs = theirs[theirs.dataset.isin(datasets)]
    order = [name(k) for k in SIZES] + [FULL] + [f"BOOMER-{k}" for k in (20, 50, 100)] \
        + list(dict.fromkeys(peers.algorithm))
    both = pd.concat([means.reset_index(), theirs], ignore_index=True)
    tables = {}
    for m in MEASURES:
        t = both.pivot_table(index="learner", columns="dataset", values=m)
        t = t.reindex(index=[r for r in order if r in t.index], columns=list(datasets))
        t["mean"] = t.mean(axis=1)
        tables[m] = t
    return tables


def against_boomer(tables):
    """Per budget k in 20, 50, 100: on how many datasets MLR-k beats BOOMER-k, and the means."""
    rows = []
    for k in (20, 50, 100):
        row = {"k": k}
        for m in ("accuracy", "f1"):
            ours, theirs = tables[m].loc[name(k)], tables[m].loc[f"BOOMER-{k}"]
            wins = int((ours.drop("mean") > theirs.drop("mean")).sum())
            row[m] = f"{ours['mean']:.3f} vs {theirs['mean']:.3f}, ahead on {wins} of " \
                     f"{len(ours) - 1}"
        rows.append(row)
    return pd.DataFrame(rows).set_index("k")


def plot(tables, path):
    """Accuracy and F1 (dataset means) against the rule budget, ours and BOOMER's, as PNG."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, subplot_titles=("accuracy", "F1"))
    for col, m in enumerate(("accuracy", "f1"), start=1):
        t = tables[m]["mean"]
        fig.add_scatter(x=list(SIZES), y=[t[name(k)] for k in SIZES], name="MLR, k rules",
                        mode="lines+markers", line_color="#1f77b4", showlegend=col == 1,
                        row=1, col=col)
        fig.add_scatter(x=[20, 50, 100], y=[t[f"BOOMER-{k}"] for k in (20, 50, 100)],
                        name="BOOMER, k rules", mode="lines+markers", line_color="#d62728",
                        showlegend=col == 1, row=1, col=col)
        for label, value, dash in ((FULL, t[FULL], "dot"), ("BOOMER defaults", t["BOOMER"],
                                                            "dash")):
            fig.add_hline(y=value, line_dash=dash, line_color="gray", row=1, col=col,
                          annotation_text=label, annotation_position="bottom right")
        fig.update_xaxes(type="log", title_text="rules (the baseline counted)",
                         tickvals=list(SIZES), row=1, col=col)
    fig.update_layout(width=1000, height=420, margin=dict(t=60, b=60, l=50, r=20),
                      legend=dict(orientation="h", y=-0.25, x=0.5, xanchor="center"),
                      title="Mean over the five datasets (5 folds each)")
    html = path.with_suffix(".html")
    fig.write_html(html, include_plotlyjs=True)
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1000, "height": 420})
            page.goto(html.resolve().as_uri())
            page.wait_for_selector(".main-svg")
            page.screenshot(path=str(path))
            browser.close()
        return True
    except Exception as err:  # no browser here: the table carries the same numbers
        print(f"(no PNG: {err})")
        return False
    finally:
        html.unlink()


def report(tables, vs, times, seconds, n_fits, png):
    parts = [
        "# Compact models: accuracy against the number of rules",
        f"Command: `python benchmarks/compact.py --n-jobs 2 --out docs/compact.md` "
        f"({n_fits} fits in {seconds:.0f} s, the fixed folds of `../shared/field/folds`, "
        "`random_state=0`). One fit per fold serves every size: `compaction_path` picks k - 1 "
        "of the evolved rules and refits their weights and the bipartition (the baseline is "
        "the k-th rule, as BOOMER counts its default rule). BOOMER-k and the nine peers: "
        "`../shared/field/peers_rule_budget.csv` and `peers.csv`, the same folds.",
    ]
    if png:
        parts.append(f"![accuracy and F1 against the rule budget]({png})")
    parts += ["## MLR-k against BOOMER-k (dataset means; datasets where MLR is ahead)",
              markdown(vs)]
    for m in MEASURES:
        direction = "lower" if m == "hamming_loss" else "higher"
        parts += [f"## {m} ({direction} is better), 5-fold means",
                  markdown(tables[m].map(lambda v: "" if pd.isna(v) else f"{v:.3f}"))]
    parts += ["## Time (CPU seconds) and reading effort: fold 0, the fit and the compaction apart",
              markdown(times)]
    return "\n\n".join(parts) + "\n"


NOTES = "\n<!-- notes: written by hand, kept when the tables above are regenerated -->\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--folds", type=int, default=5, help="the first N shared folds")
    parser.add_argument("--n-jobs", type=int, default=1, help="joblib workers (-1: all cores)")
    parser.add_argument("--out", type=Path, default=None, help="write the report here")
    args = parser.parse_args(argv)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    data, folds, results = run(args.datasets, args.folds, args.n_jobs)
    seconds = time.perf_counter() - start
    means = results.drop(columns="fold").groupby(["learner", "dataset"]).mean(numeric_only=True)
    tables = field_tables(means, args.datasets)
    vs = against_boomer(tables)
    times = timings(data, folds)
    png = None
    if args.out and plot(tables, args.out.with_suffix(".png")):
        png = args.out.with_suffix(".png").name
    text = report(tables, vs, times, seconds, len(results) // (len(SIZES) + 1), png)
    print(text)
    if args.out:
        old = args.out.read_text() if args.out.is_file() else ""
        args.out.write_text(text + (NOTES + old.split(NOTES, 1)[1] if NOTES in old else ""))
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
