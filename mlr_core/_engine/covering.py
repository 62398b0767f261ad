"""Covering: when no rule in the match set advocates the instance's labelset, make one that does."""

import numpy as np

from mlr_core._engine import rng
from mlr_core._engine.jit import njit
from mlr_core._engine.population import NO_SET, has_sets, insert_rule


@njit
def random_spread(r0, state):
    """Half the side length of a new interval, the side drawn from U[0.5 r0, 1.5 r0]."""
    return 0.5 * r0 * (0.5 + rng.uniform(state))


@njit
def full_set(n_categories):
    """The bitmask holding every code of a feature of ``n_categories`` categories."""
    if n_categories >= 64:
        return NO_SET
    return (np.uint64(1) << np.uint64(n_categories)) - np.uint64(1)


SET_SHARE = 0.5
"""The ``r0`` a new nominal test's share of the training rows is drawn from (`random_set`), as a
new interval's side is from ``r0``. Fixed, not the estimator's ``r0``: with the rank axis's 0.75
flags' sets were too wide (``docs/nominal_features.md``)."""


@njit
def random_set(value, shares, n_categories, state):
    """A new nominal test around the code ``value``, the analogue of an interval on the rank
    axis, which covers a share of the training rows: that code, then the others in random
    order, each joining while the set's share of the training rows (``shares``: per code) stays
    within a share drawn as a new interval's side, U[0.5, 1.5] `SET_SHARE`; the full set (a
    wildcard) when every code joined."""
    allowed = np.uint64(1) << np.uint64(value)
    covered, target = shares[value], 2.0 * random_spread(SET_SHARE, state)
    order = np.arange(n_categories)
    rng.shuffle(state, order)
    for code in order:
        if code != value and covered + shares[code] <= target:
            covered += shares[code]
            allowed |= np.uint64(1) << np.uint64(code)
    return allowed


@njit(inline="always")  # called per feature
def nominal(cfg, f):
    """True if feature ``f`` is nominal (``cfg.levels``: the category counts, empty for numeric
    data)."""
    return cfg.levels.shape[0] > 0 and cfg.levels[f] > 0


@njit
def specify_at_most(chosen, count, limit, state):
    """Keep a random ``limit`` of the first ``count`` entries of ``chosen``, sorted; return the
    new count (the rule specificity limit, as in ExSTraCS)."""
    if count <= limit:
        return count
    for i in range(limit):
        j = i + rng.integer(state, count - i)
        chosen[i], chosen[j] = chosen[j], chosen[i]
    chosen[:limit] = np.sort(chosen[:limit])
    return limit


@njit
def cover(pop, x, ls_id, cfg, state, iteration):
    """Insert a rule that matches ``x`` and predicts labelset ``ls_id``; return its slot.

    Each feature is a wildcard with probability ``p_hash``; the others get a random interval
    around ``x_j`` (a nominal one a `random_set` around its code). At most ``max_specified``
    features are specified. A feature whose value is missing (NaN) stays a wildcard, as in
    ExSTraCS: no interval or set is centred on it.
    """
    d = x.shape[0]
    chosen = np.empty(d, dtype=np.int32)
    count = 0
    for j in range(d):
        if rng.uniform(state) >= cfg.p_hash and not np.isnan(x[j]):
            chosen[count] = j
            count += 1
    count = specify_at_most(chosen, count, cfg.max_specified, state)
    center = np.empty(count)
    spread = np.empty(count)
    allowed = np.full(count if has_sets(pop) else 0, NO_SET)
    kept = 0
    for k in range(count):
        f = chosen[k]
        if nominal(cfg, f):
            allowed[kept] = random_set(int(x[f]), cfg.shares[f], cfg.levels[f], state)
            if allowed[kept] == full_set(cfg.levels[f]):
                continue
            center[kept], spread[kept] = 0.0, 0.0
        else:
            center[kept] = x[f]
            spread[kept] = random_spread(cfg.r0, state)
            if has_sets(pop):
                allowed[kept] = NO_SET  # a set drawn full for a feature skipped above
        chosen[kept] = f
        kept += 1
    return insert_rule(pop, kept, chosen[:kept], center, spread, allowed, ls_id, 1.0, 1.0,
                       1.0, iteration)
