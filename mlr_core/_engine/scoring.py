"""Scoring with fitted rule weights: a label's total is the intercept plus the weights of the
rules that match the row (``mlr_core/rule_weights.py`` fits them; the scorer's link makes it a
score).

Each row is summed on its own, over the matching rules in slot order, so a row's score has the
same bits whatever rows are scored with it: a dense match matrix times the weights (BLAS) picks
its kernel, and so its rounding, by the batch size. Only the matching rules are visited, and no
rows x rules matrix is built.
"""

import numpy as np
from numba import prange

from mlr_core._engine.jit import njit
from mlr_core._engine.matching import has_missing, matches
from mlr_core._engine.rows import row_of, row_scratch


@njit(parallel=True)
def weighted_scores(pop, X, coef, intercept):
    """Per row of X (scaled), ``intercept`` plus ``coef[i]`` of each rule ``i`` matching it,
    added one at a time in slot order: the totals the scorer's link makes scores of (an
    explanation's running total, ``Explanation.waterfall``, ends on them exactly). ``coef``
    has one row per live rule; the loop reads no more rows than both have."""
    n_rules = min(pop.size[0], coef.shape[0])
    m = coef.shape[1]
    out = np.empty((X.shape[0], m))
    for row in prange(X.shape[0]):
        acc = intercept.copy()
        x = row_of(X, row, row_scratch(X))
        missing = has_missing(x)
        for i in range(n_rules):
            if matches(pop, i, x, missing):
                for j in range(m):
                    acc[j] += coef[i, j]
        for j in range(m):
            out[row, j] = acc[j]
    return out
