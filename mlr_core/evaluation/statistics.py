"""Comparing learners over datasets (Demšar 2006): ranks, the Friedman test in both its forms
(chi2_F and Iman-Davenport's F_F), and the Nemenyi (all pairs) and Bonferroni-Dunn (one against
the rest) critical differences. scipy.stats does the distributions; what is written
here is only the bookkeeping of Demšar's formulas around them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
from scipy import stats


def _check_complete(table):
    if table.isna().to_numpy().any():
        raise ValueError("the table has missing values; drop the learners or datasets lacking one")


def rank_table(table, lower_is_better):
    """Ranks of the learners (rows) on each dataset (column), 1 = best, ties sharing the mean
    rank (as Demšar and the paper do), plus their ``avg_rank`` over the datasets."""
    _check_complete(table)
    values = table.to_numpy(dtype=float)
    ranks = pd.DataFrame(stats.rankdata(values if lower_is_better else -values, axis=0),
                         index=table.index, columns=table.columns)
    return ranks.assign(avg_rank=ranks.mean(axis=1))


@dataclass(frozen=True)
class FriedmanResult:
    """The Friedman test of k learners on N datasets, in both of Demšar's forms: chi2_F (df k-1)
    and the less conservative Iman-Davenport F_F (df k-1 and (k-1)(N-1)), each with its p-value
    and its critical value at ``alpha``."""

    k: int
    n_datasets: int
    alpha: float
    chi2: float
    chi2_pvalue: float
    chi2_critical: float
    ff: float
    ff_pvalue: float
    ff_critical: float


def friedman_test(table, alpha=0.05):
    """Friedman test on a learners x datasets table (values or ranks: the statistic depends only
    on the ranks within each dataset, and not on which end is best). scipy corrects chi2_F for
    ties within a dataset; Demšar's formula (`friedman_from_average_ranks`) does not."""
    _check_complete(table)
    k, n = table.shape
    if n < 2:
        raise ValueError(f"the Friedman test needs at least two datasets, got {n}")
    chi2, _ = stats.friedmanchisquare(*table.to_numpy(dtype=float))
    return _friedman_result(float(chi2), k, n, alpha)


def friedman_from_average_ranks(avg_ranks, n_datasets, alpha=0.05):
    """The Friedman test from the learners' average ranks over ``n_datasets`` datasets, by
    Demšar's formula chi2_F = 12N / (k(k+1)) (sum R_j^2 - k(k+1)^2 / 4): what a paper that prints
    only average ranks lets one recompute."""
    ranks = [float(r) for r in avg_ranks]
    k, n = len(ranks), int(n_datasets)
    if k < 2 or n < 2:
        raise ValueError(f"need at least two learners and two datasets, got k={k}, N={n}")
    chi2 = 12 * n / (k * (k + 1)) * (sum(r * r for r in ranks) - k * (k + 1) ** 2 / 4)
    return _friedman_result(chi2, k, n, alpha)


def _friedman_result(chi2, k, n, alpha):
    chi2_pvalue = stats.chi2.sf(chi2, k - 1)
    df1, df2 = k - 1, (k - 1) * (n - 1)
    spare = n * (k - 1) - chi2  # 0 when every dataset ranks the learners alike
    ff = (n - 1) * chi2 / spare if spare > 0 else math.inf
    return FriedmanResult(
        k=k, n_datasets=n, alpha=alpha,
        chi2=float(chi2), chi2_pvalue=float(chi2_pvalue),
        chi2_critical=float(stats.chi2.ppf(1 - alpha, df1)),
        ff=float(ff), ff_pvalue=float(stats.f.sf(ff, df1, df2)),
        ff_critical=float(stats.f.ppf(1 - alpha, df1, df2)),
    )


def nemenyi_cd(k, n_datasets, alpha=0.05):
    """Critical difference of average ranks for comparing every pair of k learners (Nemenyi,
    Demšar 2006): q = the studentized range quantile at 1 - alpha for k groups and infinite
    degrees of freedom, over sqrt(2); CD = q sqrt(k(k+1)/(6N))."""
    q = stats.studentized_range.ppf(1 - alpha, k, math.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6 * n_datasets)))


def bonferroni_dunn_cd(k, n_datasets, alpha=0.05):
    """Critical difference of average ranks for comparing one learner with the k - 1 others
    (Demšar 2006): q = the normal quantile at 1 - alpha / (2 (k - 1)), CD = q sqrt(k(k+1)/(6N))."""
    q = stats.norm.ppf(1 - alpha / (2 * (k - 1)))
    return float(q * math.sqrt(k * (k + 1) / (6 * n_datasets)))
