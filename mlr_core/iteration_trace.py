"""What one training iteration did, in words: the instance drawn, [M], [C], covering, the GA's
parents and offspring, subsumption and deletion (:meth:`TrainingSession.step_traced`).

The events come from the training kernels themselves (``_engine/trace.py``): the traced
iteration is the very code `learn` runs, with a record kept on the side.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlr_core._engine import trace as tr
from mlr_core._engine.population import NO_SET, dense_bounds, dense_sets, live
from mlr_core.rule_set import texts

RulePairs = namedtuple("RulePairs", "n_rules rule feature lower upper allowed")
RulePairs.__doc__ = """Rules as data, the (rule, feature) pairs they specify, rule-major, as
`MLRClassifier.rule_bound_pairs` gives them (bounds in the data's units) with each pair's set:
the category codes a nominal test allows (a uint64 bitmask, `population.NO_SET` for a numeric
test); ``allowed`` is None when no feature is nominal."""


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
    bounds : dict of str to RulePairs
        The rules above as data, for drawing them (their texts are for people), each event's
        rules in the order of its texts: ``"subsumed"`` and ``"deleted"`` always (perhaps no
        rules), ``"covering"`` when covering ran, and with a GA ``"parents"``,
        ``"after_crossover"``, ``"after_mutation"`` and ``"stored"`` (the offspring stored).
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
    bounds: dict

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
             row_bits, label_names, feature_names, scaling) -> IterationTrace:
    """Put a kernel ``trace`` into words and data. ``labelsets`` are the run's labelsets (rules
    refer to them by row), ``row_bits`` the drawn row's labelset; each event's rules are written
    as the estimator writes them (`rule_set.texts`) and kept in the data's units (`RulePairs`),
    so that nothing has to read a text back."""
    ints = trace.ints
    bounds = {}

    def kept(event, lower, upper, bits, sets):
        """The texts of one event's rules (scaled dense bounds, NaN = wildcard), its
        ``bounds`` entry made on the way."""
        rule, feature = np.nonzero(~np.isnan(lower))
        bounds[event] = RulePairs(len(lower), rule, feature, *scaling.unscale_at(
            feature, lower[rule, feature], upper[rule, feature]),
            None if sets is None else sets[rule, feature])
        return texts(scaling, lower, upper, bits, feature_names, label_names, sets)

    def logged(event, log):
        d = trace.offspring.shape[-1]
        return kept(event, *dense_bounds(log, d), labelsets[live(log).ls], dense_sets(log, d))

    def offspring(event, stage):
        spec, c, s = (trace.offspring[:, stage, k] for k in range(3))
        spec = spec.astype(bool)
        sets = trace.offspring_sets[:, stage]
        # only where specified: elsewhere c and s hold no bound (c - s warned of inf - inf)
        lower = np.subtract(c, s, out=np.full_like(c, np.nan), where=spec)
        upper = np.add(c, s, out=np.full_like(c, np.nan), where=spec)
        return kept(event, np.maximum(lower, 0.0), np.minimum(upper, 1.0),
                    np.stack([row_bits] * 2),
                    np.where(spec, sets, NO_SET) if sets.shape[1] else None)

    ga = None
    if ints[tr.GA]:
        children = logged("stored", trace.children)
        fates, stored = [], []
        for k in range(2):
            fate = ints[tr.FATE1 + k]
            fates.append("inserted" if fate < 0 else f"subsumed by parent {fate}")
            stored.append(children[k] if fate < 0 else None)
        ga = GAEvent(
            parents=logged("parents", trace.parents),
            parent_ids=[int(ints[tr.PARENT1]), int(ints[tr.PARENT2])],
            crossover=bool(ints[tr.CROSSED]),
            after_crossover=offspring("after_crossover", 0),
            after_mutation=offspring("after_mutation", 1),
            fates=fates,
            stored=stored,
        )
    covering = logged("covering", trace.covering) if ints[tr.COVERED] >= 0 else []
    return IterationTrace(
        iteration=iteration,
        row=int(ints[tr.ROW]),
        labelset=[name for name, bit in zip(label_names, row_bits, strict=True) if bit],
        rules_before=rules_before,
        match_set=trace.mset[: ints[tr.N_MATCH]].tolist(),
        correct_set=trace.cset[: ints[tr.N_CORRECT]].tolist(),
        covering=covering[0] if covering else None,
        ga=ga,
        subsumed=logged("subsumed", trace.subsumed),
        deleted=logged("deleted", trace.deleted),
        bounds=bounds,
    )
