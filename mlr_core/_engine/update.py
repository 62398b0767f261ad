"""Fitness: update the match set's experience, accuracy and fitness, and the correct set's
estimate of its own size.

The per-match score comes from a precomputed labelset x labelset table: 1 for an exact match
(``fitness="em"``) or ``1 - Hamming loss`` (``fitness="hl"``), so the mode costs nothing per match.
"""

import numpy as np

from mlr_core._engine.jit import njit


def score_table(labelsets: np.ndarray, mode: str) -> np.ndarray:
    """``table[a, b]``: the score a rule predicting labelset ``a`` earns on an instance of ``b``."""
    if mode == "em":
        same = (labelsets[:, None, :] == labelsets[None, :, :]).all(axis=2)
        return same.astype(np.float64)
    hamming = (labelsets[:, None, :] != labelsets[None, :, :]).mean(axis=2)
    return 1.0 - hamming


@njit
def update_sets(pop, mset, n_match, cset, n_correct, y_id, scores, cfg):
    """UCS update of [M] (exp, correct, acc, F = acc ** nu) and of [C] (correct-set size cs)."""
    for k in range(n_match):
        i = mset[k]
        pop.exp[i] += 1
        pop.correct[i] += scores[pop.ls[i], y_id]
        pop.acc[i] = pop.correct[i] / pop.exp[i]
        pop.fit[i] = pop.acc[i] ** cfg.nu
    c_size = 0
    for k in range(n_correct):
        c_size += pop.num[cset[k]]
    for k in range(n_correct):
        i = cset[k]
        if pop.exp[i] < 1.0 / cfg.beta:
            pop.cs[i] += (c_size - pop.cs[i]) / pop.exp[i]
        else:
            pop.cs[i] += cfg.beta * (c_size - pop.cs[i])
