"""Subsumption: an experienced, accurate rule absorbs the copies of rules it contains (a more
general condition, the same labelset), in the GA (offspring by a parent) and, optionally, in
the whole correct set.
"""

import numpy as np

from mlr_core._engine.jit import njit
from mlr_core._engine.population import NO_SET, has_sets, remove_rule
from mlr_core._engine.trace import N_SUBSUMED, record_rule


@njit
def subsumes(pop, i, feat, center, spread, allowed, count):
    """True if rule ``i``'s condition contains the given sparse condition (it is more general:
    every feature it specifies is specified in the other, with a narrower interval or a subset
    of its set)."""
    k = 0
    for p in range(pop.nspec[i]):
        f = pop.feat[i, p]
        while k < count and feat[k] < f:
            k += 1
        if k == count or feat[k] != f:
            return False
        if (center[k] - spread[k] < pop.center[i, p] - pop.spread[i, p]
                or center[k] + spread[k] > pop.center[i, p] + pop.spread[i, p]):
            return False
        if has_sets(pop) and allowed[k] & ~pop.allowed[i, p] != 0:
            return False
    return True


@njit
def set_share(allowed, n_categories):
    """The share of a nominal feature's ``n_categories`` codes the bitmask ``allowed`` holds
    (a nominal test's generality, as ``2 * spread`` is an interval's)."""
    count = 0
    for code in range(n_categories):
        count += (allowed >> np.uint64(code)) & np.uint64(1)
    return count / n_categories


@njit
def can_subsume(pop, i, cfg):
    """Experienced and accurate enough to absorb other rules."""
    return pop.exp[i] > cfg.theta_sub and pop.acc[i] > cfg.acc0


@njit
def correct_set_subsumption(pop, cset, n_correct, cfg, trace):
    """The most general experienced, accurate rule of [C] absorbs every rule of [C] it contains.
    Returns how many rules were absorbed (copied into ``trace`` unless it is None)."""
    best = -1
    best_generality = -1.0
    for k in range(n_correct):
        i = cset[k]
        if can_subsume(pop, i, cfg):
            g = -float(pop.nspec[i])
            for p in range(pop.nspec[i]):
                if has_sets(pop) and pop.allowed[i, p] != NO_SET:
                    g += set_share(pop.allowed[i, p], cfg.levels[pop.feat[i, p]])
                else:
                    g += 2.0 * pop.spread[i, p]
            if g > best_generality:
                best, best_generality = i, g
    if best < 0:
        return 0
    victims = []
    for k in range(n_correct):
        i = cset[k]
        n = pop.nspec[i]
        if i != best and subsumes(
            pop, best, pop.feat[i, :n], pop.center[i, :n], pop.spread[i, :n],
            pop.allowed[i, :n], n
        ):
            victims.append(i)
    victims.sort()
    for v in victims[::-1]:
        if trace is not None:
            record_rule(trace.subsumed, trace.ints[N_SUBSUMED], pop, v)
            trace.ints[N_SUBSUMED] += 1
        pop.num[best] += pop.num[v]
        pop.micro[0] += pop.num[v]
        last = pop.size[0] - 1
        remove_rule(pop, v)
        if best == last:  # the last rule was moved into the freed slot
            best = v
    return len(victims)
