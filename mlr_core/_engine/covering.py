"""Covering: when no rule in the match set advocates the instance's labelset, make one that does."""

import numpy as np

from mlr_core._engine import rng
from mlr_core._engine.jit import njit
from mlr_core._engine.population import insert_rule


@njit
def random_spread(r0, state):
    """Half the side length of a new interval, the side drawn from U[0.5 r0, 1.5 r0]."""
    return 0.5 * r0 * (0.5 + rng.uniform(state))


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
    around ``x_j``. At most ``max_specified`` features are specified. A feature whose value is
    missing (NaN) stays a wildcard, as in ExSTraCS: no interval is centred on it.
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
    for k in range(count):
        center[k] = x[chosen[k]]
        spread[k] = random_spread(cfg.r0, state)
    return insert_rule(pop, count, chosen[:count], center, spread, ls_id, 1.0, 1.0, 1.0,
                       iteration)
