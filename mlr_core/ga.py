"""The genetic algorithm in the correct set: selection, uniform crossover, mutation that keeps the
offspring matching, GA subsumption, and the optional correct-set subsumption.

Offspring conditions are built on dense per-feature arrays (``spec``, ``lo``, ``hi`` of length d),
then stored sparsely; labelsets are never changed by the GA.
"""

import numpy as np
from numba import njit

from mlr_core import rng
from mlr_core.covering import random_interval, specify_at_most
from mlr_core.population import insert_rule, remove_rule


@njit(cache=True)
def ga_due(pop, cset, n_correct, iteration, theta_ga):
    """True if the numerosity-weighted mean time since the last GA in [C] exceeds theta_ga."""
    weighted = 0.0
    total = 0
    for k in range(n_correct):
        i = cset[k]
        weighted += pop.ts[i] * pop.num[i]
        total += pop.num[i]
    return iteration - weighted / total > theta_ga


@njit(cache=True)
def select_parent(pop, cset, n_correct, cfg, state):
    """Tournament on fitness among a fraction tau of [C], or roulette on fitness."""
    if cfg.roulette:
        total = 0.0
        for k in range(n_correct):
            total += pop.fit[cset[k]]
        point = rng.uniform(state) * total
        acc = 0.0
        for k in range(n_correct):
            acc += pop.fit[cset[k]]
            if acc > point:
                return cset[k]
        return cset[n_correct - 1]
    size = max(1, int(cfg.tau * n_correct + 0.5))
    best = cset[rng.integer(state, n_correct)]
    for _ in range(size - 1):
        other = cset[rng.integer(state, n_correct)]
        if pop.fit[other] > pop.fit[best]:
            best = other
    return best


@njit(cache=True)
def to_dense(pop, i, spec, lo, hi):
    """Write rule ``i``'s condition into dense per-feature arrays."""
    spec[:] = False
    for k in range(pop.nspec[i]):
        f = pop.feat[i, k]
        spec[f] = True
        lo[f] = pop.lo[i, k]
        hi[f] = pop.hi[i, k]


@njit(cache=True)
def crossover(spec_a, lo_a, hi_a, spec_b, lo_b, hi_b, state):
    """Uniform crossover: each feature's whole interval (or wildcard) swaps with probability 0.5.
    Both parents match x, so both children do."""
    for f in range(spec_a.shape[0]):
        if rng.uniform(state) < 0.5:
            spec_a[f], spec_b[f] = spec_b[f], spec_a[f]
            lo_a[f], lo_b[f] = lo_b[f], lo_a[f]
            hi_a[f], hi_b[f] = hi_b[f], hi_a[f]


@njit(cache=True)
def mutate(spec, lo, hi, x, cfg, state):
    """Per feature with probability mu: a wildcard becomes an interval around x_j; an interval
    becomes a wildcard (probability 0.5) or has its centre and spread moved by U(-m0, m0) and is
    then widened, if needed, to keep containing x_j. An interval spanning the whole axis is a
    wildcard."""
    for f in range(spec.shape[0]):
        if rng.uniform(state) >= cfg.mu:
            continue
        if not spec[f]:
            spec[f] = True
            lo[f], hi[f] = random_interval(x[f], cfg.r0, state)
        elif rng.uniform(state) < 0.5:
            spec[f] = False
        else:
            centre = 0.5 * (lo[f] + hi[f]) + (2.0 * rng.uniform(state) - 1.0) * cfg.m0
            spread = abs(0.5 * (hi[f] - lo[f]) + (2.0 * rng.uniform(state) - 1.0) * cfg.m0)
            spread = max(spread, abs(x[f] - centre))
            lo[f] = max(centre - spread, 0.0)
            hi[f] = min(centre + spread, 1.0)
            if lo[f] <= 0.0 and hi[f] >= 1.0:
                spec[f] = False


@njit(cache=True)
def to_sparse(spec, lo, hi, limit, state):
    """The sparse (feat, lo, hi, count) form, generalising random features beyond ``limit``."""
    chosen = np.nonzero(spec)[0].astype(np.int32)
    count = specify_at_most(chosen, chosen.shape[0], limit, state)
    feat = chosen[:count].copy()
    return feat, lo[feat], hi[feat], count


@njit(cache=True)
def subsumes(pop, i, feat, lo, hi, count):
    """True if rule ``i``'s condition contains the given sparse condition (it is more general:
    every feature it specifies is specified in the other, with a narrower interval)."""
    k = 0
    for p in range(pop.nspec[i]):
        f = pop.feat[i, p]
        while k < count and feat[k] < f:
            k += 1
        if k == count or feat[k] != f:
            return False
        if lo[k] < pop.lo[i, p] or hi[k] > pop.hi[i, p]:
            return False
    return True


@njit(cache=True)
def can_subsume(pop, i, cfg):
    """Experienced and accurate enough to absorb other rules."""
    return pop.exp[i] > cfg.theta_sub and pop.acc[i] > cfg.acc0


@njit(cache=True)
def run_ga(pop, cset, n_correct, x, y_id, cfg, state, iteration):
    """One GA event in [C]; returns how many offspring a parent subsumed."""
    for k in range(n_correct):
        pop.ts[cset[k]] = iteration
    p1 = select_parent(pop, cset, n_correct, cfg, state)
    p2 = select_parent(pop, cset, n_correct, cfg, state)
    d = x.shape[0]
    spec_a = np.empty(d, dtype=np.bool_)
    spec_b = np.empty(d, dtype=np.bool_)
    lo_a, hi_a, lo_b, hi_b = np.empty(d), np.empty(d), np.empty(d), np.empty(d)
    to_dense(pop, p1, spec_a, lo_a, hi_a)
    to_dense(pop, p2, spec_b, lo_b, hi_b)
    if rng.uniform(state) < cfg.chi:
        crossover(spec_a, lo_a, hi_a, spec_b, lo_b, hi_b, state)
    child_fit = 0.5 * (pop.fit[p1] + pop.fit[p2]) * 0.1
    child_acc = 0.5 * (pop.acc[p1] + pop.acc[p2])
    child_cs = 0.5 * (pop.cs[p1] + pop.cs[p2])
    subsumed = 0
    for child in range(2):
        spec, lo, hi = (spec_a, lo_a, hi_a) if child == 0 else (spec_b, lo_b, hi_b)
        mutate(spec, lo, hi, x, cfg, state)
        feat, c_lo, c_hi, count = to_sparse(spec, lo, hi, cfg.max_specified, state)
        absorbed = False
        if cfg.ga_subsumption:
            for parent in (p1, p2):
                if can_subsume(pop, parent, cfg) and subsumes(pop, parent, feat, c_lo, c_hi, count):
                    pop.num[parent] += 1
                    pop.micro[0] += 1
                    absorbed = True
                    break
        if absorbed:
            subsumed += 1
        else:
            insert_rule(pop, count, feat, c_lo, c_hi, y_id, child_fit, child_acc, child_cs,
                        iteration)
    return subsumed


@njit(cache=True)
def correct_set_subsumption(pop, cset, n_correct, cfg):
    """The most general experienced, accurate rule of [C] absorbs every rule of [C] it contains.
    Returns how many rules were absorbed."""
    best = -1
    best_generality = -1.0
    for k in range(n_correct):
        i = cset[k]
        if can_subsume(pop, i, cfg):
            g = -float(pop.nspec[i])
            for p in range(pop.nspec[i]):
                g += pop.hi[i, p] - pop.lo[i, p]
            if g > best_generality:
                best, best_generality = i, g
    if best < 0:
        return 0
    victims = []
    for k in range(n_correct):
        i = cset[k]
        n = pop.nspec[i]
        if i != best and subsumes(pop, best, pop.feat[i, :n], pop.lo[i, :n], pop.hi[i, :n], n):
            victims.append(i)
    victims.sort()
    for v in victims[::-1]:
        pop.num[best] += pop.num[v]
        pop.micro[0] += pop.num[v]
        last = pop.size[0] - 1
        remove_rule(pop, v)
        if best == last:  # the last rule was moved into the freed slot
            best = v
    return len(victims)
