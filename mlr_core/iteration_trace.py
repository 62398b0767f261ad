"""What one training iteration did, in words: the instance drawn, [M], [C], covering, the GA's
parents and offspring, subsumption and deletion (:meth:`TrainingSession.step_traced`).

The events come from the training kernels themselves (``_engine/trace.py``): the traced
iteration is the very code `learn` runs, with a record kept on the side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlr_core._engine import trace as tr
from mlr_core._engine.population import dense_bounds, dense_sets, live


@dataclass(frozen=True)
class GAEvent:
    """One GA event in [C].

    Attributes
    ----------
    parents : list of str
        The two parents selected (they may be the same rule).
    parent_ids : list of int
        Their row positions in `IterationTrace.rules_before` (one equal to its length is the rule
        that covering made in this iteration).
    crossover : bool
        Whether crossover ran (else the offspring start as copies of the parents).
    after_crossover, after_mutation : list of str
        The two offspring after crossover and after mutation.
    fates : list of str
        ``"inserted"`` or ``"subsumed by parent 1"`` / ``"... 2"``, per offspring.
    stored : list of str or None
        The offspring as stored (at most ``max_specified`` features kept; merged into an
        identical rule if one existed); None where a parent subsumed it.
    """

    parents: list
    parent_ids: list
    crossover: bool
    after_crossover: list
    after_mutation: list
    fates: list
    stored: list


@dataclass(frozen=True)
class IterationTrace:
    """One training iteration.

    Attributes
    ----------
    iteration : int
        Its number (iterations before it).
    row : int
        The training row drawn (its index in the data bound by ``start``/``fit``).
    labelset : list of str
        That row's labels.
    rules_before : DataFrame
        ``rules_frame()`` before the iteration; the rule numbers below are its row positions.
    match_set, correct_set : list of int
        [M] and [C] before covering.
    covering : str or None
        The rule covering made when [C] was empty.
    ga : GAEvent or None
        The GA event, if one was due.
    subsumed : list of str
        Rules absorbed by correct-set subsumption.
    deleted : list of str
        One entry per copy deleted to get back to N.
    """

    iteration: int
    row: int
    labelset: list
    rules_before: pd.DataFrame
    match_set: list
    correct_set: list
    covering: str | None
    ga: GAEvent | None
    subsumed: list
    deleted: list

    def text(self) -> str:
        """A plain-text account, for notebooks and logs."""
        rules = self.rules_before["rule"]
        lines = [f"Iteration {self.iteration}: row {self.row}, labels {self.labelset}",
                 f"[M]: {len(self.match_set)} rules, [C]: {len(self.correct_set)} rules"]
        lines += [f"  {'C' if i in self.correct_set else 'M'} {rules.iloc[i]}"
                  for i in self.match_set]
        if self.covering:
            lines.append(f"covering: {self.covering}")
        if self.ga:
            g = self.ga
            lines.append(f"GA: parents {g.parents[0]} | {g.parents[1]}; "
                         f"crossover {'yes' if g.crossover else 'no'}")
            for k in range(2):
                lines.append(f"  offspring {k + 1}: {g.after_crossover[k]} -> "
                             f"{g.after_mutation[k]} ({g.fates[k]})")
        lines += [f"subsumed: {rule}" for rule in self.subsumed]
        lines += [f"deleted: {rule}" for rule in self.deleted]
        return "\n".join(lines)


def describe(trace: tr.Trace, rules_before: pd.DataFrame, iteration: int, labelsets,
             row_bits, label_names, texts) -> IterationTrace:
    """Put a kernel ``trace`` into words. ``labelsets`` are the run's labelsets (rules refer to
    them by row), ``row_bits`` the drawn row's labelset; ``texts(scaled_lower, scaled_upper,
    labelset_bits, sets=None)`` writes rules as the estimator does (``sets``: their nominal
    tests, `dense_sets`; the offspring's are not recorded)."""
    ints = trace.ints

    def logged(log):
        if log.size[0] == 0:
            return []
        lower, upper = dense_bounds(log, trace.offspring.shape[-1])
        return texts(lower, upper, labelsets[live(log).ls],
                     dense_sets(log, trace.offspring.shape[-1]))

    def dense(child, stage):
        spec, c, s = trace.offspring[child, stage]
        spec = spec.astype(bool)
        lower = np.where(spec, np.maximum(c - s, 0.0), np.nan)[None, :]
        upper = np.where(spec, np.minimum(c + s, 1.0), np.nan)[None, :]
        return texts(lower, upper, row_bits[None, :])[0]

    ga = None
    if ints[tr.GA]:
        parents = logged(trace.parents)
        children = logged(trace.children)
        fates, stored = [], []
        for k in range(2):
            fate = ints[tr.FATE1 + k]
            fates.append("inserted" if fate < 0 else f"subsumed by parent {fate}")
            stored.append(children[k] if fate < 0 else None)
        ga = GAEvent(
            parents=parents,
            parent_ids=[int(ints[tr.PARENT1]), int(ints[tr.PARENT2])],
            crossover=bool(ints[tr.CROSSED]),
            after_crossover=[dense(k, 0) for k in range(2)],
            after_mutation=[dense(k, 1) for k in range(2)],
            fates=fates,
            stored=stored,
        )
    return IterationTrace(
        iteration=iteration,
        row=int(ints[tr.ROW]),
        labelset=[name for name, bit in zip(label_names, row_bits, strict=True) if bit],
        rules_before=rules_before,
        match_set=trace.mset[: ints[tr.N_MATCH]].tolist(),
        correct_set=trace.cset[: ints[tr.N_CORRECT]].tolist(),
        covering=logged(trace.covering)[0] if ints[tr.COVERED] >= 0 else None,
        ga=ga,
        subsumed=logged(trace.subsumed),
        deleted=logged(trace.deleted),
    )
