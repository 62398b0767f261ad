"""The genetic algorithm in the correct set: selection, uniform crossover, mutation that keeps the
offspring matching, and GA subsumption of the offspring by their parents (``subsumption.py``).

Offspring conditions are built on dense per-feature arrays (``spec``, ``c``, ``s``, and ``a``
the nominal tests' sets, of length d), then stored sparsely; labelsets are never changed by the
GA.
"""

import numpy as np

from mlr_core._engine import rng
from mlr_core._engine.covering import full_set, nominal, random_set, random_spread, specify_at_most
from mlr_core._engine.jit import njit
from mlr_core._engine.matching import in_set
from mlr_core._engine.population import NO_SET, has_sets, insert_rule
from mlr_core._engine.subsumption import can_subsume, subsumes
from mlr_core._engine.trace import (
    BY_PARENT1,
    CROSSED,
    FATE1,
    PARENT1,
    PARENT2,
    record_offspring,
    record_rule,
)


@njit
def ga_due(pop, cset, n_correct, iteration, theta_ga):
    """True if the numerosity-weighted mean time since the last GA in [C] exceeds theta_ga."""
    weighted = 0.0
    total = 0
    for k in range(n_correct):
        i = cset[k]
        weighted += pop.ts[i] * pop.num[i]
        total += pop.num[i]
    return iteration - weighted / total > theta_ga


@njit
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


@njit
def to_dense(pop, i, spec, c, s, a):
    """Write rule ``i``'s condition into dense per-feature arrays (``a`` where `has_sets`)."""
    spec[:] = False
    for k in range(pop.nspec[i]):
        f = pop.feat[i, k]
        spec[f] = True
        c[f] = pop.center[i, k]
        s[f] = pop.spread[i, k]
        if has_sets(pop):
            a[f] = pop.allowed[i, k]


@njit
def crossover(spec_a, c_a, s_a, a_a, spec_b, c_b, s_b, a_b, state):
    """Uniform crossover: each feature's whole interval or set (or wildcard) swaps with
    probability 0.5 (``a_a``, ``a_b``: empty for numeric data). Both parents match x, so both
    children do."""
    for f in range(spec_a.shape[0]):
        if rng.uniform(state) < 0.5:
            spec_a[f], spec_b[f] = spec_b[f], spec_a[f]
            c_a[f], c_b[f] = c_b[f], c_a[f]
            s_a[f], s_b[f] = s_b[f], s_a[f]
            if a_a.shape[0]:
                a_a[f], a_b[f] = a_b[f], a_a[f]


@njit
def mutate_set(spec, a, f, x, cfg, state):
    """`mutate` on the nominal feature ``f``: a wildcard becomes a `random_set` around x_f's
    code (stays a wildcard when x_f has none); a set becomes a wildcard (probability 0.5) or
    has one random code other than x_f's added or removed. A set of every code is a wildcard."""
    full = full_set(cfg.levels[f])
    if not spec[f]:
        if in_set(full, x[f]):
            spec[f] = True
            a[f] = random_set(int(x[f]), cfg.shares[f], cfg.levels[f], state)
    elif rng.uniform(state) < 0.5:
        spec[f] = False
    else:
        bit = np.uint64(1) << np.uint64(rng.integer(state, cfg.levels[f]))
        if not in_set(bit, x[f]):  # x_f's own code stays
            a[f] ^= bit
    if spec[f] and a[f] == full:
        spec[f] = False


@njit
def mutate(spec, c, s, a, x, cfg, state):
    """Per feature with probability mu: a wildcard becomes an interval around x_j; an interval
    becomes a wildcard (probability 0.5) or has its centre and spread moved by U(-m0, m0) and is
    then widened, if needed, to keep containing x_j. An interval spanning the whole axis is a
    wildcard. A nominal feature mutates by `mutate_set`. A feature whose value is missing (NaN)
    is left as it is: there is no x_j to centre on or to keep containing."""
    for f in range(spec.shape[0]):
        if rng.uniform(state) >= cfg.mu or np.isnan(x[f]):
            continue
        if nominal(cfg, f):
            mutate_set(spec, a, f, x, cfg, state)
            c[f], s[f] = 0.0, 0.0
        elif not spec[f]:
            spec[f] = True
            c[f] = x[f]
            s[f] = random_spread(cfg.r0, state)
        elif rng.uniform(state) < 0.5:
            spec[f] = False
        else:
            c[f] += (2.0 * rng.uniform(state) - 1.0) * cfg.m0
            s[f] = abs(s[f] + (2.0 * rng.uniform(state) - 1.0) * cfg.m0)
            s[f] = max(s[f], abs(x[f] - c[f]))
            if c[f] - s[f] <= 0.0 and c[f] + s[f] >= 1.0:
                spec[f] = False


@njit
def to_sparse(spec, c, s, a, limit, state):
    """The sparse (feat, centre, spread, allowed, count) form, generalising random features
    beyond ``limit`` (``allowed`` empty, as ``a``, for numeric data)."""
    chosen = np.nonzero(spec)[0].astype(np.int32)
    count = specify_at_most(chosen, chosen.shape[0], limit, state)
    feat = chosen[:count].copy()
    return feat, c[feat], s[feat], a[feat] if a.shape[0] else a, count


@njit
def run_ga(pop, cset, n_correct, x, y_id, cfg, state, iteration, trace):
    """One GA event in [C]; returns how many offspring a parent subsumed. ``trace``: None, or
    a ``trace.Trace`` that records parents and offspring."""
    for k in range(n_correct):
        pop.ts[cset[k]] = iteration
    p1 = select_parent(pop, cset, n_correct, cfg, state)
    p2 = select_parent(pop, cset, n_correct, cfg, state)
    d = x.shape[0]
    spec_a = np.empty(d, dtype=np.bool_)
    spec_b = np.empty(d, dtype=np.bool_)
    c_a, s_a, c_b, s_b = np.empty(d), np.empty(d), np.empty(d), np.empty(d)
    width = d if has_sets(pop) else 0  # numeric data: no sets to carry
    a_a, a_b = np.full(width, NO_SET), np.full(width, NO_SET)
    to_dense(pop, p1, spec_a, c_a, s_a, a_a)
    to_dense(pop, p2, spec_b, c_b, s_b, a_b)
    crossed = rng.uniform(state) < cfg.chi
    if crossed:
        crossover(spec_a, c_a, s_a, a_a, spec_b, c_b, s_b, a_b, state)
    if trace is not None:
        trace.ints[PARENT1], trace.ints[PARENT2], trace.ints[CROSSED] = p1, p2, crossed
        record_rule(trace.parents, 0, pop, p1)
        record_rule(trace.parents, 1, pop, p2)
        record_offspring(trace, 0, 0, spec_a, c_a, s_a, a_a)
        record_offspring(trace, 1, 0, spec_b, c_b, s_b, a_b)
    child_fit = 0.5 * (pop.fit[p1] + pop.fit[p2]) * 0.1
    child_acc = 0.5 * (pop.acc[p1] + pop.acc[p2])
    child_cs = 0.5 * (pop.cs[p1] + pop.cs[p2])
    subsumed = 0
    for child in range(2):
        spec, c, s, a = (spec_a, c_a, s_a, a_a) if child == 0 else (spec_b, c_b, s_b, a_b)
        mutate(spec, c, s, a, x, cfg, state)
        if trace is not None:
            record_offspring(trace, child, 1, spec, c, s, a)
        feat, center, spread, allowed, count = to_sparse(spec, c, s, a, cfg.max_specified,
                                                         state)
        absorbed = False
        if cfg.ga_subsumption:
            for rank, parent in enumerate((p1, p2)):
                if can_subsume(pop, parent, cfg) and subsumes(
                    pop, parent, feat, center, spread, allowed, count
                ):
                    pop.num[parent] += 1
                    pop.micro[0] += 1
                    absorbed = True
                    if trace is not None:
                        trace.ints[FATE1 + child] = BY_PARENT1 + rank
                    break
        if absorbed:
            subsumed += 1
        else:
            slot = insert_rule(pop, count, feat, center, spread, allowed, y_id, child_fit,
                               child_acc, child_cs, iteration)
            if trace is not None:
                record_rule(trace.children, child, pop, slot)
    return subsumed
