"""A training run: everything the LCS cycle reads and changes, in one object.

It holds the kernels' configuration and the population sized by that same configuration, the
scaling of the features onto the rules' [0, 1] axes, the distinct labelsets seen, the random
generator, the event counters, the bounded training history and, while training data is bound,
the scaled features, their labelset ids and the epoch order. Configuration flows one way: the
estimator (``estimator.py``, its scikit-learn face) resolves its parameters into a `Config`
(`mlr_core.params.engine_config`) and hands the run checked data; the run allocates, scales and
binds. What predicts is a snapshot of the rules, a `RuleSet` (`TrainingRun.rule_set`); the JSON
format (``io.py``) saves the rule set and the run's own state (`TrainingRun.to_dict`) side by
side.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from mlr_core._engine import population as popmod
from mlr_core._engine import rng
from mlr_core._engine.cycle import (
    EPOCH,
    ITERATION,
    N_COUNTERS,
    N_COVERING,
    N_DELETION,
    N_GA,
    N_MATCHED,
    N_SUBSUMPTION,
    POSITION,
    Config,
    run_iterations,
)
from mlr_core._engine.deletion import delete_excess
from mlr_core._engine.trace import Trace, new_trace
from mlr_core._engine.update import label_scores
from mlr_core.errors import (
    InputError,
    MLRError,
    ModelFormatError,
    require,
    saved_real,
    saved_whole,
)
from mlr_core.model_file import FEATURE_RULES_PER_FEATURE
from mlr_core.rule_set import RuleSet
from mlr_core.scaling import Scaling

MAX_HISTORY = 1000
"""History rows kept; when full, every other row goes and the spacing doubles."""

SUMMARY_KEYS = ("iteration", "epoch", "macro_size", "micro_size", "mean_fitness",
                "mean_generality", "coverage", "n_covering", "n_ga", "n_subsumption", "n_deletion")
"""The keys of `TrainingRun.summary`, in order: the columns of the history."""
HISTORY_KEYS = {*SUMMARY_KEYS, "_matched"}
HISTORY_WHOLE = {"iteration", "macro_size", "micro_size", "n_covering", "n_ga", "n_subsumption",
                 "n_deletion", "_matched"}
"""The history's columns that count (whole numbers); the others are means and shares."""

EXTRA_SLOTS = 3  # one iteration inserts at most 3 rules (covering, two offspring) before deletion

def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system: rely on MemoryError
        return None


def _gib(n_bytes: float) -> str:
    return f"{n_bytes / 2**30:,.1f} GiB"


def allocate_population(config: Config) -> popmod.Population:
    """An empty population sized by ``config`` (``n_rules`` + 3 slots of ``max_specified``
    features), refused with an InputError, naming the memory, when the machine cannot hold it."""
    sets = len(config.levels) > 0  # the data has nominal features
    need = popmod.population_bytes(config.n_rules + EXTRA_SLOTS, config.max_specified, sets)
    have = _physical_memory()
    if have is not None and need > have:
        raise InputError(f"n_rules={config.n_rules:,} needs {_gib(need)} for the rule "
                         f"population, more than the {_gib(have)} of this machine: choose a "
                         "smaller n_rules.")
    try:
        return popmod.new_population(config.n_rules + EXTRA_SLOTS, config.max_specified, sets)
    except MemoryError as err:
        raise InputError(f"n_rules={config.n_rules:,} does not fit in memory: choose a smaller "
                         "n_rules.") from err


class TrainingRun:
    """The state of one model's training; see the module docstring.

    Parameters
    ----------
    config : Config
        The kernels' parameters; the population is allocated from it.
    fitness : {"hl", "em"}
        How a rule's labelset is scored against an instance's.
    scaling : Scaling
        The training range of each feature (`Scaling.of` the training data).
    n_labels : int
    seed : int
        Seeds the run's own random generator.
    history_every : int
        Iterations between two history rows (doubled whenever the history fills up).
    """

    def __init__(self, config: Config, fitness: str, scaling: Scaling, n_labels: int, seed: int,
                 history_every: int):
        self.config, self.fitness, self.scaling = config, fitness, scaling
        self.population = allocate_population(config)
        self.n_features = len(scaling.data_min)
        self.labelsets = np.zeros((0, n_labels), dtype=np.uint8)
        self.rng = rng.new_state(seed)
        self.counters = np.zeros(N_COUNTERS, dtype=np.int64)
        self.card = 0.0
        self.history_rows: list[dict] = []
        self.record_every = int(history_every)
        self.next_record = int(history_every)
        #: The ids of the population's rules while they are a saved or compacted rule set's
        #: (``RuleSet.rule_ids``); None (their slots) once training changes them.
        self.rule_ids = None
        self.unbind()

    # --------------------------------------------------------------- configuration

    def reconfigure(self, config: Config, fitness: str) -> None:
        """Adopt new parameters between runs (a warm start). A new ``n_rules`` reallocates the
        population and moves the rules over; above the new N, copies are deleted first, as
        the deletion step would, so that every array stays sized by the config in force."""
        if config.max_specified != self.config.max_specified:
            raise MLRError("max_specified cannot change within a training run.")
        if config.n_rules != self.config.n_rules:
            old = self.population
            deleted = delete_excess(old, config, self.rng, None)
            self.counters[N_DELETION] += deleted
            if deleted:
                self.rule_ids = None
            new = allocate_population(config)
            popmod.copy_into(new, old)
            self.population = new
        self.config, self.fitness = config, fitness

    # ---------------------------------------------------------------- data binding

    def bind_rows(self, X: np.ndarray, Y: np.ndarray) -> None:
        """Bind training rows (a checked float matrix in the data's units, 0/1 labels): scale
        them onto the rules' axes, add the labelsets not seen before and start a new epoch,
        whose order the next iteration draws (`learn`)."""
        self.bind_scaled_rows(self.scaling.transform(X), Y)

    def bind_scaled_rows(self, X_scaled: np.ndarray, Y: np.ndarray) -> None:
        """`bind_rows` for rows already on the rules' axes (another run's bound rows)."""
        known = {row.tobytes(): i for i, row in enumerate(self.labelsets)}
        ids = np.empty(len(Y), dtype=np.int32)
        new = []
        for r, row in enumerate(Y):
            key = row.tobytes()
            if key not in known:
                known[key] = len(known)
                new.append(row)
            ids[r] = known[key]
        if new:
            self.labelsets = np.vstack([self.labelsets, np.array(new, dtype=np.uint8)])
        self.scores = label_scores(self.labelsets, self.fitness)
        self.X, self.y_ids = X_scaled, ids
        self.card = float(Y.sum(axis=1).mean())
        self.order = np.arange(len(X_scaled), dtype=np.int64)
        self.order_due = True

    def unbind(self) -> None:
        self.X = self.y_ids = self.order = self.scores = None
        #: Whether the epoch order of the rows bound is still to be drawn: the first iteration
        #: after a bind draws it, so that binding alone changes nothing a file saves (the
        #: random state, the position in the epoch) and a loaded model bound to its training
        #: rows saves the same bytes again.
        self.order_due = False

    @property
    def bound(self) -> bool:
        return self.X is not None

    @property
    def iteration(self) -> int:
        """Training iterations run so far."""
        return int(self.counters[ITERATION])

    def truth(self) -> np.ndarray:
        """The bound rows' 0/1 labels."""
        return self.labelsets[self.y_ids]

    # --------------------------------------------------------------------- learning

    def learn(self, n_iterations: int, trace=None, clock=None) -> None:
        """Advance by ``n_iterations`` iterations, adding history rows as they fall due.
        ``trace`` (for one iteration only): a ``_engine.trace.Trace`` the kernels fill;
        ``clock``: a ``_engine.clock.new_clock()`` array that counts each step's CPU cycles."""
        if not self.bound:
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        pop, cfg = self.population, self.config
        if pop.nspec.shape[0] < max(cfg.n_rules, pop.size[0]) + EXTRA_SLOTS or \
                pop.feat.shape[1] < max(cfg.max_specified, 1):
            # the kernels do not check bounds: never run them on arrays too small
            raise MLRError("The population's arrays do not match the configuration.")
        remaining = int(n_iterations)
        if remaining > 0:
            self.rule_ids = None
            if self.order_due:
                rng.shuffle(self.rng, self.order)
                self.counters[POSITION] = 0
                self.order_due = False
        while remaining > 0:
            due = self.next_record - int(self.counters[ITERATION])
            step = min(remaining, max(due, 1))
            run_iterations(pop, self.X, self.y_ids, self.scores, self.order, self.counters,
                           self.rng, cfg, step, trace, clock)
            remaining -= step
            if int(self.counters[ITERATION]) >= self.next_record:
                self._record()

    def step_traced(self) -> Trace:
        """One iteration, exactly as `learn` (1) would run it, with its events recorded."""
        trace = new_trace(self.population.nspec.shape[0], self.config.max_specified,
                          self.n_features, popmod.has_sets(self.population))
        self.learn(1, trace)
        return trace

    def rule_set(self, scorer, bipartition, voting, feature_names, label_names,
                 feature_rules=None) -> RuleSet:
        """The rules as they are now, followed by the fit's one-condition rules
        ``feature_rules`` (a population) if given, with this scorer and bipartition (a copy:
        training may go on). Those are numbered after the run's own (its kept ids, or slots)."""
        rules, ids, extra = self.population, self.rule_ids, 0
        if feature_rules is not None:
            rules = popmod.concatenate(self.population, feature_rules)
            extra = int(feature_rules.size[0])
            if ids is not None:
                after = int(ids.max()) + 1 if len(ids) else 0
                ids = np.concatenate([ids, np.arange(after, after + extra)])
        return RuleSet.from_population(rules, self.labelsets, self.scaling, scorer,
                                       bipartition, voting, feature_names, label_names,
                                       self.iteration, ids, extra)

    def generality(self) -> np.ndarray:
        return popmod.generality(self.population, self.n_features, self.scaling.levels)

    def summary(self) -> dict:
        """Sizes, mean fitness and generality, coverage since the last history row, counters."""
        pop = popmod.live(self.population)
        c = self.counters
        micro = int(pop.micro[0])
        last = self.history_rows[-1] if self.history_rows else None
        span = int(c[ITERATION]) - (last["iteration"] if last else 0)
        if span > 0:
            coverage = (int(c[N_MATCHED]) - (last["_matched"] if last else 0)) / span
        else:
            coverage = last["coverage"] if last else float("nan")
        n_train = len(self.order) if self.bound else 0
        return {
            "iteration": int(c[ITERATION]),
            "epoch": int(c[ITERATION]) / n_train if n_train else float(c[EPOCH]),
            "macro_size": len(pop.num),
            "micro_size": micro,
            "mean_fitness": float(pop.fit @ pop.num / micro) if micro else 0.0,
            "mean_generality": float(self.generality() @ pop.num / micro) if micro else 0.0,
            "coverage": coverage,
            "n_covering": int(c[N_COVERING]),
            "n_ga": int(c[N_GA]),
            "n_subsumption": int(c[N_SUBSUMPTION]),
            "n_deletion": int(c[N_DELETION]),
        }

    def history(self) -> pd.DataFrame:
        frame = pd.DataFrame(self.history_rows)
        return frame.drop(columns="_matched") if "_matched" in frame else frame

    def _record(self) -> None:
        """Append a history row; thin the history and double its spacing when it is full."""
        row = self.summary()
        row["_matched"] = int(self.counters[N_MATCHED])
        self.history_rows.append(row)
        if len(self.history_rows) >= MAX_HISTORY:
            self.history_rows = self.history_rows[1::2]
            self.record_every *= 2
        self.next_record = row["iteration"] + self.record_every

    # ------------------------------------------------------------------------ JSON

    def to_dict(self) -> dict:
        """The run's own state as JSON-ready data; its rules are saved as a `RuleSet` beside it
        and bound training data is not saved."""
        return {
            "n_rules": int(self.config.n_rules),
            "max_specified": int(self.config.max_specified),
            "label_cardinality": float(self.card),
            "counters": self.counters.tolist(),
            "rng_state": [format(int(w), "x") for w in self.rng],
            "history": {"every": self.record_every, "next": self.next_record,
                        "rows": self.history_rows},
        }

    @classmethod
    def from_dict(cls, data: dict, config: Config, fitness: str, rule_set: RuleSet,
                  history_every: int) -> TrainingRun:
        """Rebuild a run from `to_dict` output and the rule set saved with it (its evolved
        rules become the population; the fit's one-condition rules stay the rule set's, as in
        the run that saved it), checking every field (ModelFormatError)."""
        require(rule_set.rules.feat.shape[1] <= max(config.max_specified, 1),
                "The rules specify more features than max_specified.")
        micro = int(rule_set.evolved()[0].micro[0])
        limit = config.n_rules + FEATURE_RULES_PER_FEATURE * len(rule_set.feature_names)
        require(micro <= limit, f"The evolved rules hold {micro} copies, more than n_rules = "
                f"{config.n_rules} and one per feature (a file that does not tell the fit's "
                "one-condition rules apart).")
        run = cls._of_rules(config, fitness, rule_set, history_every)
        counters = data["counters"]
        require(isinstance(counters, list) and len(counters) == N_COUNTERS,
                f"\"counters\" must be a list of {N_COUNTERS} whole numbers.")
        run.counters = np.array([saved_whole(c, f"counters[{k}]") for k, c in enumerate(counters)],
                                dtype=np.int64)
        require(int(run.counters[ITERATION]) == rule_set.iteration,
                "The rules were saved at another iteration than the training run.")
        run.rng = _rng_state(data["rng_state"])
        run.card = saved_real(data["label_cardinality"], "label_cardinality", 0.0)
        history = data["history"]
        require(isinstance(history, dict), "\"history\" must be an object.")
        run.history_rows = _history_rows(history["rows"], run.counters)
        run.record_every = saved_whole(history["every"], "history \"every\"", 1)
        run.next_record = saved_whole(history["next"], "history \"next\"")
        return run

    def with_rules(self, rule_set: RuleSet) -> TrainingRun:
        """A copy of this run whose population is ``rule_set``'s evolved rules (a subset or a
        compaction of this run's), its counters, random state and history this run's, and this
        run's training rows bound, where they are, if any: training goes on from here."""
        run = TrainingRun._of_rules(self.config, self.fitness, rule_set, self.record_every)
        run.counters, run.rng, run.card = self.counters.copy(), self.rng.copy(), self.card
        run.history_rows = list(self.history_rows)
        run.next_record = self.next_record
        if self.bound:
            run.bind_scaled_rows(self.X, self.truth())
        return run

    @classmethod
    def _of_rules(cls, config: Config, fitness: str, rule_set: RuleSet,
                  history_every: int) -> TrainingRun:
        """A new run whose population is ``rule_set``'s evolved rules (the fit's one-condition
        rules stay the rule set's) and whose labelsets are the rule set's."""
        evolved, ids = rule_set.evolved()
        run = cls(config, fitness, rule_set.scaling, len(rule_set.label_names), seed=0,
                  history_every=history_every)
        size = int(evolved.size[0])
        if size + EXTRA_SLOTS > run.population.nspec.shape[0]:
            # a file that does not tell them apart holds the one-condition rules among the N
            # evolved ones; the first iteration of further training deletes copies down to N
            run.population = popmod.new_population(size + EXTRA_SLOTS, config.max_specified,
                                                   popmod.has_sets(evolved))
        popmod.copy_into(run.population, evolved)
        run.labelsets = rule_set.labelsets.copy()
        run.rule_ids = ids
        return run


def _rng_state(words) -> np.ndarray:
    """The saved generator state: four 64-bit hex words, not all zero (xoshiro's one dead
    state)."""
    require(isinstance(words, list) and len(words) == 4
            and all(isinstance(w, str) and 1 <= len(w) <= 16 for w in words),
            "rng_state must be 4 hex words of at most 16 digits.")
    try:
        state = np.array([int(w, 16) for w in words], dtype=np.uint64)
    except ValueError as err:
        raise ModelFormatError(f"rng_state must be 4 hex words: {err}.") from err
    require(state.any(), "rng_state must not be all zero.")
    return state


def _history_rows(rows, counters: np.ndarray) -> list[dict]:
    """The saved history, every value checked: `summary` and the charts compute with them. Each
    row holds the `HISTORY_KEYS`, counts as whole numbers and the rest as numbers (coverage
    NaN when unknown), at iterations rising up to the run's own."""
    require(isinstance(rows, list) and len(rows) <= MAX_HISTORY,
            f"\"history\" rows must be a list of at most {MAX_HISTORY} rows.")
    before = {"iteration": -1, "_matched": 0}
    for k, row in enumerate(rows):
        where = f"history row {k}"
        require(isinstance(row, dict) and set(row) == HISTORY_KEYS,
                f"{where} must hold exactly the keys {sorted(HISTORY_KEYS)}.")
        for key in (*SUMMARY_KEYS, "_matched"):
            if key in HISTORY_WHOLE:
                saved_whole(row[key], f"{where}: {key}")
            else:
                saved_real(row[key], f"{where}: {key}", nan=key == "coverage")
        require(before["iteration"] < row["iteration"] <= counters[ITERATION]
                and before["_matched"] <= row["_matched"] <= counters[N_MATCHED],
                f"{where}: its iteration and _matched must rise from row to row, up to the "
                "run's counters.")
        before = row
    return list(rows)  # the run's own: training appends to it
