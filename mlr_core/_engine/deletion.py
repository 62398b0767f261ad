"""Deletion: keep the micro population at most N by removing copies chosen by roulette wheel."""

import numpy as np

from mlr_core._engine import rng
from mlr_core._engine.jit import njit
from mlr_core._engine.population import remove_rule
from mlr_core._engine.trace import N_DELETED, record_rule

_TINY = 1e-300  # a floor on fitness so that the deletion vote of a 0-fitness rule is finite


@njit
def cumulative_deletion_votes(pop, cfg, out):
    """Write into ``out`` the running totals of the rules' deletion votes (``cs * num``, times
    ``mean_F / F`` for experienced rules far below the mean fitness), summed in rule order;
    the last is the wheel's whole size."""
    n = pop.size[0]
    total_fit = 0.0
    for i in range(n):
        total_fit += pop.fit[i] * pop.num[i]
    mean_fit = total_fit / max(pop.micro[0], 1)
    acc = 0.0
    for i in range(n):
        v = pop.cs[i] * pop.num[i]
        if pop.exp[i] > cfg.theta_del and pop.fit[i] < cfg.delta * mean_fit:
            v *= mean_fit / max(pop.fit[i], _TINY)
        acc += v
        out[i] = acc


@njit
def first_above(totals, n, point):
    """The first of the ``n`` running totals above ``point`` (``n - 1`` if none is), found by
    bisection: the totals never decrease (the votes are >= 0), so this is the rule a scan of
    the wheel from the start stops at, at a logarithmic cost. A NaN point is above none."""
    low, high = 0, n
    while low < high:
        mid = (low + high) // 2
        if totals[mid] > point:
            high = mid
        else:
            low = mid + 1
    return min(low, n - 1)


@njit
def delete_excess(pop, cfg, state, trace):
    """Remove one copy at a time until ``micro <= N``; return how many copies were removed
    (each copied into ``trace`` unless it is None). The votes are summed again before each
    removal: the mean fitness behind them moves with it."""
    removed = 0
    if pop.micro[0] <= cfg.n_rules:
        return removed
    totals = np.empty(pop.size[0])
    while pop.micro[0] > cfg.n_rules:
        n = pop.size[0]
        cumulative_deletion_votes(pop, cfg, totals)
        chosen = first_above(totals, n, rng.uniform(state) * totals[n - 1])
        if trace is not None:
            record_rule(trace.deleted, trace.ints[N_DELETED], pop, chosen)
            trace.ints[N_DELETED] += 1
        if pop.num[chosen] > 1:
            pop.num[chosen] -= 1
            pop.micro[0] -= 1
        else:
            remove_rule(pop, chosen)
        removed += 1
    return removed
