"""Deletion: keep the micro population at most N by removing copies chosen by roulette wheel."""

import numpy as np

from mlr_core._engine import rng
from mlr_core._engine.jit import njit
from mlr_core._engine.population import remove_rule
from mlr_core._engine.trace import N_DELETED, record_rule

_TINY = 1e-300  # a floor on fitness so that the deletion vote of a 0-fitness rule is finite


@njit
def deletion_votes(pop, cfg):
    """Vote ``cs * num``, times ``mean_F / F`` for experienced rules far below the mean fitness."""
    n = pop.size[0]
    total_fit = 0.0
    for i in range(n):
        total_fit += pop.fit[i] * pop.num[i]
    mean_fit = total_fit / max(pop.micro[0], 1)
    votes = np.empty(n)
    for i in range(n):
        v = pop.cs[i] * pop.num[i]
        if pop.exp[i] > cfg.theta_del and pop.fit[i] < cfg.delta * mean_fit:
            v *= mean_fit / max(pop.fit[i], _TINY)
        votes[i] = v
    return votes


@njit
def delete_excess(pop, cfg, state, trace):
    """Remove one copy at a time until ``micro <= N``; return how many copies were removed
    (each copied into ``trace`` unless it is None)."""
    removed = 0
    while pop.micro[0] > cfg.n_rules:
        votes = deletion_votes(pop, cfg)
        point = rng.uniform(state) * votes.sum()
        chosen = pop.size[0] - 1
        acc = 0.0
        for i in range(pop.size[0]):
            acc += votes[i]
            if acc > point:
                chosen = i
                break
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
