"""Voting: who votes for an instance, and the per-label and per-labelset votes behind MLR_agg
and MLR_max (``mlr_core/bipartition.py`` turns the votes into labels).

The voters are the match set [M]; when it is empty the nearest rules (distance from x to each
hyper-rectangle) vote instead and the instance is reported as not covered. Optionally rules with
little experience vote only when no experienced rule matches.
"""

from collections import namedtuple

import numpy as np
from numba import prange

from mlr_core._engine.jit import njit
from mlr_core._engine.matching import distance, match_set
from mlr_core._engine.rows import row_of, row_scratch


@njit
def nearest_rules(pop, x, k, out):
    """Write the ``k`` rules nearest to ``x`` into ``out``, nearest first (ties: lower slot);
    return how many. A running top-k, O(N k), since k is small."""
    best = np.full(k, np.inf)
    count = 0
    for i in range(pop.size[0]):
        dist = distance(pop, i, x)
        if count == k and dist >= best[k - 1]:
            continue
        j = min(count, k - 1)
        while j > 0 and best[j - 1] > dist:
            best[j] = best[j - 1]
            out[j] = out[j - 1]
            j -= 1
        best[j] = dist
        out[j] = i
        count = min(count + 1, k)
    return count


@njit
def voters(pop, x, min_experience, n_nearest, out):
    """Write the voting rules' slots for one instance into ``out``: the match set, or the
    nearest rules when it is empty, only the experienced rules when some matched.
    Returns (count, covered)."""
    count = match_set(pop, x, out)
    if count == 0:
        return nearest_rules(pop, x, n_nearest, out), False
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


_CHUNK = 256  # rows per parallel task; each task allocates its buffers once


Votes = namedtuple("Votes", "label_votes total voted_set fittest_set covered")
Votes.__doc__ = """Per row of X: the summed vote for each label, the total vote, the labelset
with the largest vote and the labelset of the fittest voter (-1 where nobody voted), and whether
some rule matched (False: the nearest rules voted)."""


def vote(pop, X, labelsets, min_experience, n_nearest) -> Votes:
    """The votes of the population for each row of X (scaled to [0, 1]); see `Votes`."""
    return Votes(*vote_rows(pop, X, labelsets, min_experience, n_nearest))


@njit(parallel=True)
def vote_rows(pop, X, labelsets, min_experience, n_nearest):
    """For each row of X: per-label votes (sum of F * num over voters advocating the label), the
    total vote, the labelset with the largest vote (ties: larger numerosity, then newer rules),
    the labelset of the fittest voter (ties: numerosity, then experience), and coverage.

    Votes are summed per labelset first, then spread over labels once per distinct labelset."""
    n = X.shape[0]
    n_sets, m = labelsets.shape
    label_votes = np.zeros((n, m))
    total = np.zeros(n)
    voted_set = np.full(n, -1, dtype=np.int64)
    fittest_set = np.full(n, -1, dtype=np.int64)
    covered = np.zeros(n, dtype=np.bool_)
    capacity = pop.nspec.shape[0]
    for chunk in prange((n + _CHUNK - 1) // _CHUNK):
        slots = np.empty(capacity, dtype=np.int64)
        touched = np.empty(n_sets, dtype=np.int64)
        set_vote = np.zeros(n_sets)
        set_num = np.zeros(n_sets)
        set_birth = np.full(n_sets, -1.0)
        scratch = row_scratch(X)
        for row in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            count, covered[row] = voters(pop, row_of(X, row, scratch), min_experience,
                                         n_nearest, slots)
            n_touched = 0
            best = -1
            for k in range(count):
                i = slots[k]
                s = pop.ls[i]
                if set_num[s] == 0:
                    touched[n_touched] = s
                    n_touched += 1
                set_vote[s] += pop.fit[i] * pop.num[i]
                set_num[s] += pop.num[i]
                set_birth[s] = max(set_birth[s], float(pop.birth[i]))
                if best < 0 or _ahead(pop.fit[i], pop.num[i], pop.exp[i], pop.fit[best],
                                      pop.num[best], pop.exp[best]):
                    best = i
            if count == 0:
                continue
            fittest_set[row] = pop.ls[best]
            win = touched[0]
            for t in range(n_touched):
                s = touched[t]
                total[row] += set_vote[s]
                for j in range(m):
                    if labelsets[s, j]:
                        label_votes[row, j] += set_vote[s]
                if _ahead(set_vote[s], set_num[s], set_birth[s], set_vote[win], set_num[win],
                          set_birth[win]):
                    win = s
            voted_set[row] = win
            for t in range(n_touched):  # reset only what this row used
                s = touched[t]
                set_vote[s] = 0.0
                set_num[s] = 0.0
                set_birth[s] = -1.0
    return label_votes, total, voted_set, fittest_set, covered
