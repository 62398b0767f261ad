"""An optional record of what one training iteration did, filled by the cycle's own kernels.

The kernels take ``trace`` as their last argument: ``None`` in normal training, where numba
compiles the recording away (it prunes ``if trace is not None`` branches on a None argument), or
a `Trace` made by `new_trace` when :meth:`TrainingSession.step_traced` asks what happened. Rules
are recorded as copies (small populations), since a removal moves rules between slots.
"""

from collections import namedtuple

import numpy as np

from mlr_core._engine.jit import njit
from mlr_core._engine.population import NO_SET, copy_rule_between, new_population

Trace = namedtuple(
    "Trace", "ints mset cset offspring offspring_sets covering parents children subsumed deleted"
)
Trace.__doc__ = """``ints``: the scalars below; ``mset``/``cset``: the slots of [M] and [C] before
covering; ``offspring``: per child, after crossover (0) and after mutation (1), the dense
``spec, centre, spread`` rows, and ``offspring_sets`` their sets (per feature, as ``allowed``;
0 wide for numeric data); the rest are copies of rules (covering rule, parents, offspring
as stored, rules absorbed by correct-set subsumption, deleted copies)."""

# Positions in ``ints``.
(ROW, N_MATCH, N_CORRECT, COVERED, GA, PARENT1, PARENT2, CROSSED, FATE1, FATE2, N_SUBSUMED,
 N_DELETED) = range(12)
N_INTS = 12
BY_PARENT1, BY_PARENT2 = 1, 2  # a child's fate when a parent subsumed it (else -1)


def new_trace(capacity: int, max_specified: int, n_features: int, sets: bool = False) -> Trace:
    """Empty buffers for one iteration of a population of ``capacity`` slots (``sets``: with
    nominal tests, see ``population.new_population``)."""
    ints = np.full(N_INTS, -1, dtype=np.int64)
    ints[[GA, N_SUBSUMED, N_DELETED]] = 0
    return Trace(
        ints=ints,
        mset=np.empty(capacity, dtype=np.int64),
        cset=np.empty(capacity, dtype=np.int64),
        offspring=np.zeros((2, 2, 3, n_features)),
        offspring_sets=np.full((2, 2, n_features if sets else 0), NO_SET),
        covering=new_population(1, max_specified, sets),
        parents=new_population(2, max_specified, sets),
        children=new_population(2, max_specified, sets),
        subsumed=new_population(capacity, max_specified, sets),
        deleted=new_population(capacity, max_specified, sets),
    )


@njit
def record_sets(trace, row, mset, n_match, cset, n_correct):
    trace.ints[ROW] = row
    trace.ints[N_MATCH] = n_match
    trace.ints[N_CORRECT] = n_correct
    trace.mset[:n_match] = mset[:n_match]
    trace.cset[:n_correct] = cset[:n_correct]


@njit
def record_rule(log, k, pop, i):
    """Copy rule ``i`` of ``pop`` into slot ``k`` of the log population."""
    copy_rule_between(pop, i, log, k)
    log.size[0] = max(log.size[0], k + 1)


@njit
def record_offspring(trace, child, stage, spec, c, s, a):
    trace.offspring[child, stage, 0] = spec
    trace.offspring[child, stage, 1] = c
    trace.offspring[child, stage, 2] = s
    trace.offspring_sets[child, stage] = a  # both 0 wide for numeric data
