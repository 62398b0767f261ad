"""An experiment's results laid out like the paper's tables: per measure, learners in rows and
datasets in columns with each value's rank, the average rank, and the Friedman, Nemenyi and
Bonferroni-Dunn statistics; written to ``--out`` only when every task is done."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from mlr_core.errors import InputError
from mlr_core.evaluation.measures import LOWER_IS_BETTER

REPORTED = ("hamming_loss", "accuracy", "f1", "precision", "recall", "micro_f1", "macro_f1",
            "one_error", "ranking_loss", "subset_accuracy")
"""The measures of the tables: the paper's nine, in its order, then subset accuracy."""


def mean_table(results: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Fold means of one measure: learners (rows, in run order) x datasets (columns)."""
    if measure not in results.columns:
        raise InputError(f"no measure {measure!r} in the results")
    learners = list(dict.fromkeys(results.learner))
    datasets = list(dict.fromkeys(results.dataset))
    table = results.pivot_table(index="learner", columns="dataset", values=measure,
                                aggfunc="mean")
    return table.reindex(index=learners, columns=datasets).rename_axis(index="learner",
                                                                        columns="dataset")


def paper_layout(table: pd.DataFrame, lower_is_better: bool, digits: int = 4,
                 beside: pd.DataFrame | None = None) -> pd.DataFrame:
    """Cells ``value (rank)`` with the average rank last, as the paper prints its tables;
    ``beside`` (same layout, e.g. the paper's own numbers) adds ``/ other`` to each cell it has."""
    from mlr_core.evaluation.statistics import rank_table

    ranks = rank_table(table, lower_is_better)
    cells = pd.DataFrame(index=table.index, columns=table.columns, dtype=object)
    for learner in table.index:
        for dataset in table.columns:
            text = f"{table.loc[learner, dataset]:.{digits}f} ({ranks.loc[learner, dataset]:g})"
            if beside is not None and learner in beside.index and dataset in beside.columns:
                other = beside.loc[learner, dataset]
                if pd.notna(other):
                    text += f" / {other:.{digits}f}"
            cells.loc[learner, dataset] = text
    cells["avg rank"] = ranks.avg_rank.map(f"{{:.{2}f}}".format)
    return cells


def markdown(frame: pd.DataFrame) -> str:
    """A DataFrame as a GitHub Markdown table, index first (pandas' ``to_markdown`` needs the
    optional ``tabulate`` package; this needs nothing)."""
    head = [frame.index.name or "", *map(str, frame.columns)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for index, row in frame.iterrows():
        lines.append("| " + " | ".join([str(index), *map(str, row)]) + " |")
    return "\n".join(lines)


def statistics_text(table: pd.DataFrame, alpha: float = 0.05) -> str:
    """The Friedman test (chi2_F and Iman-Davenport F_F) and both critical differences for one
    measure's table, as one Markdown paragraph."""
    from mlr_core.evaluation.statistics import bonferroni_dunn_cd, friedman_test, nemenyi_cd

    k, n = table.shape
    if n < 2 or k < 3:
        return "Friedman test: needs at least three learners and two datasets."
    f = friedman_test(table, alpha)
    verdict = "rejects" if f.ff > f.ff_critical else "does not reject"
    return (
        f"Friedman (k = {k}, N = {n}): chi2_F = {f.chi2:.2f} (p = {f.chi2_pvalue:.3g}), "
        f"Iman-Davenport F_F = {f.ff:.2f} (critical {f.ff_critical:.2f} at alpha = {alpha}, "
        f"p = {f.ff_pvalue:.3g}): F_F {verdict} equal performance. "
        f"Critical differences of average rank: Nemenyi {nemenyi_cd(k, n, alpha):.2f}, "
        f"Bonferroni-Dunn {bonferroni_dunn_cd(k, n, alpha):.2f}."
    )


def replace_file(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``: a reader
    (or a crash) sees the old file or the new one, never half of one."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_results(results: pd.DataFrame, out, diagrams: bool = False,
                  measures: Sequence[str] = REPORTED, alpha: float = 0.05) -> list[Path]:
    """Write ``folds.csv``, ``means.csv`` and ``tables.md`` (and with ``diagrams`` one
    ``cd_<measure>.html`` each) to the folder ``out``; return the paths written. Every file is
    computed before the first is written, and each replaces its old version atomically."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    texts = {"folds.csv": results.to_csv(index=False)}
    means = results.drop(columns="fold").groupby(["learner", "dataset"], sort=False).mean()
    texts["means.csv"] = means.reset_index().to_csv(index=False)
    parts = ["# Cross-validation results",
             f"{results.fold.nunique()} folds; values are fold means, the rank on each dataset in "
             "parentheses (1 = best, ties share the mean rank), the average rank last."]
    for measure in measures:
        table = mean_table(results, measure)
        direction = "lower" if measure in LOWER_IS_BETTER else "higher"
        parts += [f"## {measure} ({direction} is better)",
                  markdown(paper_layout(table, measure in LOWER_IS_BETTER)),
                  statistics_text(table, alpha)]
        if diagrams and table.shape[1] >= 2:
            from mlr_core.evaluation.cd_diagram import cd_figure

            texts[f"cd_{measure}.html"] = cd_figure(
                table, measure in LOWER_IS_BETTER, title=measure, alpha=alpha
            ).to_html(include_plotlyjs="cdn")
    seconds = results.groupby("learner", sort=False)[["fit_seconds", "predict_seconds"]].sum()
    parts += ["## Time (seconds summed over datasets and folds)",
              markdown(seconds.round(2))]
    texts["tables.md"] = "\n\n".join(parts) + "\n"
    order = ["folds.csv", "means.csv", "tables.md"]
    written = [out / name for name in [*order, *(n for n in texts if n not in order)]]
    for path in written:
        replace_file(path, texts[path.name])
    return written
