"""One MLR training iteration (the UCS cycle), compiled, run k times per call.

All state lives in arrays owned by a training run (``mlr_core/training_run.py``): the
population, the random generator, the epoch order and the event counters, so a run can be paused
after any iteration and continued.
"""

from collections import namedtuple

import numpy as np

from mlr_core._engine import rng
from mlr_core._engine.clock import COVERING, DELETION, GA, MATCHING, SUBSUMPTION, UPDATE, lap, start
from mlr_core._engine.covering import cover
from mlr_core._engine.deletion import delete_excess
from mlr_core._engine.ga import ga_due, run_ga
from mlr_core._engine.jit import njit
from mlr_core._engine.matching import match_set
from mlr_core._engine.rows import row_of, row_scratch
from mlr_core._engine.subsumption import correct_set_subsumption
from mlr_core._engine.trace import COVERED, record_rule, record_sets
from mlr_core._engine.trace import GA as TRACE_GA
from mlr_core._engine.update import update_sets
from mlr_core.params import ENGINE_FIELDS

Config = namedtuple("Config", (*ENGINE_FIELDS, "levels", "shares"),
                    defaults=(np.zeros(0, np.int64), np.zeros((0, 0))))
Config.__doc__ = """The kernels' view of the estimator's parameters (``auto`` values resolved): a
field per parameter declared with an ``engine`` conversion (``mlr_core/params.py``), and the
data's ``levels``: per feature its number of categories (0: numeric), and ``shares``: per
feature and code the category's share of the training rows; both empty when no feature is
nominal (``Scaling.levels``, ``Scaling.share_table``; the training run sets them)."""

# Positions in the counters array.
ITERATION, POSITION, EPOCH, N_COVERING, N_GA, N_SUBSUMPTION, N_DELETION, N_MATCHED = range(8)
N_COUNTERS = 8


@njit
def run_iterations(pop, X, y_ids, scores, order, counters, state, cfg, n_iterations, trace,
                   clock):
    """Advance training by ``n_iterations`` instances of the shuffled training set.

    ``X`` is scaled to [0, 1] (a matrix, or ``SparseRows``: ``rows.py``); ``y_ids[i]`` indexes
    instance i's labelset in ``scores`` (the labelsets and their scores, see ``update.py``).
    ``trace`` is None, or a ``trace.Trace`` that records the (single) iteration; ``clock`` is
    None, or a ``clock.new_clock()`` array that counts the CPU cycles of each step.
    """
    capacity = pop.nspec.shape[0]
    mset = np.empty(capacity, dtype=np.int64)
    cset = np.empty(capacity, dtype=np.int64)
    scratch = row_scratch(X)
    for _ in range(n_iterations):
        if counters[POSITION] == order.shape[0]:
            rng.shuffle(state, order)
            counters[POSITION] = 0
            counters[EPOCH] += 1
        row = order[counters[POSITION]]
        counters[POSITION] += 1
        iteration = counters[ITERATION]
        x = row_of(X, row, scratch)
        y_id = y_ids[row]

        t = start(clock)
        n_match = match_set(pop, x, mset)
        if n_match > 0:
            counters[N_MATCHED] += 1
        n_correct = 0
        for k in range(n_match):
            if pop.ls[mset[k]] == y_id:
                cset[n_correct] = mset[k]
                n_correct += 1
        if trace is not None:
            record_sets(trace, row, mset, n_match, cset, n_correct)
        t = lap(clock, MATCHING, t)
        if n_correct == 0:
            new = cover(pop, x, y_id, cfg, state, iteration)
            if trace is not None:
                trace.ints[COVERED] = new
                record_rule(trace.covering, 0, pop, new)
            mset[n_match] = new
            cset[0] = new
            n_match += 1
            n_correct = 1
            counters[N_COVERING] += 1
        t = lap(clock, COVERING, t)

        update_sets(pop, mset, n_match, cset, n_correct, y_id, scores, cfg)
        t = lap(clock, UPDATE, t)
        if ga_due(pop, cset, n_correct, iteration, cfg.theta_ga):
            counters[N_SUBSUMPTION] += run_ga(pop, cset, n_correct, x, y_id, cfg, state, iteration,
                                              trace)
            counters[N_GA] += 1
            if trace is not None:
                trace.ints[TRACE_GA] = 1
        t = lap(clock, GA, t)
        if cfg.correct_set_subsumption:
            counters[N_SUBSUMPTION] += correct_set_subsumption(pop, cset, n_correct, cfg, trace)
        t = lap(clock, SUBSUMPTION, t)
        counters[N_DELETION] += delete_excess(pop, cfg, state, trace)
        lap(clock, DELETION, t)
        counters[ITERATION] += 1
