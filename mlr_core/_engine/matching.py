"""Matching: which rules cover an instance, and how far an instance lies from a rule.

A rule's condition is sparse (see ``population.py``), so matching costs the number of specified
features, not d: 1,185 binary features match as fast as 103. The unused slots of a rule hold a
test every x passes (spread = inf), so that matching can check all slots without branching, which
profiling showed to be 1.7x faster than exiting at the first failing feature (the exit point is a
branch the CPU cannot predict). For the same reason the match set is written without a branch.
A test on a missing value (NaN) fails (``mlr_core/missing.py``); an unused slot passes it.
A population with nominal tests (``population.has_sets``) is matched by `matches_with_sets`,
numeric data by `matches_intervals`; `match_set`, the training cycle's, chooses once per call,
outside its loop over the rules, so that numeric data runs the loop it ran before nominal
features; `matches` chooses per rule.
"""

import numpy as np
from numba import prange

from mlr_core._engine.jit import njit
from mlr_core._engine.population import MAX_CATEGORIES, NO_SET, has_sets
from mlr_core._engine.rows import row_of, row_scratch

_FULL_SCAN = 32  # up to this many slots per rule, check them all; beyond, exit early


@njit(inline="always")
def has_missing(x):
    """True if ``x`` holds a missing value (NaN): checked once per row, so that a complete row
    pays nothing in `matches` for the rows that are not."""
    for value in x:
        if np.isnan(value):
            return True
    return False


@njit(inline="always")
def in_set(allowed, value):
    """True if ``value``, a category code, is one of the codes in the bitmask ``allowed``; a
    value that is no code (NaN, -1 for a category training never saw) is in no set."""
    if not (value >= 0.0 and value < MAX_CATEGORIES):
        return False
    return (allowed >> np.uint64(value)) & np.uint64(1) != 0


@njit
def matches_with_sets(pop, i, x):
    """True if rule ``i`` covers ``x``: every interval holds its value, every set its code (a
    missing value, NaN, is in no interval and no set)."""
    for k in range(pop.nspec[i]):
        value = x[pop.feat[i, k]]
        if pop.allowed[i, k] == NO_SET:
            if not abs(value - pop.center[i, k]) <= pop.spread[i, k]:  # NaN: fails
                return False
        elif not in_set(pop.allowed[i, k], value):
            return False
    return True


@njit(inline="always")
def matches(pop, i, x, missing):
    """True if rule ``i`` covers ``x``; ``missing`` is `has_missing` of ``x``."""
    if has_sets(pop):
        return matches_with_sets(pop, i, x)
    return matches_intervals(pop, i, x, missing)


@njit(inline="always")
def matches_intervals(pop, i, x, missing):
    """True if rule ``i`` of a population without nominal tests covers ``x``: each feature it
    specifies is known and within its interval. ``missing`` is `has_missing` of ``x``: only
    then are the specified features looked at again for NaN (``abs(NaN - c) > s`` is False, and
    an unused slot must pass)."""
    slots = pop.feat.shape[1]
    if slots <= _FULL_SCAN:
        outside = 0
        for k in range(slots):
            outside |= abs(x[pop.feat[i, k]] - pop.center[i, k]) > pop.spread[i, k]
        if missing:
            for k in range(pop.nspec[i]):
                outside |= np.isnan(x[pop.feat[i, k]])
        return outside == 0
    for k in range(pop.nspec[i]):
        if not abs(x[pop.feat[i, k]] - pop.center[i, k]) <= pop.spread[i, k]:  # NaN: fails
            return False
    return True


@njit
def match_set(pop, x, out):
    """Write the indices of the rules matching ``x`` into ``out`` (as long as the population's
    capacity); return how many.

    Every slot is written and the count moves on only for a match: whether a rule matches is a
    coin flip the CPU cannot predict, and a branch on it cost more than the whole test."""
    if has_sets(pop):
        return match_set_with_sets(pop, x, out)
    count = 0
    missing = has_missing(x)
    for i in range(pop.size[0]):
        out[count] = i
        count += matches_intervals(pop, i, x, missing)
    return count


@njit
def match_set_with_sets(pop, x, out):
    """`match_set` of a population with nominal tests."""
    count = 0
    for i in range(pop.size[0]):
        out[count] = i
        count += matches_with_sets(pop, i, x)
    return count


@njit(parallel=True)
def match_matrix(pop, X):
    """(rows of X) x (rules) 0/1 matrix, 1 where the rule covers the row: each rule as a
    feature, for the fitted rule weights (``mlr_core/rule_weights.py``). Sized by the
    population's own ``size``, the bound of the loop that fills it."""
    n_rules = pop.size[0]
    out = np.zeros((X.shape[0], n_rules))
    for row in prange(X.shape[0]):
        x = row_of(X, row, row_scratch(X))
        missing = has_missing(x)
        for i in range(n_rules):
            if matches(pop, i, x, missing):
                out[row, i] = 1.0
    return out


@njit
def distance(pop, i, x):
    """Euclidean distance from ``x`` to rule ``i``'s hyper-rectangle (0 inside it), over the
    features whose value is known: a missing one (NaN) adds nothing, as nothing is known of
    how far it lies; a value outside a nominal test's set is 1 away from it (the width of a
    numeric axis)."""
    total = 0.0
    for k in range(pop.nspec[i]):
        value = x[pop.feat[i, k]]
        if np.isnan(value):
            continue
        if has_sets(pop) and pop.allowed[i, k] != NO_SET:
            gap = 0.0 if in_set(pop.allowed[i, k], value) else 1.0
        else:
            gap = max(abs(value - pop.center[i, k]) - pop.spread[i, k], 0.0)
        total += gap * gap
    return np.sqrt(total)
