"""The paper's comparison, table by table, with our cross-validated MLR_agg and MLR_max in it.

    python benchmarks/paper_tables.py                          # all five datasets, 5 folds, seed 0
    python benchmarks/paper_tables.py --datasets yeast flags --folds 5 --seed 1 --out results/x
    python benchmarks/paper_tables.py --paper-compatible      # the authors' metric definitions

The engine runs with its default parameters, ``MLRClassifier(random_state=seed)``, on every dataset
(the paper tuned N, P# and theta_ga per dataset; we do not). For each dataset it prints the fold
mean ± std of every measure for MLR_agg and MLR_max beside the paper's values; then, per measure,
the paper's eight-learner table with our MLR rows in place of its own, each value's rank, the
average ranks, the Friedman test (chi2_F, which the paper prints under the name F_F, and the
Iman-Davenport F_F) and the Bonferroni-Dunn critical difference. See
``mlr_core/evaluation/paper.py`` for what the paper's Friedman numbers are. CSVs go to ``--out``.
"""

import argparse
import time
from pathlib import Path

import pandas as pd

from mlr_core import MLRClassifier, load_dataset
from mlr_core.evaluation.measures import LOWER_IS_BETTER
from mlr_core.evaluation.paper import (
    DATASETS,
    PAPER_CHI2,
    PAPER_MEASURES,
    PREDICTIONS,
    compare_with_paper,
    cross_validate,
    mlr_means,
    paper_table,
)

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "datasets"
DEFAULT_OUT = REPO / "results" / "paper_tables"
NOTE = (
    "note: the paper's MLR rows come from the authors' code, whose precision is |h & L| / |L| "
    "(standard recall) and whose macro-F1 is the F of macro P and R "
    "(mlr_core/evaluation/paper_results.md); "
    "--paper-compatible uses their definitions."
)


def paper_value(measure, learner, dataset):
    """The paper's number, or None where it printed none (MLR_max's ranking measures)."""
    if measure not in PAPER_MEASURES:
        return None
    table = paper_table(measure)
    return table.loc[learner, dataset] if learner in table.index else None


def summarize(name, folds):
    """Long frame of fold mean and std per prediction and measure, with the paper's value."""
    measures = folds.drop(columns=["fold", "prediction"]).columns
    rows = []
    for prediction, learner in PREDICTIONS.items():
        part = folds[folds.prediction == prediction]
        for measure in measures:
            rows.append({"dataset": name, "learner": learner, "measure": measure,
                         "mean": part[measure].mean(), "std": part[measure].std(),
                         "paper": paper_value(measure, learner, name)})
    return pd.DataFrame(rows)


def print_summary(name, shape, summary):
    n, d, m = shape
    print(f"\n== {name}: {n} instances, {d} features, {m} labels ==")
    print(f"{'measure':<18}" + "".join(f"{learner + ' (ours)':>20}{'paper':>9}"
                                       for learner in PREDICTIONS.values()))
    for measure, part in summary.groupby("measure", sort=False):
        cells = ""
        for learner in PREDICTIONS.values():
            row = part[part.learner == learner].iloc[0]
            paper = "-" if pd.isna(row.paper) else f"{row.paper:.4f}"
            cells += f"{row['mean']:>11.4f} ± {row['std']:<6.4f}{paper:>9}"
        print(f"{measure:<18}{cells}")


def print_comparison(measure, comparison):
    direction = "lower" if measure in LOWER_IS_BETTER else "higher"
    print(f"\n-- {measure} ({direction} is better; MLR rows ours, the rest the paper's) --")
    table, ranks = comparison.table, comparison.ranks
    cells = pd.DataFrame({name: [f"{v:.4f} ({r:g})" for v, r in zip(table[name], ranks[name],
                                                                     strict=True)]
                          for name in table.columns}, index=table.index)
    cells["avg rank"] = ranks.avg_rank.map("{:.2f}".format)
    print(cells.to_string())
    f = comparison.friedman
    if f is None:
        print("Friedman test: needs at least two datasets")
        return
    print(f"Friedman (k={f.k}, N={f.n_datasets}): chi2_F = {f.chi2:.2f} "
          f"(critical {f.chi2_critical:.2f}, p = {f.chi2_pvalue:.3g}); "
          f"the paper's chi2_F on its own rows: {PAPER_CHI2[measure]:.2f}")
    print(f"  Iman-Davenport F_F = {f.ff:.2f} (critical {f.ff_critical:.2f}, "
          f"p = {f.ff_pvalue:.3g}); Bonferroni-Dunn CD = {comparison.cd:.2f}")


def comparison_frames(comparisons):
    """The per-measure tables (long: value and rank) and the Friedman results, for the CSVs."""
    tables, tests = [], []
    for measure, c in comparisons.items():
        ranks = c.ranks.drop(columns="avg_rank")
        long = pd.concat({"value": c.table.stack(), "rank": ranks.stack()}, axis=1).reset_index()
        long.insert(0, "measure", measure)
        tables.append(long)
        test = vars(c.friedman) if c.friedman else {}
        tests.append({"measure": measure, **test, "cd": c.cd, "paper_chi2": PAPER_CHI2[measure]})
    return pd.concat(tables, ignore_index=True), pd.DataFrame(tests)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", choices=DATASETS, default=list(DATASETS))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0, help="folds' and engine's random_state")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the CSVs")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA, help="folder of the .arff")
    parser.add_argument("--paper-compatible", action="store_true",
                        help="the authors' metric definitions instead of the standard ones")
    args = parser.parse_args()

    missing = [name for name in args.datasets if not (args.data_dir / f"{name}.arff").is_file()]
    if missing:
        print(f"datasets not found in {args.data_dir}: {', '.join(missing)} (expected "
              "../shared/datasets beside the repository root, or pass --data-dir); nothing to do")
        return

    start = time.perf_counter()
    results, summaries = {}, []
    for name in args.datasets:
        data = load_dataset(args.data_dir / f"{name}.arff")
        results[name] = cross_validate(MLRClassifier(random_state=args.seed), data.X, data.Y,
                                       n_splits=args.folds, random_state=args.seed,
                                       paper_compatible=args.paper_compatible)
        summaries.append(summarize(name, results[name]))
        print_summary(name, (*data.X.shape, data.Y.shape[1]), summaries[-1])
    if not args.paper_compatible:
        print(f"\n{NOTE}")

    comparisons = compare_with_paper(mlr_means(results))
    for measure, comparison in comparisons.items():
        print_comparison(measure, comparison)

    args.out.mkdir(parents=True, exist_ok=True)
    folds = pd.concat(results, names=["dataset", None]).reset_index(level=0)
    tables, tests = comparison_frames(comparisons)
    for stem, frame in {"folds": folds, "summary": pd.concat(summaries), "tables": tables,
                        "friedman": tests}.items():
        frame.to_csv(args.out / f"{stem}.csv", index=False)
    print(f"\nCSVs in {args.out}; elapsed {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
