"""Prediction: who votes for an instance, MLR_max and MLR_agg, and the bipartition of scores.

The voters are the match set [M]; when it is empty the nearest rules (distance from x to each
hyper-rectangle) vote instead and the instance is reported as not covered. Optionally rules with
little experience vote only when no experienced rule matches.
"""

import numpy as np
from numba import prange

from mlr_core.jit import njit
from mlr_core.population import distance, match_set


@njit
def voters(pop, x, min_experience, n_nearest, out):
    """Write the voting rules' slots into ``out``; return (count, covered)."""
    count = match_set(pop, x, out)
    if count == 0:
        size = pop.size[0]
        dist = np.empty(size)
        for i in range(size):
            dist[i] = distance(pop, i, x)
        nearest = np.argsort(dist, kind="mergesort")[: min(n_nearest, size)]
        out[: nearest.shape[0]] = nearest
        return nearest.shape[0], False
    if min_experience > 0:
        kept = 0
        for k in range(count):
            if pop.exp[out[k]] >= min_experience:
                out[kept] = out[k]
                kept += 1
        if kept > 0:
            count = kept
    return count, True


@njit(inline="always")
def _ahead(a1, a2, a3, b1, b2, b3):
    """Lexicographic (a1, a2, a3) > (b1, b2, b3)."""
    if a1 != b1:
        return a1 > b1
    if a2 != b2:
        return a2 > b2
    return a3 > b3


@njit(parallel=True)
def vote(pop, X, labelsets, min_experience, n_nearest):
    """For each row of X: per-label votes (sum of F * num over voters advocating the label), the
    total vote, the labelset with the largest vote (ties: larger numerosity, then newer rules),
    the labelset of the fittest voter (ties: numerosity, then experience), and coverage."""
    n = X.shape[0]
    n_sets, m = labelsets.shape
    label_votes = np.zeros((n, m))
    total = np.zeros(n)
    voted_set = np.full(n, -1, dtype=np.int64)
    fittest_set = np.full(n, -1, dtype=np.int64)
    covered = np.zeros(n, dtype=np.bool_)
    capacity = pop.nspec.shape[0]
    for row in prange(n):
        slots = np.empty(capacity, dtype=np.int64)
        count, covered[row] = voters(pop, X[row], min_experience, n_nearest, slots)
        set_vote = np.zeros(n_sets)
        set_num = np.zeros(n_sets)
        set_birth = np.full(n_sets, -1.0)
        best = -1
        for k in range(count):
            i = slots[k]
            w = pop.fit[i] * pop.num[i]
            s = pop.ls[i]
            total[row] += w
            for j in range(m):
                if labelsets[s, j]:
                    label_votes[row, j] += w
            set_vote[s] += w
            set_num[s] += pop.num[i]
            set_birth[s] = max(set_birth[s], float(pop.birth[i]))
            if best < 0 or _ahead(
                pop.fit[i], pop.num[i], pop.exp[i], pop.fit[best], pop.num[best], pop.exp[best]
            ):
                best = i
        if count > 0:
            fittest_set[row] = pop.ls[best]
            win = -1
            for s in range(n_sets):
                if set_num[s] == 0:
                    continue
                if win < 0 or _ahead(
                    set_vote[s], set_num[s], set_birth[s], set_vote[win], set_num[win],
                    set_birth[win],
                ):
                    win = s
            voted_set[row] = win
    return label_votes, total, voted_set, fittest_set, covered


def normalise(label_votes: np.ndarray, total: np.ndarray, norm: str) -> np.ndarray:
    """Scores in [0, 1]: a label's share of the total vote (``"total"``) or of the top label's
    vote (``"max"``, the authors' code)."""
    denom = total if norm == "total" else label_votes.max(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = label_votes / denom[:, None]
    return np.nan_to_num(scores, nan=0.0)


def by_threshold(scores: np.ndarray, threshold: float) -> np.ndarray:
    """Labels whose score reaches the threshold."""
    return (scores >= threshold).astype(np.uint8)


def by_rank(scores: np.ndarray, k: int) -> np.ndarray:
    """The k best-scoring labels (RCut); ties broken by label order. Zero-score labels never
    count (they are outside the union of the voters' labelsets)."""
    out = np.zeros(scores.shape, dtype=np.uint8)
    if k <= 0:
        return out
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    np.put_along_axis(out, top, 1, axis=1)
    return out & (scores > 0)
