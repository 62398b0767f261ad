"""The rule population as a struct of arrays: create, insert, copy and remove rules.

A rule's condition is stored sparsely: the sorted indices of its specified (non-wildcard) features
and their centre and spread on the [0, 1]-scaled axes (XCSF's ``hyperrectangle_csr``: x matches
when ``|x - c| <= s``; keeping c and s themselves makes the JSON export exact). The unused
condition slots of a rule hold a test every x passes (spread = inf), so that matching
(``matching.py``) can check all slots without branching.
Rules occupy slots ``0 .. size-1`` contiguously; removal moves the last rule into the hole.
"""

from collections import namedtuple

import numpy as np

from mlr_core._engine.jit import njit

# The arrays of one population. ``size`` and ``micro`` are 1-element arrays so kernels can
# update them in place.
Population = namedtuple(
    "Population",
    "feat center spread nspec ls num exp correct acc fit cs ts birth size micro",
)


def new_population(capacity: int, max_specified: int) -> Population:
    """An empty population with room for ``capacity`` macro rules of at most ``max_specified``
    specified features each."""
    k = max(int(max_specified), 1)
    return Population(
        feat=np.zeros((capacity, k), dtype=np.int32),
        center=np.zeros((capacity, k)),
        spread=np.full((capacity, k), np.inf),
        nspec=np.zeros(capacity, dtype=np.int32),
        ls=np.zeros(capacity, dtype=np.int32),
        num=np.zeros(capacity, dtype=np.int64),
        exp=np.zeros(capacity, dtype=np.int64),
        correct=np.zeros(capacity),
        acc=np.zeros(capacity),
        fit=np.zeros(capacity),
        cs=np.zeros(capacity),
        ts=np.zeros(capacity, dtype=np.int64),
        birth=np.zeros(capacity, dtype=np.int64),
        size=np.zeros(1, dtype=np.int64),
        micro=np.zeros(1, dtype=np.int64),
    )


def population_bytes(capacity: int, max_specified: int) -> int:
    """The memory `new_population` would take, known before allocating it."""
    return int(capacity) * sum(a.nbytes for a in new_population(1, max_specified)[:-2])


def live(pop: Population) -> Population:
    """Views of the occupied slots only (``size`` and ``micro`` unchanged)."""
    n = int(pop.size[0])
    return Population(*(a[:n] for a in pop[:-2]), pop.size, pop.micro)


def concatenate(a: Population, b: Population) -> Population:
    """The live rules of ``a`` followed by those of ``b`` (of the same width), as one population
    with exactly as many slots as rules."""
    na, nb = int(a.size[0]), int(b.size[0])
    fields = [np.concatenate([x[:na], y[:nb]]) for x, y in zip(a[:-2], b[:-2], strict=True)]
    return Population(*fields, np.array([na + nb]), np.array([int(a.micro[0] + b.micro[0])]))


def dense_bounds(pop: Population, n_features: int):
    """(lower, upper) as ``size x d`` arrays on the scaled axes (clipped to [0, 1]), NaN where a
    feature is a wildcard."""
    p = live(pop)
    n = len(p.nspec)
    lower = np.full((n, n_features), np.nan)
    upper = np.full((n, n_features), np.nan)
    rows, slots = np.nonzero(np.arange(p.feat.shape[1])[None, :] < p.nspec[:, None])
    cols = p.feat[rows, slots]
    lower[rows, cols] = np.maximum(p.center[rows, slots] - p.spread[rows, slots], 0.0)
    upper[rows, cols] = np.minimum(p.center[rows, slots] + p.spread[rows, slots], 1.0)
    return lower, upper


def generality(pop: Population, n_features: int) -> np.ndarray:
    """Per rule, the mean over features of the covered fraction of the axis (wildcards count 1)."""
    p = live(pop)
    width = np.minimum(p.center + p.spread, 1.0) - np.maximum(p.center - p.spread, 0.0)
    widths = np.where(np.arange(p.center.shape[1])[None, :] < p.nspec[:, None], width, 0.0)
    return (n_features - p.nspec + widths.sum(axis=1)) / n_features


@njit
def copy_rule_between(a, i, b, j):
    """Copy every field of rule ``i`` of population ``a`` into slot ``j`` of population ``b``
    (of the same width)."""
    b.feat[j] = a.feat[i]
    b.center[j] = a.center[i]
    b.spread[j] = a.spread[i]
    b.nspec[j] = a.nspec[i]
    b.ls[j] = a.ls[i]
    b.num[j] = a.num[i]
    b.exp[j] = a.exp[i]
    b.correct[j] = a.correct[i]
    b.acc[j] = a.acc[i]
    b.fit[j] = a.fit[i]
    b.cs[j] = a.cs[i]
    b.ts[j] = a.ts[i]
    b.birth[j] = a.birth[i]


@njit
def copy_rule(pop, src, dst):
    """Copy every field of rule ``src`` into slot ``dst``."""
    copy_rule_between(pop, src, pop, dst)


@njit
def remove_rule(pop, i):
    """Drop rule ``i`` (all its copies) by moving the last rule into its slot."""
    pop.micro[0] -= pop.num[i]
    last = pop.size[0] - 1
    if i != last:
        copy_rule(pop, last, i)
    pop.num[last] = 0
    pop.size[0] = last


@njit
def same_condition(pop, i, nspec, feat, center, spread):
    """True if rule ``i``'s condition equals the given sparse condition exactly."""
    if pop.nspec[i] != nspec:
        return False
    for k in range(nspec):
        if (pop.feat[i, k] != feat[k] or pop.center[i, k] != center[k]
                or pop.spread[i, k] != spread[k]):
            return False
    return True


@njit
def insert_rule(pop, nspec, feat, center, spread, ls, fit, acc, cs, iteration):
    """Add one copy of a rule: merged into an identical rule (numerosity + 1) if one exists,
    otherwise appended as a new inexperienced rule. Returns its slot."""
    for i in range(pop.size[0]):
        if pop.ls[i] == ls and same_condition(pop, i, nspec, feat, center, spread):
            pop.num[i] += 1
            pop.micro[0] += 1
            return i
    i = pop.size[0]
    pop.feat[i, :nspec] = feat[:nspec]
    pop.center[i, :nspec] = center[:nspec]
    pop.spread[i, :nspec] = spread[:nspec]
    pop.feat[i, nspec:] = 0
    pop.center[i, nspec:] = 0.0
    pop.spread[i, nspec:] = np.inf
    pop.nspec[i] = nspec
    pop.ls[i] = ls
    pop.num[i] = 1
    pop.exp[i] = 0
    pop.correct[i] = 0.0
    pop.acc[i] = acc
    pop.fit[i] = fit
    pop.cs[i] = cs
    pop.ts[i] = iteration
    pop.birth[i] = iteration
    pop.size[0] = i + 1
    pop.micro[0] += 1
    return i
