"""What the pages draw of the model at one iteration, and the snapshots kept for time travel
within a memory budget per tab."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

import pandas as pd

from dashboard.bounds import RuleBounds
from dashboard.curves import ThinnedLog
from dashboard.data_split import DataSplit

if TYPE_CHECKING:
    from mlr_core.scaling import Scaling

#: Population snapshots kept for time travel at most (thinned like the curves: they span the run).
SNAPSHOTS = 40
#: Memory the kept snapshots of one tab may take; beyond it they are thinned like the count.
SNAPSHOT_BUDGET_BYTES = 48_000_000
#: What the engine reports for a model that has not learned yet (a unit test checks these
#: against the engine): a new tab's first page shows them without starting the engine.
FRESH_SUMMARY = {
    "iteration": 0, "epoch": 0.0, "macro_size": 0, "micro_size": 0, "mean_fitness": 0.0,
    "mean_generality": 0.0, "coverage": math.nan, "n_covering": 0, "n_ga": 0,
    "n_subsumption": 0, "n_deletion": 0,
}
RULE_COLUMNS = {
    "rule": "object", "labelset": "object", "fitness": "float64", "accuracy": "float64",
    "numerosity": "int64", "experience": "int64", "generality": "float64",
    "n_specified": "int32", "correct_set_size": "float64", "last_ga": "int64", "birth": "int64",
    "conditions": "object", "labelset_id": "int64",
}


@dataclass(frozen=True)
class Snapshot:
    """What every page shows of the model at one iteration, taken once under the session's lock.

    ``rules`` is the engine's ``rules_frame`` plus ``labelset_id`` (the session's labelset ids,
    -1 for a labelset absent from the data); ``bounds`` are its specified bounds, row for row.
    """

    iteration: int
    summary: dict
    rules: pd.DataFrame
    bounds: RuleBounds
    history: pd.DataFrame
    curves: pd.DataFrame
    #: The model's scaling: its category lists (``Scaling.categories``) and what it reads a
    #: missing value as (``Scaling.fills``); None before a model is started.
    scaling: Scaling | None = None

    @cached_property
    def evolved(self) -> Snapshot:
        """This snapshot with the population's rules alone: ``rules`` ends with the rule
        weights' one-condition rules where the fit keeps them (``MLRClassifier.population_``),
        which the population does not hold; a page about the population draws and counts
        without them."""
        macro = int(self.summary["macro_size"])
        if len(self.rules) <= macro:
            return self
        return replace(self, rules=self.rules.iloc[:macro], bounds=self.bounds.head(macro))

    @cached_property
    def nbytes(self) -> int:
        """Measured once (the store sums its snapshots' sizes at every point it keeps)."""
        return self.bounds.nbytes + int(self.rules.memory_usage(index=True, deep=True).sum())


def snapshot_of(training, split: DataSplit, curves: pd.DataFrame) -> Snapshot:
    """A snapshot of ``training``'s model (its `TrainingSession`, trained on ``split``), with
    ``curves``; of a model not started (None), what a fresh one shows, without the engine.
    Taken under the session's lock (``Session.snapshot``)."""
    if training is None:
        rules = pd.DataFrame({name: pd.Series(dtype=kind) for name, kind in RULE_COLUMNS.items()})
        return Snapshot(
            iteration=0, summary=dict(FRESH_SUMMARY), rules=rules.rename_axis("rule_id"),
            bounds=RuleBounds.empty(split.dataset.X.shape[1]), history=pd.DataFrame(),
            curves=curves,
        )
    model = training.model
    summary = training.summary()
    rules = model.rules_frame()
    model_ids = split.labelsets.ids_of(model.labelsets_)
    rules["labelset_id"] = model_ids[model.population_.ls[: len(rules)]]
    return Snapshot(
        iteration=summary["iteration"], summary=summary, rules=rules,
        bounds=RuleBounds.of_model(model), history=training.history(),
        curves=curves, scaling=model.run_.scaling,
    )


def for_time_travel(snap: Snapshot) -> Snapshot:
    """What drawing the population needs of a snapshot kept for later: without the rule text
    and the history, the bounds in float32."""
    return replace(snap, rules=snap.rules.drop(columns=["rule", "labelset", "conditions"]),
                   history=pd.DataFrame(), curves=pd.DataFrame(), bounds=snap.bounds.compact())


class SnapshotStore(ThinnedLog):
    """Snapshots spanning the run: at most ``max_points`` and ``budget_bytes`` of them."""

    def __init__(self, max_points: int = SNAPSHOTS, budget_bytes: int = SNAPSHOT_BUDGET_BYTES):
        super().__init__(max_points=max_points, min_seconds=0.0)
        self.budget_bytes = budget_bytes

    def keep(self, snap: Snapshot) -> None:
        """Keep ``snap`` if one is due at its iteration, then thin until within the budget."""
        if not self.points.maxlen or not self.due(snap.iteration, 0.0, force=True):
            return
        self.add(snap.iteration, 0.0, {"snap": for_time_travel(snap)})
        while len(self.points) > 2 and self.nbytes > self.budget_bytes:
            self.thin()

    @property
    def nbytes(self) -> int:
        return sum(point["snap"].nbytes for point in self.points)

    def snapshots(self) -> list[Snapshot]:
        return [point["snap"] for point in self.points]
