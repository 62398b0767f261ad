"""Update: the match set's experience, accuracy and fitness, and the correct set's estimate of
its own size.

The per-match score is 1 for an exact match (``fitness="em"``) or ``1 - Hamming loss`` of the
rule's labelset on the instance's (``fitness="hl"``). It is looked up by Hamming distance, counted
on labelsets packed 64 labels to a word (a few popcounts per match), rather than read from a
labelset x labelset table, whose size grows with the square of the number of distinct labelsets.
"""

from collections import namedtuple

import numpy as np

from mlr_core._engine.jit import njit

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


LabelScores = namedtuple("LabelScores", "packed by_distance")
LabelScores.__doc__ = """What the update needs to score a labelset against another: the
labelsets as bits (`pack_labelsets`) and the score of each Hamming distance 0..m."""


def pack_labelsets(labelsets: np.ndarray) -> np.ndarray:
    """Each 0/1 labelset row as ``ceil(m / 64)`` 64-bit words (label j is bit j % 64 of word
    j // 64)."""
    n, m = labelsets.shape
    words = max(1, -(-m // 64))
    bits = np.zeros((n, words * 64), dtype=np.uint8)
    bits[:, :m] = labelsets
    return np.packbits(bits, axis=1, bitorder="little").view("<u8").astype(np.uint64)


def label_scores(labelsets: np.ndarray, fitness: str) -> LabelScores:
    """`LabelScores` for ``fitness`` ``"em"`` (1 at distance 0, else 0) or ``"hl"``
    (``1 - distance / m``)."""
    m = labelsets.shape[1]
    distance = np.arange(m + 1)
    by_distance = (distance == 0).astype(np.float64) if fitness == "em" else 1.0 - distance / m
    return LabelScores(pack_labelsets(labelsets), by_distance)


@njit(inline="always")
def _popcount(x):
    """Set bits of a 64-bit word (the SWAR count: numba has no popcount intrinsic)."""
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return (x * _H01) >> np.uint64(56)


@njit(inline="always")
def labelset_score(scores, a, b):
    """The score a rule predicting labelset ``a`` earns on an instance of labelset ``b``."""
    differ = 0
    for w in range(scores.packed.shape[1]):
        differ += int(_popcount(scores.packed[a, w] ^ scores.packed[b, w]))
    return scores.by_distance[differ]


@njit
def update_sets(pop, mset, n_match, cset, n_correct, y_id, scores, cfg):
    """UCS update of [M] (exp, correct, acc, F = acc ** nu) and of [C] (correct-set size cs).

    An integral nu (the default 10) is raised by repeated squaring, not by ``pow``: [M] can hold
    most of the population, and ``pow`` cost as much as the rest of the update."""
    whole_nu = int(cfg.nu)
    integral = whole_nu == cfg.nu
    for k in range(n_match):
        i = mset[k]
        pop.exp[i] += 1
        pop.correct[i] += labelset_score(scores, pop.ls[i], y_id)
        pop.acc[i] = pop.correct[i] / pop.exp[i]
        pop.fit[i] = pop.acc[i] ** whole_nu if integral else pop.acc[i] ** cfg.nu
    c_size = 0
    for k in range(n_correct):
        c_size += pop.num[cset[k]]
    for k in range(n_correct):
        i = cset[k]
        if pop.exp[i] < 1.0 / cfg.beta:
            pop.cs[i] += (c_size - pop.cs[i]) / pop.exp[i]
        else:
            pop.cs[i] += cfg.beta * (c_size - pop.cs[i])
